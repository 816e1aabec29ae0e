# From a savepoint or retained checkpoint, read natively (no JVM). Without
# operator_uid / operator_uid_hash the one operator holding recovery markers
# is found automatically.
data "flinkagents_cleanup_plan" "from_savepoint" {
  checkpoint_path = "file:/var/flink/savepoints/savepoint-3f9a1c-5f6e7d8c9b0a"
}

# The operator's uid, when several operators hold recovery markers.
data "flinkagents_cleanup_plan" "by_uid" {
  checkpoint_path = "file:/var/flink/checkpoints/7f3a/chk-42"
  operator_uid    = "action-execute-operator"
}

# A plan file written by the Java tool's plan command.
data "flinkagents_cleanup_plan" "from_file" {
  plan_json = file("${path.module}/cleanup-plan.json")
}

output "plan_id" {
  value = data.flinkagents_cleanup_plan.from_savepoint.plan_id
}
