# The retained checkpoints of a job on AWS S3 (the plan follows the oldest).
# Credentials come from the AWS default chain: AWS_ACCESS_KEY_ID/
# AWS_SECRET_ACCESS_KEY, AWS_PROFILE or s3_profile, web identity (EKS IRSA),
# or an instance or task role.
data "flinkagents_cleanup_plan" "s3" {
  checkpoint_dir = "s3://flink-prod-checkpoints/orders-agent/7f3a9c4e1b2d3c5a6f7e8d9c0b1a2f3e"
  operator_uid   = "action-execute-operator"

  storage = {
    s3_region  = "eu-west-1"
    s3_profile = "flink-checkpoint-reader"
  }
}
