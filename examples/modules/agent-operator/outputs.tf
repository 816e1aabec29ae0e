output "topics" {
  description = <<-EOT
    The operator's topics: action_state (name), action_state_id (its topic ID in Kafka's Java
    form, as recovery markers and plans record it) and control (name).
  EOT
  value       = module.fleet.topics["this"]
}

output "agent_config" {
  description = <<-EOT
    The job's Flink Agents options: settings (by option name), yaml (the same under agent:,
    ready to merge into the job's Flink configuration) and cleanup_enabled. While the control
    topic holds no committed boundary, cleanup_enabled is false and the options leave
    kafkaActionStateCleanupControlTopic out (the runtime refuses to restore with an empty control
    topic); once the first boundary is committed it turns true: redeploy the job with the new yaml.
  EOT
  value       = module.fleet.agent_config["this"]
}

output "boundary" {
  description = <<-EOT
    Null before the first plan (and, following the job, while it has no complete point yet).
    Otherwise status (APPLIED once the boundary's records are deleted, COMMITTED while an apply is
    pending, DELETION_PENDING when records below it are readable, NOT_RECORDED when the control
    topic does not hold it, REFUSED when the plan was refused), source_recovery_point (the point the
    plan came from) and partitions (keyed by partition number: what the latest change deleted
    there, or "nothing to delete"). A run with no new plan keeps the boundary.
  EOT
  value       = try(module.fleet.boundaries["this"], null)
}
