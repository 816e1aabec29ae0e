# The ACLs of one topic pair, for the principal Terraform connects as and the
# one the Flink job connects as.
data "flinkagents_required_permissions" "orders" {
  action_state_topic  = "orders-agent-action-state"
  control_topic       = "orders-agent-cleanup-control"
  terraform_principal = "User:flinkagents-terraform"
  job_principal       = "User:orders-agent-job"
}

# Apache Kafka with the Mongey provider (Mongey/kafka): every element carries
# exactly the arguments of kafka_acl.
resource "kafka_acl" "orders" {
  for_each = data.flinkagents_required_permissions.orders.kafka_acls

  resource_name                = each.value.resource_name
  resource_type                = each.value.resource_type
  resource_pattern_type_filter = each.value.resource_pattern_type_filter
  acl_principal                = each.value.acl_principal
  acl_host                     = each.value.acl_host
  acl_operation                = each.value.acl_operation
  acl_permission_type          = each.value.acl_permission_type
}

# Confluent Cloud with Confluent's provider (confluentinc/confluent), where the
# principals are service accounts (User:sa-...).
resource "confluent_kafka_acl" "orders" {
  for_each = data.flinkagents_required_permissions.orders.confluent_kafka_acls

  kafka_cluster {
    id = var.confluent_kafka_cluster_id
  }
  rest_endpoint = var.confluent_rest_endpoint
  credentials {
    key    = var.confluent_kafka_api_key
    secret = var.confluent_kafka_api_secret
  }

  resource_type = each.value.resource_type
  resource_name = each.value.resource_name
  pattern_type  = each.value.pattern_type
  principal     = each.value.principal
  host          = each.value.host
  operation     = each.value.operation
  permission    = each.value.permission
}

# AWS MSK with IAM access control: policy documents instead of ACLs (they name
# no principal; each is attached to the IAM role that authenticates).
data "flinkagents_required_permissions" "orders_msk" {
  action_state_topic  = "orders-agent-action-state"
  control_topic       = "orders-agent-cleanup-control"
  terraform_principal = "User:flinkagents-terraform"
  msk_cluster_arn     = aws_msk_cluster.agents.arn
}

resource "aws_iam_role_policy" "terraform_kafka" {
  role   = aws_iam_role.terraform.id
  policy = data.flinkagents_required_permissions.orders_msk.terraform_msk_iam_policy
}

resource "aws_iam_role_policy" "job_kafka" {
  role   = aws_iam_role.orders_agent_job.id
  policy = data.flinkagents_required_permissions.orders_msk.job_msk_iam_policy
}
