output "action_state_topic" {
  description = "The action-state topic's name."
  value       = flinkagents_action_state_topic.this.name
}

output "action_state_topic_id" {
  description = "The action-state topic's ID in Kafka's Java form, as recovery markers and plans record it."
  value       = flinkagents_action_state_topic.this.topic_id
}

output "control_topic" {
  description = "The cleanup control topic's name."
  value       = flinkagents_cleanup_control_topic.this.name
}

output "boundary_status" {
  description = "APPLIED once the boundary's records are deleted, COMMITTED while an apply is pending; null without a plan."
  value       = one(flinkagents_cleanup_boundary.this[*].status)
}

output "committed_boundary" {
  description = "The effective boundary recorded in the control topic, by partition; null without a plan."
  value       = one(flinkagents_cleanup_boundary.this[*].committed_boundary)
  # Not a secret: the provider marks it sensitive only to keep plans short.
  sensitive = true
}

output "partitions" {
  description = "Per partition, the boundary and what the last apply deleted; null without a plan."
  value       = one(flinkagents_cleanup_boundary.this[*].partitions)
}

output "agent_settings" {
  description = "The job's Flink Agents options, by name."
  value       = local.agent_settings
}

output "agent_config_yaml" {
  description = "The same options under agent:, ready to merge into the job's Flink configuration."
  value       = local.agent_config_yaml
}
