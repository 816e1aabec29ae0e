# Adopt an existing action-state topic by name (Terraform 1.5+). Leave
# partitions and replication_factor out to take the live values; partitions,
# when set, must equal the live count.
import {
  to = flinkagents_action_state_topic.orders
  id = "orders-agent-action-state"
}
