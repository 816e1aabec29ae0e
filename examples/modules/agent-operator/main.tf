# One Flink Agents operator's Kafka action state: its action-state topic, its
# cleanup control topic, optionally a cleanup boundary (from plan_json, or
# following the job's retained checkpoints and savepoints), and the job-side
# configuration that points the operator at them.
#
# It is agent-fleet with one operator, keyed "this". Rolling out many
# operators, call agent-fleet once rather than this module with for_each:
# Terraform's cost per module instance dominates at fleet size.

terraform {
  required_version = ">= 1.7"
  required_providers {
    flinkagents = {
      source = "actionstate/flinkagents"
    }
  }
}

module "fleet" {
  source = "../agent-fleet"

  prefix = var.prefix
  operators = {
    this = {
      name           = var.operator
      plan_json      = var.plan_json
      checkpoint_dir = var.checkpoint_dir
      savepoint_dir  = var.savepoint_dir
      operator_uid   = var.operator_uid
    }
  }
  partitions          = var.partitions
  replication_factor  = var.replication_factor
  topic_config        = var.topic_config
  checkpoint_storage  = var.checkpoint_storage
  deletion_protection = var.deletion_protection
  bootstrap_servers   = var.bootstrap_servers
  on_refusal          = var.on_refusal
}

# Where this module kept its resources before it called agent-fleet. They
# move to agent-fleet's per-operator topic resources, which agent-fleet now
# lets go of (removed blocks): the topics are adopted by its
# flinkagents_action_state_topics through an import block in the root module,
# whose id its first plan prints (docs/guides/migrating.md).
moved {
  from = flinkagents_action_state_topic.this
  to   = module.fleet.flinkagents_action_state_topic.this["this"]
}

moved {
  from = flinkagents_cleanup_control_topic.this
  to   = module.fleet.flinkagents_cleanup_control_topic.this["this"]
}

# The boundary is now an entry of agent-fleet's flinkagents_cleanup_boundaries,
# which no moved block can reach: the old resource is let go without a
# destroy, and the entry's first apply finds its plan already APPLIED.
removed {
  from = flinkagents_cleanup_boundary.this

  lifecycle {
    destroy = false
  }
}
