list "flinkagents_cleanup_control_topic" "runtime" {
  provider         = flinkagents
  include_resource = true
  limit            = 1000

  config {
    name_prefix = "agents-"
    name_regex  = "-cleanup-control$"
  }
}
