# Three outputs, each an object, rather than one per value: Terraform's cost
# of module outputs grows with the square of their number times the module
# instances (it matches each instance's outputs against every recorded
# change), and on a 200-operator rollout seven outputs were a third of a
# plan's CPU (BENCHMARKS.md, "Rollout at scale").

output "topics" {
  description = <<-EOT
    The operator's topics: action_state (name), action_state_id (its topic ID in Kafka's Java
    form, as recovery markers and plans record it) and control (name).
  EOT
  value = {
    action_state    = flinkagents_action_state_topic.this.name
    action_state_id = flinkagents_action_state_topic.this.topic_id
    control         = flinkagents_cleanup_control_topic.this.name
  }
}

output "agent_config" {
  description = <<-EOT
    The job's Flink Agents options: settings (by option name), yaml (the same under agent:,
    ready to merge into the job's Flink configuration) and cleanup_enabled. While the control
    topic holds no committed boundary, cleanup_enabled is false and the options leave
    kafkaActionStateCleanupControlTopic out (the runtime refuses to restore with an empty control
    topic); once the first boundary is committed it turns true: redeploy the job with the new yaml.
  EOT
  value = !local.renders_in_module ? {
    settings        = one(data.flinkagents_agent_config.this[*].settings)
    yaml            = one(data.flinkagents_agent_config.this[*].yaml)
    cleanup_enabled = local.cleanup_enabled
    } : {
    # What the agent_config data source renders, in its order; strings are
    # quoted for YAML as JSON strings (a subset of YAML's double quotes).
    settings = tomap(merge({
      actionStateStoreBackend                = "kafka"
      kafkaBootstrapServers                  = join(",", var.bootstrap_servers)
      kafkaActionStateTopic                  = local.action_state_topic
      kafkaActionStateTopicNumPartitions     = tostring(var.partitions)
      kafkaActionStateTopicReplicationFactor = tostring(coalesce(var.replication_factor, 1))
      kafkaActionStateTombstoneEnabled       = "false"
    }, local.cleanup_enabled ? { kafkaActionStateCleanupControlTopic = local.control_topic } : {}))
    yaml            = <<-EOT
      agent:
        actionStateStoreBackend: "kafka"
        kafkaBootstrapServers: ${jsonencode(join(",", var.bootstrap_servers))}
        kafkaActionStateTopic: ${jsonencode(local.action_state_topic)}
        kafkaActionStateTopicNumPartitions: ${var.partitions}
        kafkaActionStateTopicReplicationFactor: ${coalesce(var.replication_factor, 1)}
        kafkaActionStateTombstoneEnabled: false${local.cleanup_enabled ? "\n  kafkaActionStateCleanupControlTopic: ${jsonencode(local.control_topic)}" : ""}
      EOT
    cleanup_enabled = local.cleanup_enabled
  }
}

output "boundary" {
  description = <<-EOT
    Null without a plan (and, following the job, while it has no complete point yet). Otherwise
    status (APPLIED once the boundary's records are deleted, COMMITTED while an apply is pending,
    DELETION_PENDING when records below it are readable again), source_recovery_point (the point
    the plan came from) and partitions (keyed by partition number: what the apply deletes there, or
    "nothing to delete").
  EOT
  value = one([for b in flinkagents_cleanup_boundary.this : {
    status                = b.status
    source_recovery_point = b.source_recovery_point
    partitions            = b.partitions
  }])
}
