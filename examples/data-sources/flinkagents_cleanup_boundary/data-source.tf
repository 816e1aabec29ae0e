# What a control topic records, validated as the runtime validates it.
data "flinkagents_cleanup_boundary" "orders" {
  control_topic = "orders-agent-cleanup-control"
}

output "effective_boundary" {
  value = data.flinkagents_cleanup_boundary.orders.committed_boundary
}

output "history" {
  value = [for op in data.flinkagents_cleanup_boundary.orders.operations : "${op.plan_id} ${op.status} ${op.source_recovery_point}"]
}
