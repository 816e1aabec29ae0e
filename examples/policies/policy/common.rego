# Shared helpers for the flinkagents policies. All rules run over the JSON of
# `terraform show -json PLANFILE` (input.resource_changes).
package main

import rego.v1

# Managed resource changes of one provider resource type.
changes(type) := [rc |
	some rc in input.resource_changes
	rc.mode == "managed"
	rc.type == type
]

# The change creates the object, updates it or replaces it.
writes(rc) if "create" in rc.change.actions

writes(rc) if "update" in rc.change.actions

# The change destroys the object: a destroy, or either order of replace.
destroys(rc) if "delete" in rc.change.actions

# An attribute whose planned value Terraform only knows at apply time.
unknown(rc, attr) if rc.change.after_unknown[attr] == true

# Plan IDs approved in the data document approvals.json:
#   {"approvals": {"plan_ids": ["<64 hex digits>", ...]}}
# A plan ID covers the recovery point, topic, topic ID and every offset, so
# an approval cannot be reused for another boundary.
approved(plan_id) if {
	is_string(plan_id)
	some id in data.approvals.plan_ids
	id == plan_id
}
