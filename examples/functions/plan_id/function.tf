# The plan ID the runtime gives these contents (spec/cleanup-protocol.md,
# section 3): "a5440177c24ca86c94163d0a3254bca95d7c4e4d3cc3671b267c8e68797adac4".
output "spec_example" {
  value = provider::flinkagents::plan_id(
    "file:/var/flink/checkpoints/7f3a/chk-42",
    "orders-agent-action-state",
    "q1Yw3mZ7QGu3c8m0b7o5Zg",
    { "0" = 150, "1" = 100, "2" = 0 },
  )
}

# A boundary reviewed as code: the savepoint and offsets agreed in review
# are written down, and a precondition stops the plan unless the plan the
# boundary is given is exactly that one.
variable "plan_json" {
  type = string
}

variable "reviewed" {
  type = object({
    source_recovery_point = string
    offsets               = map(number)
  })
}

locals {
  plan = provider::flinkagents::decode_plan(var.plan_json)
}

resource "flinkagents_cleanup_boundary" "orders" {
  control_topic      = "orders-agent-cleanup-control"
  action_state_topic = "orders-agent-action-state"
  plan_json          = var.plan_json

  lifecycle {
    precondition {
      condition = local.plan.plan_id == provider::flinkagents::plan_id(
        var.reviewed.source_recovery_point, local.plan.topic, local.plan.topic_id, var.reviewed.offsets,
      )
      error_message = "Plan ${local.plan.plan_id} (from ${local.plan.source_recovery_point}) is not the boundary agreed in review."
    }
  }
}
