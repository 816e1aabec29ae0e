# A savepoint on an S3-compatible store (MinIO, Ceph RGW, …), written by
# Flink's s3a:// (Hadoop) or s3p:// (Presto) file system. Path-style
# addressing is what most such stores need.
data "flinkagents_cleanup_plan" "minio" {
  checkpoint_path = "s3a://flink/savepoints/savepoint-7f3a9c-4e1b2d3c5a6f"

  storage = {
    s3_endpoint   = "https://minio.internal.example.com:9000"
    s3_path_style = true
  }
}
