# terraform query -generate-config-out=generated.tf
list "flinkagents_action_state_topic" "runtime" {
  provider         = flinkagents
  include_resource = true
  limit            = 1000 # Terraform's default is 100 per list block

  config {
    name_prefix = "agents-"
    name_regex  = "-action-state$"
  }
}
