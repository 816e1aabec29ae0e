# Run the action whenever the resource standing for the savepoint is
# created (replace_triggered_by-style rollouts create it anew each time).
resource "terraform_data" "savepoint" {
  input = var.savepoint_path

  lifecycle {
    action_trigger {
      events  = [after_create]
      actions = [action.flinkagents_apply_cleanup_plan.first]
    }
  }
}

variable "savepoint_path" {
  type = string
}
