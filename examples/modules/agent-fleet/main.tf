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

  # Operators given both a plan and a job to follow: refused.
  followed_and_given = sort([for k, o in var.operators : k if o.plan_json != null && (o.checkpoint_dir != null || o.savepoint_dir != null)])

  # The plan of each operator with a boundary this run: given, or that of
  # its job's oldest retained point. A followed job without a complete point
  # yet, or whose point was skipped as unreadable, has none this run.
  # Indexed under try(), not lookup(): a function is given its arguments
  # whole and Terraform checks them on every call, so a lookup() per
  # operator costs the square of the fleet (200 s of CPU at 10,000).
  plan_json = merge(
    { for k, o in var.operators : k => o.plan_json if o.plan_json != null },
    { for k, o in local.following : k => try(data.flinkagents_cleanup_plans.follow[0].plans[coalesce(o.name, k)], null) },
  )
}

# Every operator's topics in one resource: Terraform's cost grows with the
# objects it manages, so a fleet of any size is one object here, not two
# per operator (BENCHMARKS.md, "Fleet topics"). The provider applies the
# entries side by side, each as the single-topic resources would.
resource "flinkagents_action_state_topics" "this" {
  operators = { for k, o in local.operators : k => {
    action_state_topic = {
      name               = o.action_state_topic
      partitions         = o.partitions
      replication_factor = o.replication_factor
      config             = o.topic_config
    }
    control_topic = {
      name               = o.control_topic
      replication_factor = o.replication_factor
    }
  } }
  deletion_protection = var.deletion_protection

  lifecycle {
    precondition {
      condition     = length(local.followed_and_given) == 0
      error_message = "Operator ${join(", ", local.followed_and_given)}: set plan_json or checkpoint_dir/savepoint_dir, not both: the boundary follows one of them."
    }
  }
}

# Topics were a flinkagents_action_state_topic and a
# flinkagents_cleanup_control_topic per operator in earlier versions of this
# module. Their state is let go without a destroy, and the topics are
# adopted by flinkagents_action_state_topics through an import block in the
# root module (a child module cannot hold one): its first plan refuses to
# create topics that exist and prints the block, with every operator's
# topics in its id. docs/guides/migrating.md walks through it.
removed {
  from = flinkagents_action_state_topic.this

  lifecycle {
    destroy = false
  }
}

removed {
  from = flinkagents_cleanup_control_topic.this

  lifecycle {
    destroy = false
  }
}

# The plan of each followed job's oldest retained point, every job in one
# read. A fleet's nightly run must not stop because one job's point is
# unreadable (a partial copy, a checkpoint retired mid-read): that job is
# left out with a warning naming it, and the others advance.
data "flinkagents_cleanup_plans" "follow" {
  count = length(local.following) > 0 ? 1 : 0

  # Keyed by the operator's name, which its warnings quote.
  jobs = { for k, o in local.following : coalesce(o.name, k) => {
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
# cleanup"). Every operator has an entry, with or without a plan this run:
# an entry without one keeps the boundary it recorded (a night without news
# changes nothing), and one that never had a plan is NONE. One operator's
# refusal holds its entry (a warning naming it) and the others advance. The
# topics are named by value and waited for with depends_on.
resource "flinkagents_cleanup_boundaries" "this" {
  boundaries = { for k, o in local.operators : k => {
    control_topic      = o.control_topic
    action_state_topic = o.action_state_topic
    plan_json          = try(local.plan_json[k], null)
  } }
  on_refusal = var.on_refusal

  depends_on = [flinkagents_action_state_topics.this]
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

# The jobs' configuration, every operator in one read, rendered by the
# provider as flinkagents_agent_config renders one. Whether a job's control
# topic is named comes from its boundary entry's cleanup_enabled: true once
# the control topic holds a committed boundary, and never false again, so a
# removed plan_json, a skipped night or a failed apply cannot switch restore
# protection off. Read after the boundaries' apply when they change.
data "flinkagents_agent_configs" "this" {
  jobs = { for k, o in local.operators : k => {
    action_state_topic = o.action_state_topic
    control_topic      = o.control_topic
    cleanup_enabled    = flinkagents_cleanup_boundaries.this.boundaries[k].cleanup_enabled
    partitions         = o.partitions
    replication_factor = o.replication_factor
  } }
  bootstrap_servers = var.bootstrap_servers
}
