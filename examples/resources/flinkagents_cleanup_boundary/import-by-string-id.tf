# Adopt the newest plan recorded in a control topic (Terraform 1.5+), for
# example one applied with the Java KafkaActionStateCleanupTool. The
# resource's plan_json must then describe that plan or a newer one.
import {
  to = flinkagents_cleanup_boundary.orders
  id = "orders-agent-cleanup-control" # the control topic
}
