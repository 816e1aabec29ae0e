# Quickstart: one Flink Agents operator's action-state topic, its cleanup
# control topic, and a cleanup boundary derived natively from a savepoint.
# `make demo` runs this against an embedded broker. By hand, against a local
# Kafka (README, "Quick start"), or your cluster:
#
#   terraform apply -var 'bootstrap_servers=["127.0.0.1:9092"]'
#   terraform apply -var 'bootstrap_servers=["127.0.0.1:9092"]' \
#                   -var 'checkpoint_path=file:/tmp/savepoints/first'
#
# deletion_protection = false lets `terraform destroy` remove the topics:
# for trying things only.

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

variable "checkpoint_path" {
  type        = string
  default     = null
  description = "The oldest checkpoint or savepoint the job may still restore from. Null: no cleanup yet."
}

variable "deletion_protection" {
  type        = bool
  default     = true
  description = "Refuse to destroy the topics at plan time. False for a trial you want to destroy; set it to false and apply before destroying topics that were created protected."
}

provider "flinkagents" {
  bootstrap_servers = var.bootstrap_servers
}

resource "flinkagents_action_state_topic" "orders" {
  name                = "orders-agent-action-state"
  partitions          = 4
  deletion_protection = var.deletion_protection
}

resource "flinkagents_cleanup_control_topic" "orders" {
  name                = "orders-agent-cleanup-control"
  action_state_topic  = flinkagents_action_state_topic.orders.name
  deletion_protection = var.deletion_protection
}

data "flinkagents_cleanup_plan" "oldest_kept" {
  count           = var.checkpoint_path == null ? 0 : 1
  checkpoint_path = var.checkpoint_path
}

resource "flinkagents_cleanup_boundary" "orders" {
  count              = var.checkpoint_path == null ? 0 : 1
  control_topic      = flinkagents_cleanup_control_topic.orders.name
  action_state_topic = flinkagents_action_state_topic.orders.name
  plan_json          = data.flinkagents_cleanup_plan.oldest_kept[0].plan_json
}

output "action_state_topic_id" {
  value = flinkagents_action_state_topic.orders.topic_id
}

output "partitions" {
  description = "Per partition (keyed in decimal): what the apply deletes, or the start offset when nothing is left to delete."
  value       = one(flinkagents_cleanup_boundary.orders[*].partitions)
}

output "records_deleted" {
  value = one(flinkagents_cleanup_boundary.orders[*].records_to_delete)
}
