# Two of the policies' boundary rules inside Terraform itself, for a review
# without OPA: check blocks warn in every plan, and the same conditions in a
# precondition would stop it. The plan is read as typed values with
# provider::flinkagents::decode_plan (Terraform 1.8+), never by indexing
# jsondecode(plan_json) by hand: it applies the runtime's rules and names
# what is wrong with a plan it cannot read.

variable "plan_json" {
  description = "The plan the boundary is given (data.flinkagents_cleanup_plan's plan_json, or a plan file)."
  type        = string
}

variable "approvals" {
  description = "Plan IDs approved after review, as in approvals.json."
  type        = set(string)
  default     = []
}

variable "max_records_to_delete" {
  description = "The [deletion-cap]: above it, a plan needs an approval (params.json's max_records_to_delete)."
  type        = number
  default     = 1000000
}

locals {
  next = provider::flinkagents::decode_plan(var.plan_json)
}

resource "flinkagents_cleanup_boundary" "orders" {
  control_topic      = "orders-agent-cleanup-control"
  action_state_topic = "orders-agent-action-state"
  plan_json          = var.plan_json
}

# [boundary-forward]: no partition's offset below the recorded boundary, and
# the same partitions (the provider refuses this too; this says it in review).
check "boundary_forward" {
  data "flinkagents_cleanup_boundary" "recorded" {
    control_topic = "orders-agent-cleanup-control"
  }

  assert {
    condition = length(data.flinkagents_cleanup_boundary.recorded.committed_boundary) == 0 || (
      toset(keys(local.next.offsets)) == toset(keys(data.flinkagents_cleanup_boundary.recorded.committed_boundary)) &&
      alltrue([for p, off in data.flinkagents_cleanup_boundary.recorded.committed_boundary : local.next.offsets[p] >= off])
    )
    error_message = "[boundary-forward] plan ${local.next.plan_id} (${local.next.source_recovery_point}) is below the recorded boundary, or names other partitions."
  }
}

# [deletion-cap]: more than the cap needs the plan ID approved.
check "deletion_cap" {
  assert {
    condition     = flinkagents_cleanup_boundary.orders.records_to_delete <= var.max_records_to_delete || contains(var.approvals, local.next.plan_id)
    error_message = "[deletion-cap] plan ${local.next.plan_id} deletes ${flinkagents_cleanup_boundary.orders.records_to_delete} records, above ${var.max_records_to_delete}; approve it after review."
  }
}
