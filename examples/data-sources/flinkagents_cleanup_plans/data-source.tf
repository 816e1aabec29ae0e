# Every job's plan in one read: one object in Terraform's graph for the
# whole fleet instead of one flinkagents_cleanup_plan per job. A job whose
# checkpoint cannot be read is left out with a warning naming it, so the
# other jobs' boundaries still move.
data "flinkagents_cleanup_plans" "fleet" {
  jobs = {
    orders = {
      checkpoint_dir = "s3://flink-checkpoints/orders/7f3a9c0e2b4d4f6a8c1e3b5d7f9a1c2e" # the parent of chk-N
      operator_uid   = "action-execute-operator"
    }
    payments = {
      checkpoint_dir = "s3://flink-checkpoints/payments/1b2c3d4e5f60718293a4b5c6d7e8f901"
      savepoint_dir  = "s3://flink-savepoints/payments"
    }
  }
  on_unreadable = "skip"
}

# A job without a plan (no complete checkpoint yet, or skipped) has no key
# in plans or plan_ids.
output "plan_ids" {
  value = data.flinkagents_cleanup_plans.fleet.plan_ids
}
