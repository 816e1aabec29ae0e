# Every operator's action-state topic and control topic in one resource.
resource "flinkagents_action_state_topics" "fleet" {
  operators = {
    orders = {
      action_state_topic = {
        name               = "agents-orders-action-state"
        partitions         = 12
        replication_factor = 3
      }
      control_topic = {
        name               = "agents-orders-cleanup-control"
        replication_factor = 3
      }
    }
    payments = {
      action_state_topic = {
        name               = "agents-payments-action-state"
        replication_factor = 3
        config = {
          "min.insync.replicas" = "2"
        }
      }
      control_topic = {
        name               = "agents-payments-cleanup-control"
        replication_factor = 3
      }
    }
  }
}
