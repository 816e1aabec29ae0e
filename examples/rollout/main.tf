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
# The provider merges the topic reads of resources refreshed side by side
# into one Kafka request per kind, so plan stays a few requests per batch of
# resources at this scale (see BENCHMARKS.md, "Rollout at scale").

terraform {
  required_version = ">= 1.5"
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

variable "deletion_protection" {
  type        = bool
  default     = true
  description = "Refuse to destroy topics at plan time."
}

provider "flinkagents" {
  bootstrap_servers = var.bootstrap_servers
}

locals {
  operators = toset([for i in range(var.operator_count) : format("agent-%02d", i)])
}

module "operator" {
  source   = "../modules/agent-operator"
  for_each = local.operators

  prefix              = var.prefix
  operator            = each.key
  bootstrap_servers   = var.bootstrap_servers # rendered in the module: no data source per operator
  partitions          = var.partitions
  plan_json           = contains(keys(var.plan_files), each.key) ? file(var.plan_files[each.key]) : null
  deletion_protection = var.deletion_protection
}

output "agent_config_yaml" {
  description = "Each operator's agent: configuration, by operator."
  value       = { for name, op in module.operator : name => op.agent_config.yaml }
}

output "boundaries" {
  description = "Each operator's cleanup boundary status (null: none yet)."
  value       = { for name, op in module.operator : name => try(op.boundary.status, null) }
}
