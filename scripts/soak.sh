#!/usr/bin/env bash
# The soak: a simulated month of nightly fleet cleanup under faults, with
# invariants checked after every night (RELIABILITY.md has the method and
# the recorded runs). `make soak` runs it; it is not part of the default CI
# run, which runs the short version (SOAK_SHORT=1) in .ci/run.
#
# What it starts, all on 127.0.0.1, all under one work directory:
#   - a 3-node Kafka cluster (scripts/kafka/start-cluster.sh: replication
#     factor 3, min.insync.replicas=2), plus a SASL PLAIN listener on every
#     node (scripts/soak/sasl.sh) that the provider authenticates to;
#   - the S3 emulator (gofakes3 from tools/go.mod, its objects in s3.db);
#   - the driver (internal/soak/cmd/soak), which plays the jobs, runs the
#     "Scheduled cleanup" guide's pipeline (plan, show -json, the OPA gate
#     with examples/policies, apply) through examples/modules/agent-fleet
#     every night, injects the seed's faults and checks the invariants.
#
# Environment (all optional):
#   SOAK_SEED=<n>          replay a run: the same schedule of faults, fleet and jobs
#                          (default: a new seed, printed first)
#   SOAK_NIGHTS=30         nights
#   SOAK_OPERATORS=50      operators in the fleet
#   SOAK_PARTITIONS=3      partitions of each action-state topic
#   SOAK_SHORT=1           3 nights, 12 operators, every fault kind once (CI)
#   SOAK_KEEP_GOING=1      record violations and go on to the last night
#   SOAK_SKIP=<kinds>      fault kinds to leave out, comma-separated (e.g. topic-recreated
#                          while a defect it finds is open); printed with the schedule
#   SOAK_SABOTAGE=1        on the last night, delete records, plant a tombstone and leak
#                          the password around the provider: the run must end with
#                          violations of (a), (b), (c) and (f) (the checker's own test)
#   SOAK_TIMEOUT=<s>       stop the driver after this many seconds (CI sets it; exit 124)
#   SOAK_DIR=<dir>         work directory (default: a new one in /tmp); kept when
#                          set, when a run fails, or with SOAK_KEEP=1
#
# Exit status: 0 every invariant held, 3 a violation (the work directory keeps
# the seed, the schedule, every command's output and provider log, the state
# and the cluster's data: see RELIABILITY.md, "Reproducing a failure"), other
# non-zero the soak itself could not run.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ ${SOAK_SHORT:-} == 1 ]]; then
  NIGHTS="${SOAK_NIGHTS:-3}" OPERATORS="${SOAK_OPERATORS:-12}" EACH=-each
else
  NIGHTS="${SOAK_NIGHTS:-30}" OPERATORS="${SOAK_OPERATORS:-50}" EACH=
fi
PARTITIONS="${SOAK_PARTITIONS:-3}"
SEED="${SOAK_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
[[ $SEED =~ ^[0-9]+$ ]] || { echo "soak: SOAK_SEED must be a number" >&2; exit 2; }
KEEP="${SOAK_KEEP:-}"
[[ -n ${SOAK_DIR:-} ]] && KEEP=1
DIR="${SOAK_DIR:-$(mktemp -d /tmp/flinkagents-soak.XXXXXX)}"
mkdir -p "$DIR"
DIR="$(cd "$DIR" && pwd -P)"

log() { printf 'soak: %s\n' "$*" >&2; }
log "seed $SEED: $NIGHTS nights, $OPERATORS operators x $PARTITIONS partitions${EACH:+, every fault kind once}; work directory $DIR"
log "replay with: SOAK_SEED=$SEED${SOAK_SHORT:+ SOAK_SHORT=1}${SOAK_SKIP:+ SOAK_SKIP=$SOAK_SKIP} make soak"

"$ROOT/scripts/require-tools.sh" go terraform java mvn openssl curl

# shellcheck source=soak/lib.sh
source "$ROOT/scripts/soak/lib.sh"
T0=$(date +%s)
trap 'soak_stop' EXIT
trap 'exit 143' INT TERM # the EXIT trap stops Kafka and the emulator

for step in soak_build soak_secrets soak_start_kafka soak_start_s3; do
  t=$(date +%s)
  "$step"
  log "$step: $(($(date +%s) - t)) s"
done
log "setup took $(($(date +%s) - T0)) s"

set +e
${SOAK_TIMEOUT:+timeout --signal=TERM "$SOAK_TIMEOUT"} "$DIR/bin/soak" -dir "$DIR" -root "$ROOT" -seed "$SEED" -nights "$NIGHTS" -operators "$OPERATORS" \
  -partitions "$PARTITIONS" $EACH ${SOAK_KEEP_GOING:+-keep-going} ${SOAK_SABOTAGE:+-sabotage} -skip "${SOAK_SKIP:-}" \
  -kafka-dir "$DIR/kafka" -bootstrap "$BOOTSTRAP" -sasl-bootstrap "$SASL_BOOTSTRAP" -sasl-user soak \
  -secret-files "$DIR/secrets/sasl-password,$DIR/secrets/aws-secret-access-key" \
  -allowed-secret-files "$ALLOWED_SECRET_FILES" -s3 "$S3_URL" -bucket soak \
  -jar "$ROOT/interop/java/target/flinkagents-interop.jar" -opa "$DIR/bin/opa" -terraform "$(command -v terraform)" \
  2>&1 | tee "$DIR/soak.log"
rc=${PIPESTATUS[0]}
set -e
log "seed $SEED: exit $rc after $(($(date +%s) - T0)) s (setup included)"
if ((rc != 0)); then
  KEEP=1
  log "kept $DIR: soak.log, summary.json, schedule and logs/ (every command), fleet/ (configuration and state), kafka/ and s3.db (data)"
  log "replay with: SOAK_SEED=$SEED SOAK_NIGHTS=$NIGHTS SOAK_OPERATORS=$OPERATORS${SOAK_SHORT:+ SOAK_SHORT=1}${SOAK_SKIP:+ SOAK_SKIP=$SOAK_SKIP} make soak"
fi
exit "$rc"
