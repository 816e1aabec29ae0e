# The retained checkpoints of a job on Google Cloud Storage, read with
# Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, `gcloud
# auth application-default login`, or the workload's service account).
data "flinkagents_cleanup_plan" "gcs" {
  checkpoint_dir = "gs://flink-prod-checkpoints/orders-agent/7f3a9c4e1b2d3c5a6f7e8d9c0b1a2f3e"
}
