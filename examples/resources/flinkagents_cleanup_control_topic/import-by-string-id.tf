# Adopt an existing control topic by name (Terraform 1.5+), for example one
# the Java tool created.
import {
  to = flinkagents_cleanup_control_topic.orders
  id = "orders-agent-cleanup-control"
}
