variable "prefix" {
  type        = string
  description = "Leading part of every topic name, for example the team or environment (\"payments-prod\")."
  validation {
    condition     = can(regex("^[a-zA-Z0-9._-]+$", var.prefix))
    error_message = "prefix may contain only a-z A-Z 0-9 . _ - (it becomes part of Kafka topic names)."
  }
}

variable "operator" {
  type        = string
  description = "The agent operator's name, unique within prefix. Topics are named <prefix>-<operator>-action-state and <prefix>-<operator>-cleanup-control."
  validation {
    condition     = can(regex("^[a-zA-Z0-9._-]+$", var.operator)) && length(var.operator) <= 200
    error_message = "operator may contain only a-z A-Z 0-9 . _ - and at most 200 characters (it becomes part of Kafka topic names)."
  }
}

variable "partitions" {
  type        = number
  default     = 64
  description = "Partitions of the action-state topic (the runtime's kafkaActionStateTopicNumPartitions). Cannot change after creation."
}

variable "replication_factor" {
  type        = number
  default     = 1
  description = "Replication factor of both topics. Use 3 in production: a lost control topic blocks every restore. Cannot change after creation."
}

variable "topic_config" {
  type        = map(string)
  default     = null
  description = "Extra settings of the action-state topic (for example min.insync.replicas). The cleanup settings are enforced by the resource."
}

variable "plan_json" {
  type        = string
  default     = null
  description = "A cleanup plan for this operator (data.flinkagents_cleanup_plan.<name>.plan_json, or file(\"plan.json\") from the Java tool). Null: no boundary yet."
}

variable "deletion_protection" {
  type        = bool
  default     = true
  description = "Refuse to destroy the topics at plan time. Set to false and apply before removing an operator."
}

variable "bootstrap_servers" {
  type        = list(string)
  default     = null
  description = "Bootstrap servers rendered into the job's configuration (host:port). Null: the provider's, through the agent_config data source; set it (to the provider's, or to the addresses the job uses) when rolling out many operators, so the module renders the configuration without a data source per operator."
  validation {
    condition     = var.bootstrap_servers == null || (length(coalesce(var.bootstrap_servers, [])) > 0 && alltrue([for s in coalesce(var.bootstrap_servers, []) : can(regex("^[^,\\s]+$", s))]))
    error_message = "bootstrap_servers must be null or a non-empty list of host:port entries without commas or whitespace."
  }
}
