# The Kafka action state of a fleet of Flink Agents operators from one module
# call: each operator's action-state topic, its cleanup control topic,
# optionally a cleanup boundary (from its plan_json, or following its job's
# retained checkpoints and savepoints), and the job-side configuration that
# points the operator at them.
#
# One call with for_each inside rather than a module instance per operator:
# Terraform keeps one resource header per module instance in its state and
# rewrites the whole state after every change with local state, so a fleet
# in one call applies in about the time of the same topics declared at the
# root (BENCHMARKS.md, "Rollout at scale"). agent-operator is this module
# with one operator.

terraform {
  required_version = ">= 1.7"
  required_providers {
    flinkagents = {
      source = "actionstate/flinkagents"
    }
  }
}

locals {
  operators = { for k, o in var.operators : k => {
    action_state_topic = "${var.prefix}-${coalesce(o.name, k)}-action-state"
    control_topic      = "${var.prefix}-${coalesce(o.name, k)}-cleanup-control"
    partitions         = o.partitions != null ? o.partitions : var.partitions
    replication_factor = o.replication_factor != null ? o.replication_factor : var.replication_factor
    topic_config       = o.topic_config != null ? o.topic_config : var.topic_config
  } }

  following = { for k, o in var.operators : k => o if o.checkpoint_dir != null || o.savepoint_dir != null }

  # The plan of each operator with a boundary this run: given, or that of
  # its job's oldest retained point. A followed job without a complete point
  # yet, or whose point was skipped as unreadable, has none this run.
  plan_json = merge(
    { for k, o in var.operators : k => o.plan_json if o.plan_json != null },
    length(data.flinkagents_cleanup_plans.follow) > 0 ? data.flinkagents_cleanup_plans.follow[0].plans : tomap({}),
  )

  # The runtime refuses to restore with a control topic that holds no
  # committed boundary, so a job is told about its control topic only once
  # one is recorded. An operator with a boundary this run knows it from the
  # boundary (partitions holds one line per partition of the boundary this
  # apply records, known at plan time once the topics exist); a followed job
  # whose boundary is absent this run asks its control topic.
  cleanup_enabled = var.bootstrap_servers == null ? {
    for k, d in data.flinkagents_agent_config.this : k => d.cleanup_enabled
    } : { for k in keys(local.operators) : k => (
      lookup(local.plan_json, k, null) != null ? try(length(flinkagents_cleanup_boundaries.this.boundaries[k].partitions) > 0, false) :
      can(data.flinkagents_agent_config.asked[k]) ? data.flinkagents_agent_config.asked[k].cleanup_enabled : false
  ) }
}

resource "flinkagents_action_state_topic" "this" {
  for_each = local.operators

  name                = each.value.action_state_topic
  partitions          = each.value.partitions
  replication_factor  = each.value.replication_factor
  config              = each.value.topic_config
  deletion_protection = var.deletion_protection

  lifecycle {
    precondition {
      condition     = var.operators[each.key].plan_json == null || (var.operators[each.key].checkpoint_dir == null && var.operators[each.key].savepoint_dir == null)
      error_message = "Operator ${each.key}: set plan_json or checkpoint_dir/savepoint_dir, not both: the boundary follows one of them."
    }
  }
}

# The control topic names its action-state topic by value, not through the
# resource: a reference would make every control topic wait for every
# action-state topic of the fleet.
resource "flinkagents_cleanup_control_topic" "this" {
  for_each = local.operators

  name                = each.value.control_topic
  action_state_topic  = each.value.action_state_topic
  replication_factor  = each.value.replication_factor
  deletion_protection = var.deletion_protection
}

# The plan of each followed job's oldest retained point, every job in one
# read. A fleet's nightly run must not stop because one job's point is
# unreadable (a partial copy, a checkpoint retired mid-read): that job is
# left out with a warning naming it, and the others advance.
data "flinkagents_cleanup_plans" "follow" {
  count = length(local.following) > 0 ? 1 : 0

  jobs = { for k, o in local.following : k => {
    checkpoint_dir = o.checkpoint_dir
    savepoint_dir  = o.savepoint_dir
    operator_uid   = o.operator_uid
  } }
  storage       = var.checkpoint_storage
  on_unreadable = "skip"
}

# Every boundary of the fleet in one resource: Terraform core's cost per
# object, not Kafka, bounds a nightly run over many operators, and the
# provider applies the entries side by side (BENCHMARKS.md, "Fleet
# cleanup"). The topics are named by value and waited for with depends_on.
resource "flinkagents_cleanup_boundaries" "this" {
  boundaries = { for k, plan in local.plan_json : k => {
    control_topic      = local.operators[k].control_topic
    action_state_topic = local.operators[k].action_state_topic
    plan_json          = plan
  } }

  depends_on = [flinkagents_action_state_topic.this, flinkagents_cleanup_control_topic.this]
}

# Boundaries were one flinkagents_cleanup_boundary per operator in earlier
# versions of this module (removed blocks need Terraform 1.7). Their state is let go without a destroy (a boundary's destroy only
# forgets anyway); flinkagents_cleanup_boundaries takes over their entries,
# and its first apply finds each plan already APPLIED and changes nothing.
removed {
  from = flinkagents_cleanup_boundary.this

  lifecycle {
    destroy = false
  }
}

# Without bootstrap_servers the provider's are rendered, which only this
# data source knows: one per operator, read after the boundaries' apply when
# they change, so the control topic is named once it holds a boundary. Both
# renderings give the same settings and YAML (module_test.go compares them).
data "flinkagents_agent_config" "this" {
  for_each = var.bootstrap_servers == null ? local.operators : {}

  action_state_topic = each.value.action_state_topic
  control_topic      = each.value.control_topic
  partitions         = each.value.partitions
  replication_factor = each.value.replication_factor

  depends_on = [flinkagents_cleanup_boundaries.this]
}

# With bootstrap_servers, only a followed job with no boundary this run has
# to ask its control topic whether it holds one; nothing it reads changes in
# this apply, so it is read at plan time.
data "flinkagents_agent_config" "asked" {
  for_each = var.bootstrap_servers == null ? {} : {
    for k in keys(local.following) : k => local.operators[k] if lookup(local.plan_json, k, null) == null
  }

  action_state_topic = each.value.action_state_topic
  control_topic      = each.value.control_topic
  partitions         = each.value.partitions
  replication_factor = each.value.replication_factor
  bootstrap_servers  = var.bootstrap_servers
}
