variable "prefix" {
  type        = string
  description = "Leading part of every topic name, for example the team or environment (\"payments-prod\")."
  validation {
    condition     = can(regex("^[a-zA-Z0-9._-]+$", var.prefix))
    error_message = "prefix may contain only a-z A-Z 0-9 . _ - (it becomes part of Kafka topic names)."
  }
}

variable "operators" {
  type = map(object({
    name               = optional(string)
    partitions         = optional(number)
    replication_factor = optional(number)
    topic_config       = optional(map(string))
    plan_json          = optional(string)
    checkpoint_dir     = optional(string)
    savepoint_dir      = optional(string)
    operator_uid       = optional(string)
  }))
  description = <<-EOT
    The agent operators, by key. Each gets <prefix>-<name>-action-state and
    <prefix>-<name>-cleanup-control, where name is the key unless set. Per operator, all optional:
    partitions, replication_factor and topic_config (default: the module's variables of the same
    name); plan_json (a cleanup plan: data.flinkagents_cleanup_plan.<name>.plan_json, or
    file("plan.json") from the Java tool), or checkpoint_dir and savepoint_dir (follow the job's
    retained points; operator_uid picks the agent operator in them); neither: no boundary yet.
  EOT
  validation {
    condition = alltrue([for k, o in var.operators :
    can(regex("^[a-zA-Z0-9._-]+$", coalesce(o.name, k))) && length(coalesce(o.name, k)) <= 200])
    error_message = "Every operator's name (its key, or its name when set) may contain only a-z A-Z 0-9 . _ - and at most 200 characters (it becomes part of Kafka topic names)."
  }
  validation {
    # toset, not distinct(): distinct() compares every name with every
    # other: 10,000 names took 56 s of CPU with it, 2.9 s with toset().
    condition     = length(toset([for k, o in var.operators : coalesce(o.name, k)])) == length(var.operators)
    error_message = "Two operators have the same name (a key equal to another's name): each needs its own topics."
  }
}

variable "partitions" {
  type        = number
  default     = 64
  description = "Partitions of each action-state topic whose operator does not set its own (the runtime's kafkaActionStateTopicNumPartitions). Cannot change after creation."
}

variable "replication_factor" {
  type        = number
  default     = 1
  description = "Replication factor of the topics of operators that do not set their own. Use 3 in production: a lost control topic blocks every restore. Raising it later reassigns partitions in place (records kept); lowering it is refused at plan time."
}

variable "topic_config" {
  type        = map(string)
  default     = null
  description = "Extra settings of the action-state topics of operators that do not set their own (for example min.insync.replicas). The cleanup settings are enforced by the resource."
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
  description = "How to reach the store the operators' checkpoint_dir and savepoint_dir name: the storage attribute of data.flinkagents_cleanup_plan (credentials come from each cloud's standard chain, never from here)."
}

variable "deletion_protection" {
  type        = bool
  default     = true
  description = "Refuse to destroy the topics at plan time. Set to false and apply before removing an operator."
}

variable "bootstrap_servers" {
  type        = list(string)
  default     = null
  description = "Bootstrap servers rendered into the jobs' configuration (host:port), when the jobs reach Kafka by other addresses than Terraform does; null: the provider's."
  validation {
    condition     = var.bootstrap_servers == null || (length(coalesce(var.bootstrap_servers, [])) > 0 && alltrue([for s in coalesce(var.bootstrap_servers, []) : can(regex("^[^,\\s]+$", s))]))
    error_message = "bootstrap_servers must be null or a non-empty list of host:port entries without commas or whitespace."
  }
}

variable "on_refusal" {
  type        = string
  default     = "hold"
  description = "What one operator's refused or failed boundary does: \"hold\" holds that operator's boundary, with a warning naming it, and the others advance; \"fail\" stops the whole run with an error."
  validation {
    condition     = contains(["hold", "fail"], var.on_refusal)
    error_message = "on_refusal must be \"hold\" or \"fail\"."
  }
}
