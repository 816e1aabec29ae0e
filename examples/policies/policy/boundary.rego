# Rules (c), (d) and (e) on cleanup boundaries: boundaries only move forward,
# large deletions need an approval, and what cannot be reviewed (unknown at
# plan time) is refused unless approved. They apply alike to a
# flinkagents_cleanup_boundary and to each entry of a
# flinkagents_cleanup_boundaries (boundary_writes, below).
package main

import rego.v1

boundary_type := "flinkagents_cleanup_boundary"

fleet_type := "flinkagents_cleanup_boundaries"

# Default cap on records one apply may delete without an approval. Override
# with the data document params.json: {"params": {"max_records_to_delete": N}}.
default max_records_to_delete := 1000000

max_records_to_delete := data.params.max_records_to_delete

# Each boundary the plan writes, whichever resource holds it: address names
# it (an entry as ADDRESS["key"]), before and after are its values (before
# null when new), unknown what Terraform only knows at apply time.
boundary_writes contains b if {
	some rc in changes(boundary_type)
	writes(rc)
	not writes_nothing(rc.change.after)
	b := {"address": rc.address, "before": rc.change.before, "after": rc.change.after, "unknown": object.get(rc.change, "after_unknown", {})}
}

# An entry of the fleet's resource that the plan changes or adds; entries
# it leaves as they were are not writes.
boundary_writes contains b if {
	some rc in changes(fleet_type)
	writes(rc)
	some key, after in rc.change.after.boundaries
	before := entry_before(rc, key)
	after != before
	not writes_nothing(after)
	b := {"address": sprintf("%s[%q]", [rc.address, key]), "before": before, "after": after, "unknown": entry_unknown(rc, key)}
}

# The whole map unknown until apply: nothing in it can be reviewed.
boundary_writes contains b if {
	some rc in changes(fleet_type)
	writes(rc)
	rc.change.after_unknown.boundaries == true
	b := {"address": rc.address, "before": null, "after": {}, "unknown": {"records_to_delete": true, "plan_json": true, "plan_id": true}}
}

# A boundary whose plan was refused at plan time and is held (REFUSED), or
# that has no plan (NONE), writes and deletes nothing in this apply.
writes_nothing(after) if after.status in {"REFUSED", "NONE"}

# Held boundaries are reported, not denied: the provider already refused
# them, and the other boundaries of the run go ahead.
warn contains msg if {
	some rc in changes(fleet_type)
	some key, after in rc.change.after.boundaries
	after.status == "REFUSED"
	msg := sprintf("[held] %s[%q]: its plan was refused at plan time and is held; the plan's warning says why", [rc.address, key])
}

entry_before(rc, key) := v if {
	v := rc.change.before.boundaries[key]
} else := null

entry_unknown(rc, key) := u if {
	u := rc.change.after_unknown.boundaries[key]
	is_object(u)
} else := {}

# (c) offsets never go down, per partition, and the partition set never
# changes, comparing the old and new plan of the same boundary (in place, or a
# replace such as a switch to another control topic, which the provider's own
# check cannot see because it reads only the new control topic).
deny contains msg if {
	some b in boundary_writes
	same_topic(b)
	before := plan_offsets(b.before)
	after := plan_offsets(b.after)
	is_object(before)
	is_object(after)
	some p, old in before
	new := object.get(after, p, null)
	new != null
	new < old
	msg := sprintf("[boundary-forward] %s: partition %s moves back from %d to %d; boundaries only move forward", [b.address, p, old, new])
}

deny contains msg if {
	some b in boundary_writes
	same_topic(b)
	before := plan_offsets(b.before)
	after := plan_offsets(b.after)
	is_object(before)
	is_object(after)
	object.keys(before) != object.keys(after)
	msg := sprintf("[boundary-forward] %s: the partition set changes from %v to %v", [b.address, sort(object.keys(before)), sort(object.keys(after))])
}

# A plan for another topic ID than the boundary's previous plan starts a new
# history (the topic was deleted and recreated, and the provider records it
# only in a control topic that holds none of the old one's plans): its
# offsets cannot be compared with the old ones, so it needs an approval
# after review instead.
deny contains msg if {
	some b in boundary_writes
	before := plan_topic_id(b.before)
	after := plan_topic_id(b.after)
	before != after
	not approved(b.after.plan_id)
	msg := sprintf("[new-history] %s: the plan is for topic ID %s, the previous one for %s (the topic was recreated); review it and approve plan ID %v in approvals.json",
		[b.address, after, before, b.after.plan_id])
}

same_topic(b) if plan_topic_id(b.before) == plan_topic_id(b.after)

plan_topic_id(values) := json.unmarshal(trim_prefix(values.plan_json, "\ufeff")).topicId if is_string(values.plan_json)

# The offsets of the plan a boundary holds, by partition ("0", "1", ...):
# plan_json is the plan file, shown in full in the plan. A leading UTF-8
# byte-order mark, which the provider accepts, is skipped.
plan_offsets(values) := json.unmarshal(trim_prefix(values.plan_json, "\ufeff")).offsets if is_string(values.plan_json)

# (d) a cap on deleted records, unless the plan ID is approved.
deny contains msg if {
	some b in boundary_writes
	n := b.after.records_to_delete
	is_number(n)
	n > max_records_to_delete
	not approved(b.after.plan_id)
	msg := sprintf("[deletion-cap] %s: deletes %d records, above the cap of %d; add plan ID %v to approvals.json after review",
		[b.address, n, max_records_to_delete, b.after.plan_id])
}

# (e) fail closed on what cannot be reviewed: the deletion preview, the
# plan (and so its offsets) or the plan ID unknown until apply. The preview
# is unknown when a topic is created in the same apply, and for an entry of
# flinkagents_cleanup_boundaries added in this plan with its plan_json (no
# refresh has read its topics yet; its apply reads them).
deny contains msg if {
	some b in boundary_writes
	some attr in ["records_to_delete", "plan_json", "plan_id"]
	object.get(b.unknown, attr, false) == true
	not approved(object.get(b.after, "plan_id", null))
	msg := sprintf("[unknown] %s: %s is unknown until apply, so the deletion cannot be reviewed; approve plan ID %v in approvals.json, or first apply the topics, and a new fleet entry without plan_json, so the next plan shows it",
		[b.address, attr, object.get(b.after, "plan_id", "(unknown)")])
}
