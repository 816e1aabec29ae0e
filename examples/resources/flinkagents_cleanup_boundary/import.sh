# Import by control topic name: adopts the newest plan recorded there, for
# example one applied with the Java KafkaActionStateCleanupTool.
terraform import flinkagents_cleanup_boundary.orders orders-agent-cleanup-control
