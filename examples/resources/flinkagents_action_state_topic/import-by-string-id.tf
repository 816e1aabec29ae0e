# Adopt an existing action-state topic by name (Terraform 1.5+). Describe it
# as it is: partitions and replication_factor must equal the live values.
import {
  to = flinkagents_action_state_topic.orders
  id = "orders-agent-action-state"
}
