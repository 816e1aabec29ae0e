# Checkpoints on ADLS Gen2 or Blob Storage, in the form Flink's abfss://
# (or wasbs://) file system writes; both are read through the account's
# Blob endpoint. Credentials: AZURE_STORAGE_CONNECTION_STRING, or
# AZURE_STORAGE_ACCOUNT with AZURE_STORAGE_KEY, else DefaultAzureCredential
# (AZURE_CLIENT_ID/AZURE_TENANT_ID/…, workload or managed identity, az login).
data "flinkagents_cleanup_plan" "adls" {
  checkpoint_dir = "abfss://checkpoints@flinkprodstore.dfs.core.windows.net/orders-agent/7f3a9c4e1b2d3c5a6f7e8d9c0b1a2f3e"
}

data "flinkagents_cleanup_plan" "blob" {
  checkpoint_path = "wasbs://checkpoints@flinkprodstore.blob.core.windows.net/savepoints/savepoint-7f3a9c-4e1b2d3c5a6f"
}
