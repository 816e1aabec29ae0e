# The action-state topic of one Flink Agents operator. The job's
# kafkaActionStateTopic, kafkaActionStateTopicNumPartitions and
# kafkaActionStateTopicReplicationFactor must match these values.
resource "flinkagents_action_state_topic" "orders" {
  name               = "orders-agent-action-state"
  partitions         = 64
  replication_factor = 3

  # Extra settings, managed key by key. cleanup.policy, retention.ms and
  # retention.bytes are enforced by the resource and refused here.
  config = {
    "min.insync.replicas" = "2"
  }

  # The default. Set to false and apply before destroying on purpose.
  deletion_protection = true

  # Bounds on each write as a whole (30m each by default); a raise of
  # replication_factor waits here until every new replica is in sync.
  timeouts {
    update = "1h"
  }
}
