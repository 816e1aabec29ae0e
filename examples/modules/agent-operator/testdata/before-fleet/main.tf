# The resource addresses and arguments of agent-operator before it called
# agent-fleet (everything else of it left out): move_test.go applies this,
# then the module as it is now, which must plan no change.

terraform {
  required_providers {
    flinkagents = {
      source = "actionstate/flinkagents"
    }
  }
}

variable "prefix" { type = string }
variable "operator" { type = string }
variable "partitions" { type = number }
variable "plan_json" { type = string }
variable "deletion_protection" { type = bool }

resource "flinkagents_action_state_topic" "this" {
  name                = "${var.prefix}-${var.operator}-action-state"
  partitions          = var.partitions
  replication_factor  = 1
  deletion_protection = var.deletion_protection
}

resource "flinkagents_cleanup_control_topic" "this" {
  name                = "${var.prefix}-${var.operator}-cleanup-control"
  action_state_topic  = flinkagents_action_state_topic.this.name
  replication_factor  = 1
  deletion_protection = var.deletion_protection
}

resource "flinkagents_cleanup_boundary" "this" {
  count              = var.plan_json == null ? 0 : 1
  control_topic      = flinkagents_cleanup_control_topic.this.name
  action_state_topic = flinkagents_action_state_topic.this.name
  plan_json          = var.plan_json
}
