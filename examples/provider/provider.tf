# A SASL_SSL listener: brokers verified against a private CA, the provider
# authenticated with SCRAM. See the provider documentation for mutual TLS
# (encrypted keys too), OAUTHBEARER with client credentials, AWS MSK IAM
# with the AWS credential chain and roles, and the KAFKA_* environment
# variables that can stand in for every attribute here.
variable "kafka_password" {
  type      = string
  sensitive = true
}

provider "flinkagents" {
  bootstrap_servers = ["kafka-1.example.com:9093", "kafka-2.example.com:9093"]
  timeout           = "45s"

  tls {
    ca_pem = "${path.module}/kafka-ca.pem" # a path, or the PEM text itself
  }

  sasl {
    mechanism = "SCRAM-SHA-512"
    username  = "flink-agents-cleanup"
    password  = var.kafka_password
  }
}
