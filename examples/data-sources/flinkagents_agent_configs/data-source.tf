# Every job of a fleet in one read, each rendered as flinkagents_agent_config
# renders one. Each job's control topic is named once its boundary entry
# says the control topic holds a committed boundary (cleanup_enabled), and
# from then on always: a night without a plan, a skipped point or a failed
# apply never switches restore protection off. examples/modules/agent-fleet
# does exactly this.
data "flinkagents_agent_configs" "fleet" {
  jobs = { for k, o in local.operators : k => {
    action_state_topic = o.action_state_topic
    control_topic      = o.control_topic
    cleanup_enabled    = flinkagents_cleanup_boundaries.fleet.boundaries[k].cleanup_enabled
    partitions         = o.partitions
    replication_factor = 3
  } }

  # The addresses the jobs use, when they differ from Terraform's.
  bootstrap_servers = ["kafka-1.internal:9092", "kafka-2.internal:9092"]
}

# Each job's config.yaml fragment, by operator.
output "agent_yaml" {
  value = { for k, c in data.flinkagents_agent_configs.fleet.configs : k => c.yaml }
}
