# List a job's complete recovery points, newest first, with the offsets a
# plan from each would clean to. To clean from one of them, let
# flinkagents_cleanup_plan choose it (checkpoint_dir with select or
# nth_newest): a path copied from this list breaks once Flink retires it.
data "flinkagents_recovery_points" "orders" {
  checkpoint_dir = "file:///var/flink/checkpoints/7f3a9c0e2b4d4f6a8c1e3b5d7f9a1c2e" # the parent of chk-N
  savepoint_dir  = "file:///var/flink/savepoints"
  operator_uid   = "action-execute-operator"
}

# A check warns and never blocks: the plan still creates topics and moves
# boundaries. (A postcondition here would stop every plan of the workspace,
# including the first one that only creates the topics, until the job had
# three recovery points.)
check "three_recovery_points" {
  assert {
    condition     = length(data.flinkagents_recovery_points.orders.points) >= 3
    error_message = "Fewer than three complete recovery points: a plan with nth_newest = 3 follows the oldest meanwhile."
  }
}

data "flinkagents_cleanup_plan" "keep_three" {
  checkpoint_dir = data.flinkagents_recovery_points.orders.checkpoint_dir
  savepoint_dir  = data.flinkagents_recovery_points.orders.savepoint_dir
  operator_uid   = "action-execute-operator"
  nth_newest     = 3
}

resource "flinkagents_cleanup_boundary" "orders" {
  control_topic      = "orders-agent-cleanup-control"
  action_state_topic = "orders-agent-action-state"
  plan_json          = data.flinkagents_cleanup_plan.keep_three.plan_json
}

output "restorable" {
  value = [for p in data.flinkagents_recovery_points.orders.points : "${p.kind} ${p.path} (${p.modified_at})"]
}
