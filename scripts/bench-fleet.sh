#!/usr/bin/env bash
# Fleet cleanup benchmark: one `terraform apply` advancing the cleanup
# boundary of every operator of examples/rollout, each following its job's
# checkpoints (each operator's checkpoint_dir in the agent-fleet module) on an S3 store,
# on Apache Kafka started by scripts/kafka. Not part of CI; BENCHMARKS.md
# ("Fleet cleanup") has the method and the results. `make bench-fleet` runs it.
#
# For every operator count, partition count, state backend and -parallelism,
# from an empty cluster and state:
#   rollout   apply with no checkpoints yet: topics only, no boundary
#   advance-1 checkpoints uploaded (internal/checkpoint/cmd/fleetpoints, with
#             records in every partition), apply: every boundary is created
#   plan      a clean plan (nothing to change)
#   advance-2 the oldest checkpoint retired and a newer one written, apply:
#             every boundary moves forward
#   plan      a clean plan again
# Every command records its wall time, the CPU of terraform core, of the
# provider processes and of the broker, and the requests the broker received
# (JMX). State bytes per operator and per boundary instance are recorded
# after advance-2. Last, the same advance is run per operator, for a sample,
# the way the runtime's KafkaActionStateCleanupTool does it (see tool_loop).
#
# Environment (all optional):
#   BENCH_OPERATORS="100 1000"   operators per configuration
#   BENCH_PARTITIONS="3"         partitions of each action-state topic (e.g. "3 64")
#   BENCH_BACKENDS="local s3"    Terraform state: local file, or the S3 backend on the emulator
#   BENCH_PARALLELISM="10 50"    terraform -parallelism values
#   BENCH_RECORDS=40             records per partition
#   BENCH_TOOL_SAMPLE=5          operators advanced by the tool loop (0: skip it)
#   BENCH_DIR=<dir>              scratch directory (default: a new one in /tmp)
#   BENCH_KAFKA_HEAP_OPTS="-Xms1g -Xmx4g"   the broker JVM's heap
#   BENCH_KAFKA_NODES=1          Kafka nodes (more than one: scripts/kafka/start-cluster.sh; a broker needs a file per partition)
#   BENCH_LISTENER=plaintext     the provider's listener: plaintext, or sasl_ssl (SCRAM-SHA-512 over TLS
#                                with the broker's test CA, every connection a handshake and a SCRAM exchange)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OPERATORS="${BENCH_OPERATORS:-100 1000}"
PARTITIONS="${BENCH_PARTITIONS:-3}"
BACKENDS="${BENCH_BACKENDS:-local s3}"
PARALLELISM="${BENCH_PARALLELISM:-10 50}"
RECORDS="${BENCH_RECORDS:-40}"
TOOL_SAMPLE="${BENCH_TOOL_SAMPLE:-5}"
DIR="${BENCH_DIR:-$(mktemp -d /tmp/flinkagents-fleet.XXXXXX)}"
mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd -P)"
BUCKET=bench

"$ROOT/scripts/require-tools.sh" go terraform java mvn node
BENCH_NAME=bench-fleet
# shellcheck source=bench/lib.sh
source "$ROOT/scripts/bench/lib.sh"
LISTENER="${BENCH_LISTENER:-plaintext}"
[[ $LISTENER == plaintext || $LISTENER == sasl_ssl ]] || die "BENCH_LISTENER: $LISTENER is neither plaintext nor sasl_ssl"
for b in $BACKENDS; do [[ $b == local || $b == s3 ]] || die "BENCH_BACKENDS: $b is neither local nor s3"; done

trap 'bench_stop_s3; bench_stop_kafka' EXIT
bench_start_kafka

# --- Binaries: this provider (wrapped), the S3 emulator, the checkpoint writer
log "building this provider, gofakes3 (tools/go.mod) and fleetpoints"
mkdir -p "$DIR/real"
(cd "$ROOT" && go build -o "$DIR/real/terraform-provider-flinkagents" . &&
  go build -o "$DIR/real/fleetpoints" ./internal/checkpoint/cmd/fleetpoints)
bench_mirror_provider "$DIR/real/terraform-provider-flinkagents" registry.terraform.io/actionstate/flinkagents 0.0.1
bench_start_s3 "$BUCKET"

# --- Configuration: examples/rollout as users run it --------------------------
rm -rf "$DIR/fleet" "$DIR/modules"
cp -r "$ROOT/examples/rollout" "$DIR/fleet"
cp -r "$ROOT/examples/modules" "$DIR/modules"

# configure <backend> <operators> <partitions> <prefix> <with checkpoints: 0|1>
configure() {
  local backend="$1" n="$2" parts="$3" prefix="$4" follow="$5"
  bench_backend "$DIR/fleet" "$backend" "state/$prefix.tfstate"
  node -e '
    const [n, parts, prefix, follow, bootstrap, s3] = process.argv.slice(1);
    const dirs = {};
    if (follow === "1") for (let i = 0; i < +n; i++) {
      const op = "agent-" + String(i).padStart(2, "0");
      dirs[op] = "s3://'"$BUCKET"'/ckpt/" + prefix + "/" + op;
    }
    console.log(JSON.stringify({
      bootstrap_servers: bootstrap.split(","), operator_count: +n, partitions: +parts, prefix,
      deletion_protection: false, checkpoint_dirs: dirs,
      checkpoint_storage: follow === "1" ? { s3_endpoint: s3, s3_region: "us-east-1", s3_path_style: true } : null,
    }, null, 1));
  ' "$n" "$parts" "$prefix" "$follow" "$PROVIDER_BOOTSTRAP" "$S3_URL" >"$DIR/fleet/bench.auto.tfvars.json"
  bench_init "$DIR/fleet"
}

points() { # points <prefix> <operators> <round>
  "$DIR/real/fleetpoints" -bootstrap "$BOOTSTRAP" -s3 "$S3_URL" -bucket "$BUCKET" -prefix "$1" \
    -operators "$2" -records "$RECORDS" -round "$3" || die "fleetpoints round $3 failed"
}

# State bytes: the whole state per operator, and one boundary (an entry of
# flinkagents_cleanup_boundaries).
state_bytes() { # state_bytes <operators> -> "per_operator per_boundary"
  (cd "$DIR/fleet" && terraform state pull) | node -e '
    let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
      const st = JSON.parse(s);
      const b = st.resources.filter(r => r.type === "flinkagents_cleanup_boundaries").flatMap(r => r.instances)
        .flatMap(i => Object.values(i.attributes.boundaries || {}));
      const per = b.length ? Math.round(b.reduce((a, i) => a + JSON.stringify(i).length, 0) / b.length) : 0;
      console.log(Math.round(Buffer.byteLength(s) / +process.argv[1]), per);
    });' "$1"
}

# The runtime's KafkaActionStateCleanupTool advances one operator per run:
# `plan` (reads the checkpoint with Flink), then `apply` (commit, delete,
# verify, record APPLIED), each a JVM. The tool itself is not published on
# Maven Central, so this loop does its Kafka steps with the interop CLI (the
# same Jackson and Kafka client) and Kafka's own tools, a JVM per step, for a
# sample of operators: round 3's boundary, after the measured runs. It cannot
# time the tool's Flink checkpoint read (see BENCHMARKS.md).
tool_loop() { # tool_loop <prefix> <operators> <partitions>
  local prefix="$1" n="$2" parts="$3" jar="$ROOT/interop/java/target/flinkagents-interop.jar"
  "$ROOT/scripts/build-interop.sh" >&2
  local off=$((3 * RECORDS / 4)) offsets="" deletes="" p i
  for ((p = 0; p < parts; p++)); do
    offsets+="${offsets:+,}$p=$off"
    deletes+="${deletes:+,}{\"topic\":\"TOPIC\",\"partition\":$p,\"offset\":$off}"
  done
  local sample=$((TOOL_SAMPLE < n ? TOOL_SAMPLE : n)) t0 t1
  t0="$(date +%s.%N)"
  for ((i = 0; i < sample; i++)); do
    local op topic control id
    op="$(printf 'agent-%02d' "$i")"
    topic="$prefix-$op-action-state" control="$prefix-$op-cleanup-control"
    id="$(kafka_run_class org.apache.kafka.tools.TopicCommand --bootstrap-server "$BOOTSTRAP" --describe --topic "$topic" |
      awk '{ for (f = 1; f < NF; f++) if ($f == "TopicId:") { print $(f + 1); exit } }')"
    [[ -n $id ]] || die "tool loop: no topic ID for $topic"
    rm -f "$DIR/tool-plan.json"
    java -jar "$jar" write-plan --source "s3://$BUCKET/ckpt/$prefix/$op/chk-3" --topic "$topic" --topic-id "$id" \
      --offsets "$offsets" --out "$DIR/tool-plan.json" >/dev/null
    java -jar "$jar" read-control --bootstrap "$BOOTSTRAP" --topic "$control" >/dev/null
    java -jar "$jar" write-committed --bootstrap "$BOOTSTRAP" --topic "$control" --plan "$DIR/tool-plan.json" >/dev/null
    printf '{"version":1,"partitions":[%s]}' "${deletes//TOPIC/$topic}" >"$DIR/tool-delete.json"
    kafka_run_class org.apache.kafka.tools.DeleteRecordsCommand --bootstrap-server "$BOOTSTRAP" \
      --offset-json-file "$DIR/tool-delete.json" >/dev/null
    kafka_run_class org.apache.kafka.tools.GetOffsetShell --bootstrap-server "$BOOTSTRAP" --topic "$topic" --time -2 |
      awk -F: -v want="$off" '$3 != want { bad = 1 } END { exit bad }' || die "tool loop: $topic start offsets are not $off"
    java -jar "$jar" write-committed --bootstrap "$BOOTSTRAP" --topic "$control" --plan "$DIR/tool-plan.json" --status APPLIED >/dev/null
  done
  t1="$(date +%s.%N)"
  awk -v n="$n" -v parts="$parts" -v s="$sample" -v t0="$t0" -v t1="$t1" 'BEGIN {
    per = (t1 - t0) / s
    printf "%d\t%d\t%d\t%.1f\t%.0f\n", n, parts, s, per, per * n }' | tee -a "$DIR/tool-loop.tsv" >&2
}

boundaries() { # boundaries <operators>: every operator got its boundary
  local got
  got="$(cd "$DIR/fleet" && terraform state pull | node -e '
    let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
      const b = JSON.parse(s).resources.filter(r => r.type === "flinkagents_cleanup_boundaries").flatMap(r => r.instances);
      console.log(b.reduce((n, i) => n + Object.keys(i.attributes.boundaries || {}).length, 0));
    });' || true)"
  [[ $got == "$1" ]] || die "advance-1 left $got boundaries for $1 operators (log: $DIR/last.log)"
}

RESULTS="$DIR/results.tsv"
printf 'operators\tpartitions\tbackend\tparallelism\tcommand\twall_s\tcpu_core_s\tcpu_provider_s\tcpu_broker_s\trequests\tby_type\tpeak_rss_core_mb\tpeak_rss_provider_mb\n' >"$RESULTS"
STATES="$DIR/state-bytes.tsv"
printf 'operators\tpartitions\tsample\tseconds_per_operator\textrapolated_fleet_s\n' >"$DIR/tool-loop.tsv"
printf 'operators\tpartitions\tbackend\tparallelism\tstate_bytes_per_operator\tbytes_per_boundary\n' >"$STATES"

# The provider's listener; the benchmark's own tools (records, checkpoints,
# counters) stay on PLAINTEXT.
PROVIDER_BOOTSTRAP="$BOOTSTRAP"
if [[ $LISTENER == sasl_ssl ]]; then
  eval "$(grep -E '^export KAFKA_(BOOTSTRAP_SASL_SSL|SCRAM_USER|SCRAM_PASSWORD|CA_PEM)=' "$KAFKA_DIR/env.sh")"
  PROVIDER_BOOTSTRAP="$KAFKA_BOOTSTRAP_SASL_SSL"
  # The provider's environment variables (docs/index.md).
  export KAFKA_SASL_MECHANISM=SCRAM-SHA-512 KAFKA_SASL_USERNAME="$KAFKA_SCRAM_USER" \
    KAFKA_SASL_PASSWORD="$KAFKA_SCRAM_PASSWORD" KAFKA_CA_CERT="$KAFKA_CA_PEM"
fi
log "Kafka $KAFKA_VERSION at $BOOTSTRAP (the provider on $LISTENER at $PROVIDER_BOOTSTRAP), S3 emulator at $S3_URL; results in $RESULTS"
run=0
for n in $OPERATORS; do
  for parts in $PARTITIONS; do
    for backend in $BACKENDS; do
      for par in $PARALLELISM; do
        run=$((run + 1))
        prefix="f$run"
        row="$n	$parts	$backend	$par"
        args=(-input=false -parallelism="$par")
        configure "$backend" "$n" "$parts" "$prefix" 0
        bench_measure "$row	rollout" "$DIR/fleet" apply -auto-approve "${args[@]}"
        # A new operator's boundary held at its rollout (its new control topic
        # unreadable) is recorded by the next apply, but says the rollout
        # did not go cleanly: count them.
        log "rollout: $(grep -c '^Warning: Boundary .* Held' "$DIR/last.log" || true) boundaries held (log: $DIR/last.log)"
        configure "$backend" "$n" "$parts" "$prefix" 1
        points "$prefix" "$n" 1
        bench_measure "$row	advance-1" "$DIR/fleet" apply -auto-approve "${args[@]}"
        boundaries "$n"
        bench_measure "$row	plan" "$DIR/fleet" plan -detailed-exitcode "${args[@]}"
        points "$prefix" "$n" 2
        bench_measure "$row	advance-2" "$DIR/fleet" apply -auto-approve "${args[@]}"
        bench_measure "$row	plan" "$DIR/fleet" plan -detailed-exitcode "${args[@]}"
        printf '%s\t%s\n' "$row" "$(state_bytes "$n" | tr ' ' '\t')" | tee -a "$STATES" >&2
        if ((TOOL_SAMPLE > 0)) && [[ $backend == "${BACKENDS##* }" && $par == "${PARALLELISM##* }" ]]; then
          points "$prefix" "$n" 3
          tool_loop "$prefix" "$n" "$parts"
        fi
        bench_drop_topics "$prefix"
        rm -f "$DIR/fleet/terraform.tfstate" "$DIR/fleet/terraform.tfstate.backup"
      done
    done
  done
done
