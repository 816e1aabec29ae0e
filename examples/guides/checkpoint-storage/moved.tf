# A checkpoint copied to another bucket (a backup, a region move). Its
# _metadata still names the state files at the old place: checkpoint state,
# shared/ and taskowned/ files are recorded by absolute path. The rule maps
# every such path, and may change the store.
data "flinkagents_cleanup_plan" "restored" {
  checkpoint_path = "gs://flink-dr-copy/orders-agent/7f3a9c4e1b2d3c5a6f7e8d9c0b1a2f3e/chk-4211"

  storage = {
    path_rewrite = [
      {
        from = "s3://flink-prod-checkpoints/orders-agent"
        to   = "gs://flink-dr-copy/orders-agent"
      },
    ]
  }
}
