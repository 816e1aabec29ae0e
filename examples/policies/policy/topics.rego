# Rules (a) and (b): the topics holding action state and cleanup boundaries
# are never destroyed or replaced, and their enforced settings never change.
# The provider refuses most of this at plan time already (deletion_protection,
# partition and replication changes, reserved settings); these rules keep
# holding when that protection was switched off or a provider version did not
# enforce it.
package main

import rego.v1

protected_types := {"flinkagents_action_state_topic", "flinkagents_cleanup_control_topic"}

# (a) no destroy, no replace.
deny contains msg if {
	some type in protected_types
	some rc in changes(type)
	destroys(rc)
	msg := sprintf(
		"[no-destroy] %s: planned %v; topics holding action state or cleanup boundaries are never destroyed or replaced by Terraform (a replace loses the topic ID that recovery markers and plans name)",
		[rc.address, rc.change.actions],
	)
}

# Settings the Flink Agents runtime and the cleanup protocol require.
enforced := {
	"flinkagents_action_state_topic": {
		"cleanup_policy": {"compact", "delete"},
		"retention_ms": {"-1"},
		"retention_bytes": {"-1"},
	},
	"flinkagents_cleanup_control_topic": {"cleanup_policy": {"compact"}},
}

# Topic settings that must come from the enforced attributes, never from config.
reserved_config_keys := {"cleanup.policy", "retention.ms", "retention.bytes", "local.retention.ms", "local.retention.bytes"}

# cleanup.policy is compared as a set of comma-separated, trimmed values.
setting_values(value) := {trim_space(v) | some v in split(value, ",")}

# (b) planned values of the enforced settings.
deny contains msg if {
	some type, settings in enforced
	some rc in changes(type)
	writes(rc)
	some attr, want in settings
	not unknown(rc, attr)
	got := object.get(rc.change.after, attr, null)
	not setting_matches(got, want)
	msg := sprintf("[enforced-settings] %s: %s planned as %v, must be %v", [rc.address, attr, got, concat(",", sort(want))])
}

setting_matches(got, want) if {
	is_string(got)
	setting_values(got) == want
}

deny contains msg if {
	some type, settings in enforced
	some rc in changes(type)
	writes(rc)
	some attr, _ in settings
	unknown(rc, attr)
	msg := sprintf("[enforced-settings] %s: %s is unknown until apply; refusing what cannot be reviewed", [rc.address, attr])
}

deny contains msg if {
	some type in protected_types
	some rc in changes(type)
	writes(rc)
	some key, _ in object.get(rc.change.after, "config", {})
	key in reserved_config_keys
	msg := sprintf("[enforced-settings] %s: config sets %s, which only the provider may manage", [rc.address, key])
}

# (b) partitions never change on an existing topic; the replication factor
# is only ever raised (the provider reassigns partitions in place).
deny contains msg if {
	some type in protected_types
	some rc in changes(type)
	rc.change.before != null
	rc.change.after != null
	before := object.get(rc.change.before, "partitions", null)
	shape_changed(rc, "partitions", before)
	msg := sprintf("[enforced-settings] %s: partitions changes from %v to %v; the partitions of these topics never change",
		[rc.address, before, object.get(rc.change.after, "partitions", "(unknown)")])
}

deny contains msg if {
	some type in protected_types
	some rc in changes(type)
	rc.change.before != null
	rc.change.after != null
	not "create" in rc.change.actions # a replace is [no-destroy]'s; a new topic's factor is the broker's default
	before := object.get(rc.change.before, "replication_factor", null)
	replication_lowered(rc, before)
	msg := sprintf("[enforced-settings] %s: replication_factor goes from %v to %v; the replication of these topics is only ever raised",
		[rc.address, before, object.get(rc.change.after, "replication_factor", "(unknown)")])
}

replication_lowered(rc, before) if {
	before != null
	unknown(rc, "replication_factor")
}

replication_lowered(rc, before) if {
	before != null
	after := object.get(rc.change.after, "replication_factor", null)
	after != null
	after < before
}

shape_changed(rc, attr, before) if {
	before != null
	unknown(rc, attr)
}

shape_changed(rc, attr, before) if {
	before != null
	after := object.get(rc.change.after, attr, null)
	after != before
}
