# Three outputs, each a map by operator key, rather than one per value:
# module outputs cost Terraform in proportion to their number.

output "topics" {
  description = <<-EOT
    Each operator's topics, by key: action_state (name), action_state_id (its topic ID in Kafka's
    Java form, as recovery markers and plans record it) and control (name).
  EOT
  value = { for k, t in flinkagents_action_state_topic.this : k => {
    action_state    = t.name
    action_state_id = t.topic_id
    control         = flinkagents_cleanup_control_topic.this[k].name
  } }
}

output "agent_config" {
  description = <<-EOT
    Each job's Flink Agents options, by operator key: settings (by option name), yaml (the same
    under agent:, ready to merge into the job's Flink configuration) and cleanup_enabled. While the
    control topic holds no committed boundary, cleanup_enabled is false and the options leave
    kafkaActionStateCleanupControlTopic out (the runtime refuses to restore with an empty control
    topic); once the first boundary is committed it turns true: redeploy the job with the new yaml.
  EOT
  value = var.bootstrap_servers == null ? {
    for k, d in data.flinkagents_agent_config.this : k => {
      settings        = d.settings
      yaml            = d.yaml
      cleanup_enabled = d.cleanup_enabled
    }
    } : {
    for k, o in local.operators : k => {
      # What the agent_config data source renders, in its order; strings are
      # quoted for YAML as JSON strings (a subset of YAML's double quotes).
      settings = tomap(merge({
        actionStateStoreBackend                = "kafka"
        kafkaBootstrapServers                  = join(",", var.bootstrap_servers)
        kafkaActionStateTopic                  = o.action_state_topic
        kafkaActionStateTopicNumPartitions     = tostring(o.partitions)
        kafkaActionStateTopicReplicationFactor = tostring(coalesce(o.replication_factor, 1))
        kafkaActionStateTombstoneEnabled       = "false"
      }, local.cleanup_enabled[k] ? { kafkaActionStateCleanupControlTopic = o.control_topic } : {}))
      yaml            = <<-EOT
        agent:
          actionStateStoreBackend: "kafka"
          kafkaBootstrapServers: ${jsonencode(join(",", var.bootstrap_servers))}
          kafkaActionStateTopic: ${jsonencode(o.action_state_topic)}
          kafkaActionStateTopicNumPartitions: ${o.partitions}
          kafkaActionStateTopicReplicationFactor: ${coalesce(o.replication_factor, 1)}
          kafkaActionStateTombstoneEnabled: false${local.cleanup_enabled[k] ? "\n  kafkaActionStateCleanupControlTopic: ${jsonencode(o.control_topic)}" : ""}
        EOT
      cleanup_enabled = local.cleanup_enabled[k]
    }
  }
}

output "boundaries" {
  description = <<-EOT
    The operators with a boundary, by key (absent: no plan, or a followed job with no complete point
    yet or whose point was skipped this run): status (APPLIED once the boundary's records are
    deleted, COMMITTED while an apply is pending, DELETION_PENDING when records below it are
    readable again), source_recovery_point (the point the plan came from) and partitions (keyed by
    partition number: what the apply deletes there, or "nothing to delete").
  EOT
  value = { for k, b in flinkagents_cleanup_boundaries.this.boundaries : k => {
    status                = b.status
    source_recovery_point = jsondecode(b.plan_json).sourceRecoveryPoint
    partitions            = b.partitions
  } }
}
