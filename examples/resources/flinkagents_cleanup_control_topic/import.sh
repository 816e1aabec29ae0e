# Import by topic name, for example a control topic the Java tool created.
terraform import flinkagents_cleanup_control_topic.orders orders-agent-cleanup-control
