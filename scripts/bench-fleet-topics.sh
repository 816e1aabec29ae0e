#!/usr/bin/env bash
# Fleet topics benchmark: a fleet's topics (every operator's action-state
# topic and control topic) as flinkagents_action_state_topics, one Terraform
# object, beside Terraform's own floor for the same data with no provider
# (terraform_data) in two shapes, and beside Kafka's own floor. Not part of
# CI; BENCHMARKS.md ("Fleet topics") has the method and the results.
# `make bench-fleet-topics` runs it.
#
# For every operator count and state backend, from an empty cluster and state:
#   fleet          flinkagents_action_state_topics: rollout (apply from
#                  empty), then two clean plans
#   floor-fleet    terraform_data holding the same map in one object: the
#                  floor of the new shape
#   floor-objects  terraform_data, two objects per operator: the floor of the
#                  per-operator shape (today's module)
#   kafka          one CreateTopics request naming every topic, until the
#                  broker's metadata shows them all (internal/kafkaops/cmd/createtopics)
# Each terraform command records its wall time, the CPU of terraform core,
# of the provider and of the broker, and the requests the broker received.
#
# Environment (all optional):
#   BENCH_OPERATORS="1000"       operators per configuration
#   BENCH_PARTITIONS="3"         partitions of each action-state topic
#   BENCH_BACKENDS="local"       Terraform state: local, or s3 (the S3 backend on the emulator)
#   BENCH_PARALLELISM="50"       terraform -parallelism
#   BENCH_SHAPES="kafka fleet floor-fleet floor-objects"   (kafka first: on a broker with nothing to clean up)
#   BENCH_DIR=<dir>              scratch directory (default: a new one in /tmp)
#   BENCH_KAFKA_HEAP_OPTS="-Xms1g -Xmx4g"   the broker JVM's heap
#   BENCH_KAFKA_NODES=1          Kafka nodes (more than one: scripts/kafka/start-cluster.sh; a broker needs a file per partition)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OPERATORS="${BENCH_OPERATORS:-1000}"
PARTITIONS="${BENCH_PARTITIONS:-3}"
BACKENDS="${BENCH_BACKENDS:-local}"
PARALLELISM="${BENCH_PARALLELISM:-50}"
SHAPES="${BENCH_SHAPES:-kafka fleet floor-fleet floor-objects}"
DIR="${BENCH_DIR:-$(mktemp -d /tmp/flinkagents-fleet-topics.XXXXXX)}"
mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd -P)"

"$ROOT/scripts/require-tools.sh" go terraform java mvn
BENCH_NAME=bench-fleet-topics
# shellcheck source=bench/lib.sh
source "$ROOT/scripts/bench/lib.sh"
for s in $SHAPES; do
  [[ $s =~ ^(fleet|floor-fleet|floor-objects|kafka)$ ]] || die "BENCH_SHAPES: $s is not fleet, floor-fleet, floor-objects or kafka"
done

trap 'bench_stop_s3; bench_stop_kafka' EXIT
bench_start_kafka

log "terraform: $(terraform version | sed -n 1p) ($(command -v terraform))"
log "building this provider and the Kafka floor"
mkdir -p "$DIR/real"
(cd "$ROOT" && go build -o "$DIR/real/terraform-provider-flinkagents" . &&
  go build -o "$DIR/real/createtopics" ./internal/kafkaops/cmd/createtopics)
bench_mirror_provider "$DIR/real/terraform-provider-flinkagents" registry.terraform.io/actionstate/flinkagents 0.0.1
[[ " $BACKENDS " != *" s3 "* ]] || bench_start_s3 bench

# The same data in each shape: per operator, both topics' names, partitions,
# replication factor and enforced settings.
mkdir -p "$DIR/fleet" "$DIR/floor-fleet" "$DIR/floor-objects"
cat >"$DIR/vars.tf" <<'EOF'
variable "bootstrap_servers" { type = list(string) }
variable "operators" { type = number }
variable "partitions" { type = number }
variable "prefix" { type = string }
locals {
  # range() makes at most 1,024 values: counted in thousands.
  keys = flatten([for hi in range(ceil(var.operators / 1000)) : [
    for lo in range(min(1000, var.operators - hi * 1000)) : format("op%05d", hi * 1000 + lo)
  ]])
  data = { for k in local.keys : k => {
    name               = "${var.prefix}-${k}-action-state"
    partitions         = var.partitions
    replication_factor = 1
  } }
  control = { for k in local.keys : k => {
    name               = "${var.prefix}-${k}-cleanup-control"
    replication_factor = 1
  } }
}
EOF
cp "$DIR/vars.tf" "$DIR/fleet/vars.tf"
cp "$DIR/vars.tf" "$DIR/floor-fleet/vars.tf"
cp "$DIR/vars.tf" "$DIR/floor-objects/vars.tf"
cat >"$DIR/fleet/main.tf" <<'EOF'
terraform {
  required_providers {
    flinkagents = { source = "actionstate/flinkagents" }
  }
}
provider "flinkagents" {
  bootstrap_servers = var.bootstrap_servers
}
resource "flinkagents_action_state_topics" "fleet" {
  deletion_protection = false
  operators = { for k in local.keys : k => {
    action_state_topic = local.data[k]
    control_topic      = local.control[k]
  } }
}
EOF
cat >"$DIR/floor-fleet/main.tf" <<'EOF'
resource "terraform_data" "fleet" {
  input = { for k in local.keys : k => {
    action_state_topic = merge(local.data[k], { config = { "cleanup.policy" = "compact,delete", "retention.ms" = "-1", "retention.bytes" = "-1" } })
    control_topic      = merge(local.control[k], { config = { "cleanup.policy" = "compact" } })
  } }
}
EOF
cat >"$DIR/floor-objects/main.tf" <<'EOF'
resource "terraform_data" "action_state" {
  for_each = local.data
  input    = merge(each.value, { config = { "cleanup.policy" = "compact,delete", "retention.ms" = "-1", "retention.bytes" = "-1" } })
}
resource "terraform_data" "control" {
  for_each = local.control
  input    = merge(each.value, { config = { "cleanup.policy" = "compact" } })
}
EOF

RESULTS="$DIR/results.tsv"
printf 'shape\toperators\tbackend\tcommand\twall_s\tcpu_core_s\tcpu_provider_s\tcpu_broker_s\trequests\tby_type\tpeak_rss_core_mb\tpeak_rss_provider_mb\n' >"$RESULTS"

run=0
for n in $OPERATORS; do
  for backend in $BACKENDS; do
    for shape in $SHAPES; do
      run=$((run + 1))
      prefix="ft$run"
      if [[ $shape == kafka ]]; then
        for i in 1 2 3; do
          s="$("$DIR/real/createtopics" -bootstrap "$BOOTSTRAP" -prefix "$prefix-$i" -operators "$n" -partitions "$PARTITIONS")" ||
            die "createtopics failed"
          printf 'kafka\t%s\t-\tone CreateTopics\t%s\n' "$n" "$s" | tee -a "$RESULTS" >&2
        done
        continue
      fi
      w="$DIR/$shape"
      rm -rf "$w/terraform.tfstate" "$w/terraform.tfstate.backup"
      bench_backend "$w" "$backend" "state/$prefix.tfstate"
      bench_init "$w"
      args=(-parallelism="$PARALLELISM" -var "bootstrap_servers=[\"${BOOTSTRAP//,/\",\"}\"]" -var operators="$n" -var partitions="$PARTITIONS" -var prefix="$prefix")
      bench_measure "$shape	$n	$backend	rollout" "$w" apply -auto-approve -input=false "${args[@]}"
      bench_measure "$shape	$n	$backend	clean plan" "$w" plan -input=false -detailed-exitcode "${args[@]}" ||
        die "the plan after the rollout of $shape is not empty"
      bench_measure "$shape	$n	$backend	clean plan" "$w" plan -input=false -detailed-exitcode "${args[@]}" ||
        die "the plan after the rollout of $shape is not empty"
      [[ $shape != fleet ]] || bench_drop_topics "$prefix"
      sleep 10 # the broker's deletions done before the next shape is timed
    done
  done
done
log "results: $RESULTS"
column -t -s $'\t' "$RESULTS" >&2
