# The dedicated control topic where cleanup boundaries are recorded; the
# job's kafkaActionStateCleanupControlTopic.
resource "flinkagents_cleanup_control_topic" "orders" {
  name               = "orders-agent-cleanup-control"
  replication_factor = 3
  action_state_topic = flinkagents_action_state_topic.orders.name

  config = {
    "min.insync.replicas" = "2"
  }
}
