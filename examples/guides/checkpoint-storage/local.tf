# The retained checkpoints of a job on a local or mounted file system (NFS,
# a CSI volume).
data "flinkagents_cleanup_plan" "local" {
  checkpoint_dir = "file:///mnt/flink/checkpoints/7f3a9c4e1b2d3c5a6f7e8d9c0b1a2f3e"
}
