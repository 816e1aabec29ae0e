# Three outputs, each a map by operator key, rather than one per value:
# module outputs cost Terraform in proportion to their number.

output "topics" {
  description = <<-EOT
    Each operator's topics, by key: action_state (name), action_state_id (its topic ID in Kafka's
    Java form, as recovery markers and plans record it) and control (name).
  EOT
  value = { for k, o in flinkagents_action_state_topics.this.operators : k => {
    action_state    = o.action_state_topic.name
    action_state_id = o.action_state_topic.topic_id
    control         = o.control_topic.name
  } }
}

output "agent_config" {
  description = <<-EOT
    Each job's Flink Agents options, by operator key: settings (by option name), yaml (the same
    under agent:, ready to merge into the job's Flink configuration) and cleanup_enabled. While the
    control topic holds no committed boundary, cleanup_enabled is false and the options leave
    kafkaActionStateCleanupControlTopic out (the runtime refuses to restore with an empty control
    topic); once the first boundary is committed it turns true, and stays true: redeploy the job with
    the new yaml.
  EOT
  value = { for k, c in data.flinkagents_agent_configs.this.configs : k => {
    settings        = c.settings
    yaml            = c.yaml
    cleanup_enabled = c.cleanup_enabled
  } }
}

output "boundaries" {
  description = <<-EOT
    The operators with a boundary, by key (absent: no plan yet, and none recorded): status (APPLIED
    once the boundary's records are deleted, COMMITTED while an apply is pending, DELETION_PENDING
    when records below it are readable, NOT_RECORDED when its control topic does not hold it,
    REFUSED when the plan was refused and the recorded boundary held), source_recovery_point (the
    point the plan came from) and partitions (keyed by partition number: what the latest change
    deleted there, or "nothing to delete"). A run with no new plan for an operator keeps its entry.
  EOT
  value = { for k, b in flinkagents_cleanup_boundaries.this.boundaries : k => {
    status                = b.status
    source_recovery_point = b.plan_json == null ? null : jsondecode(b.plan_json).sourceRecoveryPoint
    partitions            = b.partitions
  } if b.status != "NONE" }
}
