# Every operator of a fleet advanced in one resource: the plans follow each
# job's oldest retained checkpoint or savepoint, read in one data source.
locals {
  operators = {
    orders   = { checkpoint_dir = "s3://ckpt/orders-agent", savepoint_dir = "s3://savepoints/orders-agent" }
    payments = { checkpoint_dir = "s3://ckpt/payments-agent", savepoint_dir = null }
  }
}

data "flinkagents_cleanup_plans" "fleet" {
  jobs = { for k, o in local.operators : k => {
    checkpoint_dir = o.checkpoint_dir
    savepoint_dir  = o.savepoint_dir
    operator_uid   = "action-execute-operator"
  } }
  # One job's unreadable point must not stop the others' cleanup: it is
  # left out, with a warning naming it.
  on_unreadable = "skip"
}

resource "flinkagents_cleanup_boundaries" "fleet" {
  boundaries = { for k, plan in data.flinkagents_cleanup_plans.fleet.plans : k => {
    control_topic      = "${k}-agent-cleanup-control"
    action_state_topic = "${k}-agent-action-state"
    plan_json          = plan
  } }
}
