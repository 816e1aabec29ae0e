# Import by key=control_topic pairs, one per entry of boundaries: adopts the
# newest plan recorded in each, for example ones applied with the Java
# KafkaActionStateCleanupTool or by flinkagents_cleanup_boundary. Spaces around
# keys and names are ignored; each key and each control topic appears once.
terraform import flinkagents_cleanup_boundaries.fleet 'orders=orders-agent-cleanup-control,payments=payments-agent-cleanup-control'
