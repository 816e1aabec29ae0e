# Rules (a) and (b) for flinkagents_action_state_topics, which holds every
# operator's two topics in one object: a topic is gone when its entry, or the
# entry's control_topic, is in the object before and not after, or when the
# whole object is destroyed; and each topic's planned settings are checked as
# the single-topic resources' are (topics.rego).
package main

import rego.v1

fleet_topics_type := "flinkagents_action_state_topics"

# The kinds of topic an entry holds, and the single-topic type whose
# enforced settings (topics.rego) each kind must have.
fleet_kinds := {"action_state_topic": "flinkagents_action_state_topic", "control_topic": "flinkagents_cleanup_control_topic"}

# One topic of one entry, before or after the change (null when absent).
fleet_topic(side, key, kind) := object.get(object.get(object.get(side, "operators", {}), key, {}), kind, null)

# Whether after_unknown marks one attribute of one entry's topic.
fleet_unknown(rc, key, kind, attr) if {
	rc.change.after_unknown.operators[key][kind][attr] == true
}

# (a) the whole fleet destroyed or replaced.
deny contains msg if {
	some rc in changes(fleet_topics_type)
	destroys(rc)
	msg := sprintf(
		"[no-destroy] %s: planned %v; topics holding action state or cleanup boundaries are never destroyed or replaced by Terraform (a replace loses the topic ID that recovery markers and plans name)",
		[rc.address, rc.change.actions],
	)
}

# (a) one topic of an entry removed or renamed (a new name is a new topic).
deny contains msg if {
	some rc in changes(fleet_topics_type)
	writes(rc)
	rc.change.before != null
	some key, entry in object.get(rc.change.before, "operators", {})
	some kind, _ in fleet_kinds
	before := object.get(entry, kind, null)
	before != null
	after := fleet_topic(rc.change.after, key, kind)
	fleet_topic_gone(before, after)
	msg := sprintf("[no-destroy] %s[%q].%s: topic %v is deleted or replaced; topics holding action state or cleanup boundaries are never destroyed by Terraform",
		[rc.address, key, kind, before.name])
}

fleet_topic_gone(_, after) if after == null

fleet_topic_gone(before, after) if {
	after != null
	object.get(after, "name", null) != before.name
}

# (b) planned values of the enforced settings, per topic.
deny contains msg if {
	some rc in changes(fleet_topics_type)
	writes(rc)
	some key, entry in object.get(rc.change.after, "operators", {})
	some kind, type in fleet_kinds
	topic := object.get(entry, kind, null)
	topic != null
	some attr, want in enforced[type]
	not fleet_unknown(rc, key, kind, attr)
	got := object.get(topic, attr, null)
	not setting_matches(got, want)
	msg := sprintf("[enforced-settings] %s[%q].%s: %s planned as %v, must be %v", [rc.address, key, kind, attr, got, concat(",", sort(want))])
}

deny contains msg if {
	some rc in changes(fleet_topics_type)
	writes(rc)
	some key, entry in object.get(rc.change.after, "operators", {})
	some kind, type in fleet_kinds
	object.get(entry, kind, null) != null
	some attr, _ in enforced[type]
	fleet_unknown(rc, key, kind, attr)
	msg := sprintf("[enforced-settings] %s[%q].%s: %s is unknown until apply; refusing what cannot be reviewed", [rc.address, key, kind, attr])
}

deny contains msg if {
	some rc in changes(fleet_topics_type)
	writes(rc)
	some key, entry in object.get(rc.change.after, "operators", {})
	some kind, _ in fleet_kinds
	topic := object.get(entry, kind, null)
	topic != null
	some setting, _ in object.get(topic, "config", {})
	setting in reserved_config_keys
	msg := sprintf("[enforced-settings] %s[%q].%s: config sets %s, which only the provider may manage", [rc.address, key, kind, setting])
}

# (b) partitions never change on an existing topic; replication only rises.
deny contains msg if {
	some rc in changes(fleet_topics_type)
	some shape in fleet_shapes(rc)
	[key, kind, attr, was] := shape
	not fleet_unknown(rc, key, kind, attr)
	now := object.get(fleet_topic(rc.change.after, key, kind), attr, null)
	fleet_shape_refused(attr, was, now)
	msg := sprintf("[enforced-settings] %s[%q].%s: %s changes from %v to %v; partitions never change and replication is only ever raised",
		[rc.address, key, kind, attr, was, now])
}

deny contains msg if {
	some rc in changes(fleet_topics_type)
	some shape in fleet_shapes(rc)
	[key, kind, attr, was] := shape
	fleet_unknown(rc, key, kind, attr)
	msg := sprintf("[enforced-settings] %s[%q].%s: %s goes from %v to a value unknown until apply; refusing what cannot be reviewed",
		[rc.address, key, kind, attr, was])
}

# The partitions and replication factors of the topics an update keeps:
# [key, kind, attr, value before].
fleet_shapes(rc) := {[key, kind, attr, was] |
	rc.change.before != null
	rc.change.after != null
	some key, _ in object.get(rc.change.after, "operators", {})
	some kind, _ in fleet_kinds
	before := fleet_topic(rc.change.before, key, kind)
	before != null
	fleet_topic(rc.change.after, key, kind) != null
	some attr in ["partitions", "replication_factor"]
	was := object.get(before, attr, null)
	was != null
}

fleet_shape_refused("partitions", was, now) if now != was

fleet_shape_refused("replication_factor", was, now) if {
	now != null
	now < was
}
