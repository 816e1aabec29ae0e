# Rolls out the Kafka action state of 50 Flink Agents operators from one
# configuration: each gets its action-state topic, its cleanup control topic
# and its rendered job configuration; those with a plan file also get a
# cleanup boundary.
#
#   terraform apply -var 'bootstrap_servers=["kafka-1:9092"]'
#
# To clean one operator's action state, write its plan (the Java tool's
# `plan` command, or data.flinkagents_cleanup_plan) and name the file:
#
#   terraform apply -var 'bootstrap_servers=["kafka-1:9092"]' \
#                   -var 'plan_files={"agent-07"="plans/agent-07.json"}'
#
# The nightly run: name each job's checkpoint directory (state.checkpoints.dir
# plus the job ID) in a file kept with the configuration, and apply on a
# schedule. Each operator's boundary follows the oldest complete point of its
# job; a job without one yet gets no boundary, and a job whose point cannot be
# read is skipped with a warning naming it while the others advance (the
# "Scheduled cleanup" guide shows the pipeline, with a policy gate):
#
#   # checkpoints.auto.tfvars
#   checkpoint_dirs = {
#     "agent-00" = "s3://flink/checkpoints/3f1c0e2a9b7d4e15a2c6d8f0b1e3a5c7"
#     "agent-01" = "s3://flink/checkpoints/8a2d4c6e0f1b3d5f7a9c1e3b5d7f9a1c"
#   }
#
#   terraform plan -out=tfplan -var 'bootstrap_servers=["kafka-1:9092"]'
#   terraform apply tfplan
#
# The provider merges the topic reads of resources refreshed side by side
# into one Kafka request per kind, so plan stays a few requests per batch of
# resources at this scale (see BENCHMARKS.md, "Rollout at scale").

terraform {
  required_version = ">= 1.7"
  required_providers {
    flinkagents = {
      source = "actionstate/flinkagents"
    }
  }
}

variable "bootstrap_servers" {
  type        = list(string)
  description = "Kafka bootstrap servers."
}

variable "prefix" {
  type        = string
  default     = "agents"
  description = "Leading part of every topic name."
}

variable "operator_count" {
  type        = number
  default     = 50
  description = "How many operators to roll out (named agent-00, agent-01, ...)."
}

variable "partitions" {
  type        = number
  default     = 64
  description = "Partitions of each action-state topic."
}

variable "plan_files" {
  type        = map(string)
  default     = {}
  description = "Cleanup plan files by operator name; operators not listed get no boundary."
}

variable "checkpoint_dirs" {
  type        = map(string)
  default     = {}
  description = "Each job's checkpoint directory (the parent of its chk-N), by operator name: the operator's boundary follows the oldest complete point there. An operator may be in plan_files or here, not both."
}

variable "savepoint_dirs" {
  type        = map(string)
  default     = {}
  description = "Each job's savepoint directory (holding savepoint-*), by operator name, merged with its checkpoint directory."
}

variable "checkpoint_storage" {
  type        = any
  default     = null
  description = "How to reach the store of checkpoint_dirs and savepoint_dirs: the module's checkpoint_storage (s3_endpoint, s3_region, ...; credentials from the cloud's standard chain)."
}

variable "deletion_protection" {
  type        = bool
  default     = true
  description = "Refuse to destroy topics at plan time."
}

variable "adopt_topics" {
  type        = string
  default     = null
  description = <<-EOT
    Only when moving a fleet rolled out by an agent-fleet older than flinkagents_action_state_topics
    (two topic resources per operator): the import ID its first plan prints ("Fleet Topics Exist
    Already"), so the fleet resource adopts the existing topics instead of creating them. Leave it null
    otherwise; after the apply that imported them it has no effect. See docs/guides/migrating.md.
  EOT
}

# The migration from the per-topic layout: an import block can only sit in
# the root module, and for_each (Terraform 1.7) makes it optional.
import {
  for_each = var.adopt_topics == null ? {} : { fleet = var.adopt_topics }
  to       = module.fleet.flinkagents_action_state_topics.this
  id       = each.value
}

provider "flinkagents" {
  bootstrap_servers = var.bootstrap_servers
}

locals {
  # range() makes at most 1,024 values, so the names are counted in thousands.
  operators = toset(flatten([
    for hi in range(ceil(var.operator_count / 1000)) : [
      for lo in range(min(1000, var.operator_count - hi * 1000)) : format("agent-%02d", hi * 1000 + lo)
    ]
  ]))
}

module "fleet" {
  source = "../modules/agent-fleet"

  prefix = var.prefix
  # Maps are indexed, never passed whole to a function such as lookup() or
  # keys() once per operator: Terraform checks a function's arguments whole
  # on every call, which over a fleet costs the square of its size (a
  # lookup() per operator in a map of 10,000 took 200 s of CPU, an index
  # under try() or can() 0.1 s).
  operators = { for name in local.operators : name => {
    plan_json      = can(var.plan_files[name]) ? file(var.plan_files[name]) : null
    checkpoint_dir = try(var.checkpoint_dirs[name], null)
    savepoint_dir  = try(var.savepoint_dirs[name], null)
  } }
  bootstrap_servers   = var.bootstrap_servers # rendered in the module: no data source per operator
  partitions          = var.partitions
  checkpoint_storage  = var.checkpoint_storage
  deletion_protection = var.deletion_protection
}

output "agent_config_yaml" {
  description = "Each operator's agent: configuration, by operator."
  value       = { for name, c in module.fleet.agent_config : name => c.yaml }
}

output "boundaries" {
  description = "Each operator's cleanup boundary status and the point it follows (absent: none yet, or skipped this run)."
  value       = { for name, b in module.fleet.boundaries : name => "${b.status} ${coalesce(b.source_recovery_point, "(no plan)")}" }
}

output "cleanup_enabled" {
  description = "Operators whose job configuration names the control topic (first boundary committed): redeploy those that turned true."
  value       = sort([for name, c in module.fleet.agent_config : name if c.cleanup_enabled])
}
