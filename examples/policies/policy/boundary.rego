# Rules (c), (d) and (e) on flinkagents_cleanup_boundary: boundaries only move
# forward, large deletions need an approval, and what cannot be reviewed
# (unknown at plan time) is refused unless approved.
package main

import rego.v1

boundary_type := "flinkagents_cleanup_boundary"

# Default cap on records one apply may delete without an approval. Override
# with the data document params.json: {"params": {"max_records_to_delete": N}}.
default max_records_to_delete := 1000000

max_records_to_delete := data.params.max_records_to_delete

# (c) offsets never go down, per partition, and the partition set never
# changes, comparing the old and new plan of the same resource (in place, or a
# replace such as a switch to another control topic, which the provider's own
# check cannot see because it reads only the new control topic).
deny contains msg if {
	some rc in changes(boundary_type)
	writes(rc)
	before := plan_offsets(rc.change.before)
	after := plan_offsets(rc.change.after)
	is_object(before)
	is_object(after)
	some p, old in before
	new := object.get(after, p, null)
	new != null
	new < old
	msg := sprintf("[boundary-forward] %s: partition %s moves back from %d to %d; boundaries only move forward", [rc.address, p, old, new])
}

deny contains msg if {
	some rc in changes(boundary_type)
	writes(rc)
	before := plan_offsets(rc.change.before)
	after := plan_offsets(rc.change.after)
	is_object(before)
	is_object(after)
	object.keys(before) != object.keys(after)
	msg := sprintf("[boundary-forward] %s: the partition set changes from %v to %v", [rc.address, sort(object.keys(before)), sort(object.keys(after))])
}

# The offsets of the plan a boundary holds, by partition ("0", "1", ...):
# plan_json is the plan file, shown in full in the plan. A leading UTF-8
# byte-order mark, which the provider accepts, is skipped.
plan_offsets(values) := json.unmarshal(trim_prefix(values.plan_json, "\ufeff")).offsets if is_string(values.plan_json)

# (d) a cap on deleted records, unless the plan ID is approved.
deny contains msg if {
	some rc in changes(boundary_type)
	writes(rc)
	n := rc.change.after.records_to_delete
	is_number(n)
	n > max_records_to_delete
	not approved(rc.change.after.plan_id)
	msg := sprintf("[deletion-cap] %s: deletes %d records, above the cap of %d; add plan ID %v to approvals.json after review",
		[rc.address, n, max_records_to_delete, rc.change.after.plan_id])
}

# (e) fail closed on what cannot be reviewed: the deletion preview, the
# plan (and so its offsets) or the plan ID unknown until apply.
deny contains msg if {
	some rc in changes(boundary_type)
	writes(rc)
	some attr in ["records_to_delete", "plan_json", "plan_id"]
	unknown(rc, attr)
	not approved(object.get(rc.change.after, "plan_id", null))
	msg := sprintf("[unknown] %s: %s is unknown until apply, so the deletion cannot be reviewed; approve plan ID %v in approvals.json, or apply the topics first",
		[rc.address, attr, object.get(rc.change.after, "plan_id", "(unknown)")])
}
