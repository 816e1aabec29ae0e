# The fleet the soak (scripts/soak.sh) runs every night: the agent-fleet
# module as the "Scheduled cleanup" guide configures it, each operator
# following its job's checkpoint_dir (and savepoint_dir) on the S3 emulator.
# The soak copies this directory and examples/modules side by side into its
# work directory and writes soak.auto.tfvars.json before each night.
#
# The provider authenticates with SASL PLAIN; the password comes from
# KAFKA_SASL_PASSWORD, so only the provider ever holds it, and the soak
# checks that no log shows it.

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
  description = "The SASL listeners the provider connects to."
}

variable "job_bootstrap_servers" {
  type        = list(string)
  description = "The addresses rendered into each job's settings."
}

variable "operators" {
  type = map(object({
    checkpoint_dir = optional(string)
    savepoint_dir  = optional(string)
  }))
  description = "Each operator's job directories, by operator key."
}

variable "partitions" {
  type        = number
  description = "Partitions of each action-state topic."
}

variable "checkpoint_storage" {
  type        = any
  description = "The module's checkpoint_storage: the S3 emulator, through the soak's fault proxy."
}

provider "flinkagents" {
  bootstrap_servers = var.bootstrap_servers
  # Bounds each Kafka request and each request to the store: a store that
  # never answers costs a job this long, not the 30 s default.
  timeout = "15s"
}

module "fleet" {
  source = "./modules/agent-fleet"

  prefix              = "soak"
  operators           = var.operators
  bootstrap_servers   = var.job_bootstrap_servers
  partitions          = var.partitions
  replication_factor  = 3
  checkpoint_storage  = var.checkpoint_storage
  deletion_protection = false
}

output "agent_config" {
  description = "Each job's rendered settings, by operator: what the soak checks restores against."
  value       = { for k, c in module.fleet.agent_config : k => c.settings }
}

output "boundaries" {
  description = "The module's boundaries output as a team's dashboard reads it: status, point followed and what each partition deletes, by operator."
  value       = module.fleet.boundaries
}
