# The job-side settings for the topics this configuration manages, so the
# job and Terraform cannot disagree on names or partition counts.
data "flinkagents_agent_config" "orders" {
  action_state_topic = flinkagents_action_state_topic.orders.name
  partitions         = flinkagents_action_state_topic.orders.partitions
  replication_factor = flinkagents_action_state_topic.orders.replication_factor

  # Enables checkpoint-aligned cleanup in the runtime once the control topic
  # holds a committed boundary. Until then it is left out of the rendered
  # options (cleanup_enabled = false): the runtime refuses to
  # restore a job whose control topic holds no boundary. Redeploy the job
  # with the new yaml after the first boundary is applied.
  control_topic = flinkagents_cleanup_control_topic.orders.name

  # The addresses the job uses, when they differ from Terraform's.
  bootstrap_servers = ["kafka-1.internal:9092", "kafka-2.internal:9092"]
}

# Merge into the job's Flink configuration (config.yaml), for example
# through a Kubernetes ConfigMap:
#
#   agent:
#     actionStateStoreBackend: "kafka"
#     kafkaBootstrapServers: "kafka-1.internal:9092,kafka-2.internal:9092"
#     kafkaActionStateTopic: "orders-agent-action-state"
#     ...
output "agent_yaml" {
  value = data.flinkagents_agent_config.orders.yaml
}

output "cleanup_enabled" {
  value = data.flinkagents_agent_config.orders.cleanup_enabled
}

# The same options as a map of strings keyed by option name, for tools
# that take flat settings (prefix each name with "agent.").
output "agent_settings" {
  value = { for name, value in data.flinkagents_agent_config.orders.settings : "agent.${name}" => value }
}
