# One Flink Agents operator's Kafka action state: its action-state topic, its
# cleanup control topic, optionally a cleanup boundary, and the job-side
# configuration that points the operator at them.

terraform {
  required_version = ">= 1.5"
  required_providers {
    flinkagents = {
      source = "actionstate/flinkagents"
    }
  }
}

locals {
  action_state_topic = "${var.prefix}-${var.operator}-action-state"
  control_topic      = "${var.prefix}-${var.operator}-cleanup-control"
}

resource "flinkagents_action_state_topic" "this" {
  name                = local.action_state_topic
  partitions          = var.partitions
  replication_factor  = var.replication_factor
  config              = var.topic_config
  deletion_protection = var.deletion_protection
}

resource "flinkagents_cleanup_control_topic" "this" {
  name                = local.control_topic
  action_state_topic  = flinkagents_action_state_topic.this.name
  replication_factor  = var.replication_factor
  deletion_protection = var.deletion_protection
}

resource "flinkagents_cleanup_boundary" "this" {
  count              = var.plan_json == null ? 0 : 1
  control_topic      = flinkagents_cleanup_control_topic.this.name
  action_state_topic = flinkagents_action_state_topic.this.name
  plan_json          = var.plan_json
}

# The job's configuration, rendered from the names alone so it is known at
# plan time, before the topics exist. Given bootstrap_servers, the module
# renders it itself; without, the agent_config data source renders it with
# the provider's servers. Both give the same settings and YAML
# (module_test.go compares them). A data source per operator was about 40%
# of Terraform's CPU on a 200-operator apply (BENCHMARKS.md, "Rollout at
# scale"), so pass bootstrap_servers when rolling out many operators.
data "flinkagents_agent_config" "this" {
  count = var.bootstrap_servers == null ? 1 : 0

  action_state_topic = local.action_state_topic
  control_topic      = local.control_topic
  partitions         = var.partitions
  replication_factor = var.replication_factor
}

locals {
  # Name, value and whether YAML needs it quoted, in the data source's order.
  agent_options = var.bootstrap_servers == null ? [] : [
    ["actionStateStoreBackend", "kafka", true],
    ["kafkaBootstrapServers", join(",", var.bootstrap_servers), true],
    ["kafkaActionStateTopic", local.action_state_topic, true],
    ["kafkaActionStateTopicNumPartitions", tostring(var.partitions), false],
    ["kafkaActionStateTopicReplicationFactor", tostring(coalesce(var.replication_factor, 1)), false],
    ["kafkaActionStateTombstoneEnabled", "false", false],
    ["kafkaActionStateCleanupControlTopic", local.control_topic, true],
  ]
  agent_settings = (var.bootstrap_servers == null ? one(data.flinkagents_agent_config.this[*].settings)
  : tomap({ for o in local.agent_options : o[0] => o[1] }))
  agent_config_yaml = (var.bootstrap_servers == null ? one(data.flinkagents_agent_config.this[*].yaml)
  : join("", concat(["agent:\n"], [for o in local.agent_options : "  ${o[0]}: ${o[2] ? jsonencode(o[1]) : o[1]}\n"])))
}
