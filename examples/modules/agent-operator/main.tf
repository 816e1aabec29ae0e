# One Flink Agents operator's Kafka action state: its action-state topic, its
# cleanup control topic, optionally a cleanup boundary (from plan_json, or
# following the job's retained checkpoints and savepoints), and the job-side
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

  follows_job = var.checkpoint_dir != null || var.savepoint_dir != null
  # Following a job, the boundary resource is absent on a night its point
  # is skipped, so only the control topic itself can say whether cleanup is
  # enabled: the data source reads it.
  renders_in_module = var.bootstrap_servers != null && !local.follows_job
  # Null while the job has no complete point yet, or when its point was
  # skipped as unreadable: then this operator gets no boundary this run.
  plan_json = local.follows_job ? one(data.flinkagents_cleanup_plan.follow[*].plan_json) : var.plan_json

  # The runtime refuses to restore with a control topic that holds no
  # committed boundary, so the job is told about the control topic only
  # once the boundary resource records one. partitions holds one line per
  # partition of the boundary this apply records, known at plan time once
  # the topics exist.
  cleanup_enabled = !local.renders_in_module ? one(data.flinkagents_agent_config.this[*].cleanup_enabled) : anytrue([
    for b in flinkagents_cleanup_boundary.this : try(length(b.partitions) > 0, false)
  ])
}

resource "flinkagents_action_state_topic" "this" {
  name                = local.action_state_topic
  partitions          = var.partitions
  replication_factor  = var.replication_factor
  config              = var.topic_config
  deletion_protection = var.deletion_protection

  lifecycle {
    precondition {
      condition     = var.plan_json == null || !local.follows_job
      error_message = "Set plan_json or checkpoint_dir/savepoint_dir, not both: the boundary follows one of them."
    }
  }
}

# The plan of the job's oldest retained point. A fleet's nightly run must
# not stop because one job's point is unreadable (a partial copy, a
# checkpoint retired mid-read): that operator's plan is skipped with a
# warning naming the point, and the others advance.
data "flinkagents_cleanup_plan" "follow" {
  count = local.follows_job ? 1 : 0

  checkpoint_dir = var.checkpoint_dir
  savepoint_dir  = var.savepoint_dir
  operator_uid   = var.operator_uid
  storage        = var.checkpoint_storage
  on_unreadable  = "skip"
}

resource "flinkagents_cleanup_control_topic" "this" {
  name                = local.control_topic
  action_state_topic  = flinkagents_action_state_topic.this.name
  replication_factor  = var.replication_factor
  deletion_protection = var.deletion_protection
}

resource "flinkagents_cleanup_boundary" "this" {
  # Known at plan time: data sources are read during plan.
  count              = local.plan_json == null ? 0 : 1
  control_topic      = flinkagents_cleanup_control_topic.this.name
  action_state_topic = flinkagents_action_state_topic.this.name
  plan_json          = local.plan_json
}

# The job's configuration (output agent_config) is rendered from the names
# alone, so it is known at plan time, before the topics exist. Given
# bootstrap_servers and no job to follow, the module renders it itself
# (outputs.tf); otherwise this data source renders it. Both give the same
# settings and YAML (module_test.go compares them), and both leave the
# control topic out until it holds a committed boundary: the data source
# reads the control topic, after the boundary's apply when it changes. A
# data source per operator cost Terraform about a third of its CPU on a
# 200-operator apply (BENCHMARKS.md, "Rollout at scale"): pass
# bootstrap_servers when rolling out many operators.
data "flinkagents_agent_config" "this" {
  count = local.renders_in_module ? 0 : 1

  action_state_topic = local.action_state_topic
  control_topic      = local.control_topic
  partitions         = var.partitions
  replication_factor = var.replication_factor
  bootstrap_servers  = var.bootstrap_servers

  depends_on = [flinkagents_cleanup_boundary.this]
}

