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
  description = "Replication factor of both topics. Use 3 in production: a lost control topic blocks every restore. Raising it later reassigns partitions in place (records kept); lowering it is refused at plan time."
}

variable "topic_config" {
  type        = map(string)
  default     = null
  description = "Extra settings of the action-state topic (for example min.insync.replicas). The cleanup settings are enforced by the resource."
}

variable "plan_json" {
  type        = string
  default     = null
  description = "A cleanup plan for this operator (data.flinkagents_cleanup_plan.<name>.plan_json, or file(\"plan.json\") from the Java tool). Null: no boundary yet. Conflicts with checkpoint_dir and savepoint_dir."
}

variable "checkpoint_dir" {
  type        = string
  default     = null
  description = "Follow the job's retained checkpoints: its checkpoint directory (state.checkpoints.dir plus the job ID, the parent of chk-N), as a path or URI. The boundary follows the oldest complete point of checkpoint_dir and savepoint_dir, so every retained point stays restorable. No complete point yet: no boundary. An unreadable point: no boundary move this run, with a warning naming it. Must be known at plan time."
}

variable "savepoint_dir" {
  type        = string
  default     = null
  description = "The directory holding the job's savepoint-* directories (state.savepoints.dir), merged with checkpoint_dir. A savepoint kept there stays the oldest point and holds the boundary below it."
}

variable "operator_uid" {
  type        = string
  default     = null
  description = "The agent operator's uid (.uid()) in the job's checkpoints. Null: the one operator holding recovery markers."
}

variable "checkpoint_storage" {
  type = object({
    s3_endpoint   = optional(string)
    s3_region     = optional(string)
    s3_path_style = optional(bool)
    s3_profile    = optional(string)
    path_rewrite  = optional(list(object({ from = string, to = string })))
  })
  default     = null
  description = "How to reach the store checkpoint_dir and savepoint_dir name: the storage attribute of data.flinkagents_cleanup_plan (credentials come from each cloud's standard chain, never from here)."
}

variable "deletion_protection" {
  type        = bool
  default     = true
  description = "Refuse to destroy the topics at plan time. Set to false and apply before removing an operator."
}

variable "bootstrap_servers" {
  type        = list(string)
  default     = null
  description = "Bootstrap servers rendered into the job's configuration (host:port). Null: the provider's, through the agent_config data source; set it (to the provider's, or to the addresses the job uses) when rolling out many operators, so the module renders the configuration without a data source per operator (unless it follows the job's checkpoints: then the data source reads whether the control topic holds a boundary)."
  validation {
    condition     = var.bootstrap_servers == null || (length(coalesce(var.bootstrap_servers, [])) > 0 && alltrue([for s in coalesce(var.bootstrap_servers, []) : can(regex("^[^,\\s]+$", s))]))
    error_message = "bootstrap_servers must be null or a non-empty list of host:port entries without commas or whitespace."
  }
}

variable "on_refusal" {
  type        = string
  default     = "fail"
  description = "What a refused or failed boundary does: \"fail\" (one operator: nothing else to advance) stops the run with an error; \"hold\" keeps the recorded boundary and warns."
  validation {
    condition     = contains(["hold", "fail"], var.on_refusal)
    error_message = "on_refusal must be \"hold\" or \"fail\"."
  }
}
