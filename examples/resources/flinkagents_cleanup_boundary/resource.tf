# Plan from the oldest checkpoint or savepoint the job may still restore
# from: everything below its recovery markers can go.
data "flinkagents_cleanup_plan" "oldest_kept" {
  checkpoint_path = "s3://flink-checkpoints/orders/savepoint-3f9a1c-5f6e7d8c9b0a"
}

# terraform plan shows the plan's offsets (plan_json), what is deleted per
# partition (partitions) and records_to_delete, and refuses a plan that would
# move the boundary backward. terraform apply records the
# plan as COMMITTED, deletes, verifies, and records APPLIED.
resource "flinkagents_cleanup_boundary" "orders" {
  control_topic      = flinkagents_cleanup_control_topic.orders.name
  action_state_topic = flinkagents_action_state_topic.orders.name
  plan_json          = data.flinkagents_cleanup_plan.oldest_kept.plan_json

  timeouts {
    create = "15m"
    update = "15m"
  }

  # Rules of your own on the plan, as typed values read with the runtime's
  # rules (provider::flinkagents::decode_plan, Terraform 1.8+): here, only
  # savepoints may set a boundary.
  lifecycle {
    precondition {
      condition     = startswith(provider::flinkagents::decode_plan(data.flinkagents_cleanup_plan.oldest_kept.plan_json).source_recovery_point, "s3://flink-checkpoints/orders/savepoint-")
      error_message = "A boundary comes only from a savepoint of the orders job."
    }
  }
}

# A plan file written by the Java tool works the same way:
#   plan_json = file("${path.module}/cleanup-plan.json")

# Following a job's directories, with the points that must stay restorable:
# terraform plan lists in unrestorable_points every point the boundary would
# make unrestorable, and refuses one that keep_restorable names.
data "flinkagents_cleanup_plan" "followed" {
  checkpoint_dir = "s3://flink-checkpoints/orders/7f3a9c0b1d2e3f405162738495a6b7c8"
  savepoint_dir  = "s3://flink-savepoints/orders"
}

# A job with no complete point yet gives a null plan_json: the boundary is
# NONE until it has one, and a later run with a skipped point keeps the
# recorded boundary (no count guard: it would forget the boundary).
resource "flinkagents_cleanup_boundary" "followed" {
  control_topic      = flinkagents_cleanup_control_topic.orders.name
  action_state_topic = flinkagents_action_state_topic.orders.name
  plan_json          = data.flinkagents_cleanup_plan.followed.plan_json
  recovery_points    = data.flinkagents_cleanup_plan.followed.recovery_points
  keep_restorable    = ["s3://flink-savepoints/orders/savepoint-3f9a1c-5f6e7d8c9b0a"]
}
