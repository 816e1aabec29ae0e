# Keep the newest three recovery points restorable; clean everything below
# the third. After each new checkpoint, `terraform apply` moves the boundary
# forward (it never moves backward).
locals {
  keep = 3
}

data "flinkagents_recovery_points" "orders" {
  checkpoint_dir = "file:///var/flink/checkpoints/7f3a9c0e2b4d4f6a8c1e3b5d7f9a1c2e" # the parent of chk-N
  savepoint_dir  = "file:///var/flink/savepoints"
  operator_uid   = "action-execute-operator"

  lifecycle {
    postcondition {
      condition     = length(self.points) >= local.keep
      error_message = "Fewer than ${local.keep} complete recovery points: nothing is cleaned until there are."
    }
  }
}

data "flinkagents_cleanup_plan" "oldest_kept" {
  checkpoint_path = data.flinkagents_recovery_points.orders.points[local.keep - 1].path
  operator_uid    = "action-execute-operator"
}

resource "flinkagents_cleanup_boundary" "orders" {
  control_topic      = "orders-agent-cleanup-control"
  action_state_topic = "orders-agent-action-state"
  plan_json          = data.flinkagents_cleanup_plan.oldest_kept.plan_json
}
