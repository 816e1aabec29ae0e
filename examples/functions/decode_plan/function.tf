# A plan's fields as typed values, read with the runtime's rules: the same
# errors as plan_json, instead of indexing jsondecode(...) by hand.
variable "plan_json" {
  description = "A plan: data.flinkagents_cleanup_plan's plan_json, or file() of a plan the Java tool wrote."
  type        = string
}

variable "action_state_topic_id" {
  description = "The topic ID of the action-state topic this configuration manages (flinkagents_action_state_topic's topic_id)."
  type        = string
}

locals {
  plan = provider::flinkagents::decode_plan(var.plan_json)
}

output "boundary" {
  value = {
    plan_id = local.plan.plan_id
    from    = local.plan.source_recovery_point
    offsets = local.plan.offsets # { "0" = 1200, "1" = 1105, "2" = 1290 }
    lowest  = min(values(local.plan.offsets)...)
  }
}

# A check block warns, without stopping the run, when the plan was taken
# on another incarnation of the topic (recreated since).
check "plan_cleans_this_topic" {
  assert {
    condition     = local.plan.topic_id == var.action_state_topic_id
    error_message = "Plan ${local.plan.plan_id} cleans ${local.plan.topic} with topic ID ${local.plan.topic_id}, not ${var.action_state_topic_id}."
  }
}
