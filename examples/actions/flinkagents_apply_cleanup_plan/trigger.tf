# Applies the cleanup plan of the savepoint at var.savepoint_path from a
# plain `terraform apply`: the terraform_data resource holds the path, and
# its creation (the first apply) or an update (an apply with another path)
# triggers the action. An apply with the same path triggers nothing.
variable "savepoint_path" {
  type        = string
  description = "The savepoint the job restarts from, as Flink printed it: file:/..., s3://..., gs://..."
}

variable "control_topic" {
  type        = string
  description = "The cleanup control topic of the job's action-state topic."
}

data "flinkagents_cleanup_plan" "restart" {
  checkpoint_path = var.savepoint_path
}

action "flinkagents_apply_cleanup_plan" "restart" {
  config {
    plan_json     = data.flinkagents_cleanup_plan.restart.plan_json
    control_topic = var.control_topic
  }
}

resource "terraform_data" "savepoint" {
  input = var.savepoint_path

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.flinkagents_apply_cleanup_plan.restart]
    }
  }
}
