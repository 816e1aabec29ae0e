# Follow a job's retained checkpoints. Flink deletes chk-N directories
# beyond state.checkpoints.num-retained as new ones complete; a plan that
# follows the directory moves forward with them instead of failing once the
# checkpoint it names is gone. The oldest complete point is the default.
data "flinkagents_cleanup_plan" "oldest_retained" {
  checkpoint_dir = "s3://flink-checkpoints/orders/7f3a9c0e2b4d4f6a8c1e3b5d7f9a1c2e" # the parent of chk-N
  operator_uid   = "action-execute-operator"
}

# Keep the newest three recovery points restorable; clean below the third.
# Savepoints in savepoint_dir count as points too. With fewer than three,
# the oldest is followed (with a warning).
data "flinkagents_cleanup_plan" "keep_three" {
  checkpoint_dir = "file:///var/flink/checkpoints/7f3a9c0e2b4d4f6a8c1e3b5d7f9a1c2e"
  savepoint_dir  = "file:///var/flink/savepoints"
  nth_newest     = 3
}

# Pin a savepoint: Flink never deletes savepoints. Without operator_uid /
# operator_uid_hash the one operator holding recovery markers is found
# automatically.
data "flinkagents_cleanup_plan" "from_savepoint" {
  checkpoint_path = "file:/var/flink/savepoints/savepoint-3f9a1c-5f6e7d8c9b0a"
}

# A plan file written by the Java tool's plan command.
data "flinkagents_cleanup_plan" "from_file" {
  plan_json = file("${path.module}/cleanup-plan.json")
}

output "followed" {
  # Which point was chosen: its path and checkpoint ID.
  value = "${data.flinkagents_cleanup_plan.oldest_retained.source_recovery_point} (checkpoint ${data.flinkagents_cleanup_plan.oldest_retained.checkpoint_id})"
}
