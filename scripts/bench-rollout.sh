#!/usr/bin/env bash
# Rollout benchmark: this provider against the Mongey kafka provider,
# declaring the same topics, on Apache Kafka started by scripts/kafka.
# Not part of CI; BENCHMARKS.md ("Rollout at scale") has the method and the
# results. `make bench-rollout` runs it.
#
# For every topic count and -parallelism, each run does, providers
# interleaved: apply from an empty state, plan (a refresh of every topic),
# then destroy (run 1 only: Mongey's destroy is slow; later runs remove their
# topics with Kafka's tool between runs instead). Every command records its
# wall time, the CPU of terraform core and of the provider processes, and
# the requests the broker received (its RequestsPerSec counters over JMX).
#
# Environment (all optional):
#   BENCH_TOPICS="400 1000"          topics per configuration (even: half
#                                    action-state topics, half control topics)
#   BENCH_PARALLELISM="10 50"        terraform -parallelism values
#   BENCH_RUNS=3                     runs per (topics, parallelism)
#   BENCH_PROVIDERS="flinkagents mongey"
#   BENCH_PARTITIONS=3               partitions of each action-state topic
#   BENCH_DIR=<dir>                  scratch directory (default: a new one in /tmp)
#   MONGEY_VERSION=v0.13.1           the Mongey provider's module version
#   FLINKAGENTS_CPUPROFILE_DIR=<dir> CPU profiles of this provider's processes
#
# The Mongey provider is downloaded from the Go module proxy and built in the
# scratch directory; nothing of it is written to this repository.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOPICS="${BENCH_TOPICS:-400 1000}"
PARALLELISM="${BENCH_PARALLELISM:-10 50}"
RUNS="${BENCH_RUNS:-3}"
PROVIDERS="${BENCH_PROVIDERS:-flinkagents mongey}"
PARTITIONS="${BENCH_PARTITIONS:-3}"
MONGEY_VERSION="${MONGEY_VERSION:-v0.13.1}"
DIR="${BENCH_DIR:-$(mktemp -d /tmp/flinkagents-bench.XXXXXX)}"
mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd -P)"

"$ROOT/scripts/require-tools.sh" go terraform java mvn openssl
BENCH_NAME=bench-rollout
# shellcheck source=bench/lib.sh
source "$ROOT/scripts/bench/lib.sh"
for n in $TOPICS; do ((n % 2 == 0 && n > 0)) || die "BENCH_TOPICS: $n is not a positive even number"; done

trap bench_stop_kafka EXIT
bench_start_kafka

mkdir -p "$DIR/bin/flinkagents" "$DIR/bin/mongey" "$DIR/real"
log "building this provider"
(cd "$ROOT" && go build -o "$DIR/real/terraform-provider-flinkagents" .)
bench_wrap "$DIR/real/terraform-provider-flinkagents" "$DIR/bin/flinkagents/terraform-provider-flinkagents"
if [[ " $PROVIDERS " == *" mongey "* ]]; then
  log "building the Mongey provider $MONGEY_VERSION from the Go module proxy, in $DIR/mongey-src"
  src="$(cd "$DIR" && GOFLAGS=-mod=mod go mod download -json "github.com/Mongey/terraform-provider-kafka@$MONGEY_VERSION" |
    awk -F'"' '/"Dir":/ {print $4}')"
  [[ -d "$src" ]] || die "could not download github.com/Mongey/terraform-provider-kafka@$MONGEY_VERSION"
  rm -rf "$DIR/mongey-src" && cp -r "$src" "$DIR/mongey-src" && chmod -R u+w "$DIR/mongey-src"
  (cd "$DIR/mongey-src" && GOFLAGS=-mod=mod go build -o "$DIR/real/terraform-provider-kafka" .)
  bench_wrap "$DIR/real/terraform-provider-kafka" "$DIR/bin/mongey/terraform-provider-kafka"
fi
cat >"$DIR/terraformrc" <<EOF
provider_installation {
  dev_overrides {
    "actionstate/flinkagents" = "$DIR/bin/flinkagents"
    "mongey/kafka"            = "$DIR/bin/mongey"
  }
  direct {}
}
EOF
export TF_CLI_CONFIG_FILE="$DIR/terraformrc" TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1

# --- Configurations ----------------------------------------------------------
# This provider: examples/rollout as users run it (the agent-operator module
# with for_each). Mongey: the same topics and settings, kafka_topic with
# for_each.
rm -rf "$DIR/flinkagents" "$DIR/modules" "$DIR/mongey"
cp -r "$ROOT/examples/rollout" "$DIR/flinkagents"
cp -r "$ROOT/examples/modules" "$DIR/modules"
mkdir -p "$DIR/mongey"
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

RESULTS="$DIR/results.tsv"
printf 'provider\ttopics\tparallelism\tcommand\trun\twall_s\tcpu_core_s\tcpu_provider_s\tcpu_broker_s\trequests\tby_type\n' >"$RESULTS"

# measure <provider> <topics> <parallelism> <command> <run> <terraform args...>
measure() {
  local provider="$1" topics="$2" par="$3" cmd="$4" run="$5"
  shift 5
  bench_measure "$provider	$topics	$par	$cmd	$run" "$DIR/$provider" "$@" -parallelism="$par" \
    -var "bootstrap_servers=[\"$BOOTSTRAP\"]" -var operator_count=$((topics / 2)) -var partitions="$PARTITIONS" \
    -var prefix="b$provider" -var deletion_protection=false
}

drop_topics() { # drop_topics <provider>: what a run left behind
  bench_drop_topics "b$1"
  rm -f "$DIR/$1/terraform.tfstate" "$DIR/$1/terraform.tfstate.backup"
}

for p in $PROVIDERS; do
  (cd "$DIR/$p" && terraform init -input=false >/dev/null 2>&1 || terraform get >/dev/null) ||
    die "$p: terraform init failed in $DIR/$p"
done

log "Kafka $KAFKA_VERSION at $BOOTSTRAP; results in $RESULTS"
for n in $TOPICS; do
  for par in $PARALLELISM; do
    for ((run = 1; run <= RUNS; run++)); do
      for p in $PROVIDERS; do drop_topics "$p"; done
      for p in $PROVIDERS; do measure "$p" "$n" "$par" apply "$run" apply -auto-approve -input=false; done
      for p in $PROVIDERS; do measure "$p" "$n" "$par" plan "$run" plan -input=false -lock=false; done
      if ((run == 1)); then
        for p in $PROVIDERS; do measure "$p" "$n" "$par" destroy "$run" destroy -auto-approve -input=false; done
      fi
    done
    for p in $PROVIDERS; do drop_topics "$p"; done
  done
done

# Summary: min-max of each measure per (command, topics, parallelism, provider).
log "summary (min-max over runs)"
awk -F'\t' 'NR > 1 {
    k = $4 "\t" $2 "\t" $3 "\t" $1
    if (!(k in n)) order[++m] = k
    n[k]++
    for (c = 6; c <= 10; c++) {
      if (n[k] == 1 || $c < lo[k, c]) lo[k, c] = $c
      if (n[k] == 1 || $c > hi[k, c]) hi[k, c] = $c
    } }
  function r(k, c) { return lo[k, c] == hi[k, c] ? lo[k, c] : lo[k, c] "-" hi[k, c] }
  END {
    print "| command | topics | -parallelism | provider | runs | wall s | CPU core s | CPU provider s | CPU broker s | requests |"
    print "|---|---:|---:|---|---:|---|---|---|---|---|"
    for (i = 1; i <= m; i++) { k = order[i]; split(k, f, "\t")
      printf "| %s | %s | %s | %s | %d | %s | %s | %s | %s | %s |\n", f[1], f[2], f[3], f[4], n[k], r(k, 6), r(k, 7), r(k, 8), r(k, 9), r(k, 10) }
  }' "$RESULTS" | tee "$DIR/summary.md"
