# Import by topic name. A topic the runtime created with
# cleanup.policy=compact plans an in-place update to compact,delete.
terraform import flinkagents_action_state_topic.orders orders-agent-action-state
