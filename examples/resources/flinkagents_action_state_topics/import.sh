# Each operator as key=action_state_topic[:control_topic], comma-separated.
terraform import flinkagents_action_state_topics.fleet \
  "orders=agents-orders-action-state:agents-orders-cleanup-control,payments=agents-payments-action-state:agents-payments-cleanup-control"
