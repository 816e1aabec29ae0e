# The first cleanup of a job, from the savepoint it was stopped with:
#   terraform apply -invoke=action.flinkagents_apply_cleanup_plan.first
data "flinkagents_cleanup_plan" "first" {
  checkpoint_path = "file:/var/flink/savepoints/savepoint-7f3a9c-4e1b2d3c5a6f"
  operator_uid    = "action-execute-operator"
}

action "flinkagents_apply_cleanup_plan" "first" {
  config {
    plan_json     = data.flinkagents_cleanup_plan.first.plan_json
    control_topic = "orders-agent-cleanup-control"
  }
}

# Or a plan file the Java tool's plan command wrote:
action "flinkagents_apply_cleanup_plan" "from_file" {
  config {
    plan_json     = file("${path.module}/cleanup-plan.json")
    control_topic = "orders-agent-cleanup-control"
  }
}
