#!/usr/bin/env bash
# Rollout benchmark: this provider against the Mongey kafka provider,
# declaring the same topics, on Apache Kafka started by scripts/kafka, and
# against the floor: Terraform's own cost for the same module shape with no
# provider at all (terraform_data). Not part of CI; BENCHMARKS.md ("Rollout
# at scale") has the method and the results. `make bench-rollout` runs it.
#
# For every topic count, -parallelism and state backend, each run does,
# providers interleaved: apply from an empty state, plan (a refresh of every
# topic), then destroy (run 1 only: Mongey's destroy is slow; later runs
# remove their topics with Kafka's tool between runs instead). Every command
# records its wall time, the CPU of terraform core and of the provider
# processes, and the requests the broker received (its RequestsPerSec
# counters over JMX). The summary gives, for this provider, its wall time
# over the floor's median for the same command, size and backend.
#
# Environment (all optional):
#   BENCH_TOPICS="400 1000"          topics per configuration (even: half
#                                    action-state topics, half control topics)
#   BENCH_PARALLELISM="10 50"        terraform -parallelism values
#   BENCH_BACKENDS="local s3"        Terraform state: local file, or Terraform's S3
#                                    backend (use_lockfile) on the gofakes3 emulator
#   BENCH_RUNS=3                     runs per (topics, parallelism, backend)
#   BENCH_PROVIDERS="flinkagents mongey floor"
#   BENCH_DESTROY=1                  destroy in run 1 (0: never; topics are dropped
#                                    with Kafka's tool instead)
#   BENCH_PARTITIONS=3               partitions of each action-state topic
#   BENCH_DIR=<dir>                  scratch directory (default: a new one in /tmp)
#   BENCH_KAFKA_HEAP_OPTS="-Xms1g -Xmx4g"   the broker JVM's heap
#   BENCH_KAFKA_NODES=1          Kafka nodes (more than one: scripts/kafka/start-cluster.sh; a broker needs a file per partition)
#   MONGEY_VERSION=v0.13.1           the Mongey provider's module version
#   FLINKAGENTS_CPUPROFILE_DIR=<dir> CPU profiles of this provider's processes
#
# The Mongey provider is downloaded from the Go module proxy and built in the
# scratch directory; nothing of it is written to this repository. Both
# providers are installed from a filesystem mirror in the scratch directory
# (the S3 backend needs `terraform init`, which dev_overrides do not let
# through), each behind a wrapper that records its CPU.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOPICS="${BENCH_TOPICS:-400 1000}"
PARALLELISM="${BENCH_PARALLELISM:-10 50}"
BACKENDS="${BENCH_BACKENDS:-local s3}"
RUNS="${BENCH_RUNS:-3}"
PROVIDERS="${BENCH_PROVIDERS:-flinkagents mongey floor}"
DESTROY="${BENCH_DESTROY:-1}"
PARTITIONS="${BENCH_PARTITIONS:-3}"
MONGEY_VERSION="${MONGEY_VERSION:-v0.13.1}"
DIR="${BENCH_DIR:-$(mktemp -d /tmp/flinkagents-bench.XXXXXX)}"
mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd -P)"

"$ROOT/scripts/require-tools.sh" go terraform java mvn openssl curl
BENCH_NAME=bench-rollout
# shellcheck source=bench/lib.sh
source "$ROOT/scripts/bench/lib.sh"
for n in $TOPICS; do ((n % 2 == 0 && n > 0)) || die "BENCH_TOPICS: $n is not a positive even number"; done
for b in $BACKENDS; do [[ $b == local || $b == s3 ]] || die "BENCH_BACKENDS: $b is neither local nor s3"; done
for p in $PROVIDERS; do
  [[ $p == flinkagents || $p == mongey || $p == floor ]] || die "BENCH_PROVIDERS: $p is not flinkagents, mongey or floor"
done
[[ $DESTROY == 0 || $DESTROY == 1 ]] || die "BENCH_DESTROY: $DESTROY is neither 0 nor 1"

trap 'bench_stop_s3; bench_stop_kafka' EXIT
bench_start_kafka

mkdir -p "$DIR/real"
if [[ " $PROVIDERS " == *" flinkagents "* ]]; then
  log "building this provider"
  (cd "$ROOT" && go build -o "$DIR/real/terraform-provider-flinkagents" .)
  bench_mirror_provider "$DIR/real/terraform-provider-flinkagents" registry.terraform.io/actionstate/flinkagents 0.0.1
fi
if [[ " $PROVIDERS " == *" mongey "* ]]; then
  log "building the Mongey provider $MONGEY_VERSION from the Go module proxy, in $DIR/mongey-src"
  src="$(cd "$DIR" && GOFLAGS=-mod=mod go mod download -json "github.com/Mongey/terraform-provider-kafka@$MONGEY_VERSION" |
    awk -F'"' '/"Dir":/ {print $4}')"
  [[ -d "$src" ]] || die "could not download github.com/Mongey/terraform-provider-kafka@$MONGEY_VERSION"
  rm -rf "$DIR/mongey-src" && cp -r "$src" "$DIR/mongey-src" && chmod -R u+w "$DIR/mongey-src"
  (cd "$DIR/mongey-src" && GOFLAGS=-mod=mod go build -o "$DIR/real/terraform-provider-kafka" .)
  bench_mirror_provider "$DIR/real/terraform-provider-kafka" registry.terraform.io/mongey/kafka "${MONGEY_VERSION#v}"
fi
if [[ " $BACKENDS " == *" s3 "* ]]; then
  log "building and starting the S3 emulator (gofakes3, tools/go.mod)"
  bench_start_s3 bench
fi
export TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1

# --- Configurations ----------------------------------------------------------
# This provider: examples/rollout as users run it (one call of the
# agent-fleet module, for_each inside). Mongey: the same topics and
# settings, kafka_topic with for_each. Floor: the agent-fleet module's shape
# (one module call, two resources with for_each over the operators, one
# output map) with terraform_data in place of the topics, each holding what
# its topic is given: what Terraform alone costs for this many resources.
rm -rf "$DIR/flinkagents" "$DIR/modules" "$DIR/mongey" "$DIR/floor"
cp -r "$ROOT/examples/rollout" "$DIR/flinkagents"
cp -r "$ROOT/examples/modules" "$DIR/modules"
mkdir -p "$DIR/mongey" "$DIR/floor/fleet"
cat >"$DIR/mongey/main.tf" <<'EOF'
terraform {
  required_providers {
    kafka = { source = "mongey/kafka" }
  }
}
variable "bootstrap_servers" { type = list(string) }
variable "operator_count" { type = number }
variable "partitions" { type = number }
variable "prefix" { type = string }
variable "deletion_protection" { type = bool } # the flinkagents side's; no equivalent here
provider "kafka" {
  bootstrap_servers = var.bootstrap_servers
  tls_enabled       = false
}
locals {
  operators = toset([for i in range(var.operator_count) : format("agent-%02d", i)])
}
resource "kafka_topic" "action_state" {
  for_each           = local.operators
  name               = "${var.prefix}-${each.key}-action-state"
  partitions         = var.partitions
  replication_factor = 1
  config = {
    "cleanup.policy"  = "compact,delete"
    "retention.ms"    = "-1"
    "retention.bytes" = "-1"
  }
}
resource "kafka_topic" "control" {
  for_each           = local.operators
  name               = "${var.prefix}-${each.key}-cleanup-control"
  partitions         = 1
  replication_factor = 1
  config = {
    "cleanup.policy" = "compact"
  }
}
EOF
cat >"$DIR/floor/main.tf" <<'EOF'
variable "bootstrap_servers" { type = list(string) } # no Kafka here; the others' flags
variable "operator_count" { type = number }
variable "partitions" { type = number }
variable "prefix" { type = string }
variable "deletion_protection" { type = bool }
locals {
  operators = toset([for i in range(var.operator_count) : format("agent-%02d", i)])
}
module "fleet" {
  source              = "./fleet"
  operators           = { for name in local.operators : name => {} }
  prefix              = var.prefix
  partitions          = var.partitions
  deletion_protection = var.deletion_protection
}
output "topics" {
  value = { for name, t in module.fleet.topics : name => t.action_state_id }
}
EOF
cat >"$DIR/floor/fleet/main.tf" <<'EOF'
variable "prefix" { type = string }
variable "operators" { type = map(object({})) }
variable "partitions" { type = number }
variable "deletion_protection" { type = bool }
variable "replication_factor" {
  type    = number
  default = 1
}
resource "terraform_data" "action_state" {
  for_each = var.operators
  input = {
    name                = "${var.prefix}-${each.key}-action-state"
    partitions          = var.partitions
    replication_factor  = var.replication_factor
    deletion_protection = var.deletion_protection
    config = {
      "cleanup.policy"  = "compact,delete"
      "retention.ms"    = "-1"
      "retention.bytes" = "-1"
    }
  }
}
resource "terraform_data" "control" {
  for_each = var.operators
  input = {
    name                = "${var.prefix}-${each.key}-cleanup-control"
    action_state_topic  = "${var.prefix}-${each.key}-action-state"
    partitions          = 1
    replication_factor  = var.replication_factor
    deletion_protection = var.deletion_protection
    config = {
      "cleanup.policy" = "compact"
    }
  }
}
output "topics" {
  value = { for k, t in terraform_data.action_state : k => {
    action_state    = t.output.name
    action_state_id = t.id
    control         = terraform_data.control[k].output.name
  } }
}
EOF

RESULTS="$DIR/results.tsv"
printf 'provider\ttopics\tparallelism\tbackend\tcommand\trun\twall_s\tcpu_core_s\tcpu_provider_s\tcpu_broker_s\trequests\tby_type\tpeak_rss_core_mb\tpeak_rss_provider_mb\n' >"$RESULTS"

# measure <provider> <topics> <parallelism> <backend> <command> <run> <terraform args...>
measure() {
  local provider="$1" topics="$2" par="$3" backend="$4" cmd="$5" run="$6"
  shift 6
  bench_measure "$provider	$topics	$par	$backend	$cmd	$run" "$DIR/$provider" "$@" -parallelism="$par" \
    -var "bootstrap_servers=[\"$BOOTSTRAP\"]" -var operator_count=$((topics / 2)) -var partitions="$PARTITIONS" \
    -var prefix="b$provider" -var deletion_protection=false
}

drop_topics() { # drop_topics <provider>: what a run left behind
  [[ $1 == floor ]] || bench_drop_topics "b$1"
  rm -f "$DIR/$1/terraform.tfstate" "$DIR/$1/terraform.tfstate.backup"
}

# configure <provider> <backend> <state key>: a fresh state for every run;
# on S3 its own key, so no run sees another's state.
configure() {
  bench_backend "$DIR/$1" "$2" "$3"
  bench_init "$DIR/$1"
}

log "Kafka $KAFKA_VERSION at $BOOTSTRAP${S3_URL:+, S3 emulator at $S3_URL}; results in $RESULTS"
for n in $TOPICS; do
  for par in $PARALLELISM; do
    for backend in $BACKENDS; do
      for ((run = 1; run <= RUNS; run++)); do
        for p in $PROVIDERS; do
          drop_topics "$p"
          configure "$p" "$backend" "rollout/$p-$n-$par-$run.tfstate"
        done
        for p in $PROVIDERS; do measure "$p" "$n" "$par" "$backend" apply "$run" apply -auto-approve -input=false; done
        for p in $PROVIDERS; do measure "$p" "$n" "$par" "$backend" plan "$run" plan -input=false; done
        if ((run == 1 && DESTROY == 1)); then
          for p in $PROVIDERS; do measure "$p" "$n" "$par" "$backend" destroy "$run" destroy -auto-approve -input=false; done
        fi
      done
      for p in $PROVIDERS; do drop_topics "$p"; done
    done
  done
done

# Summary: min-max of each measure per (command, topics, parallelism,
# backend, provider); for this provider, its wall time over the floor's
# median wall time for the same command, topics, parallelism and backend.
log "summary (min-max over runs)"
awk -F'\t' '
  function median(s,   a, n, i, j, t) { # s: space-separated numbers
    n = split(s, a, " ")
    for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  function r(k, c) { return lo[k, c] == hi[k, c] ? lo[k, c] : lo[k, c] "-" hi[k, c] }
  function ratio(k, f,   g, fm, a, b) {
    if (f[5] != "flinkagents") return ""
    g = f[1] "\t" f[2] "\t" f[3] "\t" f[4]
    if (!(g in floor)) return ""
    fm = median(floor[g])
    if (fm <= 0) return "-"
    a = sprintf("%.1f", lo[k, 7] / fm); b = sprintf("%.1f", hi[k, 7] / fm)
    return "x" (a == b ? a : a "-" b) }
  NR > 1 {
    k = $5 "\t" $2 "\t" $3 "\t" $4 "\t" $1
    if (!(k in n)) order[++m] = k
    n[k]++
    if ($1 == "floor") floor[$5 "\t" $2 "\t" $3 "\t" $4] = floor[$5 "\t" $2 "\t" $3 "\t" $4] " " $7
    for (c = 7; c <= 11; c++) {
      if (n[k] == 1 || $c + 0 < lo[k, c] + 0) lo[k, c] = $c
      if (n[k] == 1 || $c + 0 > hi[k, c] + 0) hi[k, c] = $c
    } }
  END {
    print "| command | topics | -parallelism | backend | provider | runs | wall s | wall / floor | CPU core s | CPU provider s | CPU broker s | requests |"
    print "|---|---:|---:|---|---|---:|---|---|---|---|---|---|"
    for (i = 1; i <= m; i++) { k = order[i]; split(k, f, "\t")
      printf "| %s | %s | %s | %s | %s | %d | %s | %s | %s | %s | %s | %s |\n", f[1], f[2], f[3], f[4], f[5], n[k],
        r(k, 7), ratio(k, f), r(k, 8), r(k, 9), r(k, 10), r(k, 11) }
  }' "$RESULTS" | tee "$DIR/summary.md"
