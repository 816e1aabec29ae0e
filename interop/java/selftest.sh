#!/usr/bin/env bash
# Builds the interop jar (running its JUnit suite) and checks the CLI end to end.
#
# Usage: interop/java/selftest.sh [--kafka]
#   --kafka  also exercise the Kafka commands: against $INTEROP_BOOTSTRAP (PLAINTEXT) when set,
#            otherwise against a broker started with scripts/kafka/start-single.sh and stopped after.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
JAR="$HERE/target/flinkagents-interop.jar"
WITH_KAFKA=0
case "${1:-}" in
  "") ;;
  --kafka) WITH_KAFKA=1 ;;
  *) echo "usage: $0 [--kafka]" >&2; exit 2 ;;
esac

TMP="$(mktemp -d)"
KAFKA_WD=""
finish() {
  if [[ -n "$KAFKA_WD" ]]; then "$REPO/scripts/kafka/stop.sh" "$KAFKA_WD" >/dev/null 2>&1 || true; fi
  rm -rf "$TMP"
}
trap finish EXIT

(cd "$HERE" && mvn -q -B package)

interop() { java -jar "$JAR" "$@"; }
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1" >&2; }
# expect_status NAME STATUS COMMAND...: the command exits with STATUS.
expect_status() {
  local name="$1" want="$2" got=0
  shift 2
  "$@" >"$TMP/out" 2>"$TMP/err" || got=$?
  if [[ "$got" == "$want" ]]; then ok "$name"; else bad "$name: exit $got, want $want: $(cat "$TMP/err")"; fi
}
# expect_output NAME EXPECTED COMMAND...: the command exits 0 and prints exactly EXPECTED (plus newline).
expect_output() {
  local name="$1" want="$2" got rc=0
  shift 2
  got="$("$@" 2>"$TMP/err")" || rc=$?
  if [[ "$rc" == 0 && "$got" == "$want" ]]; then ok "$name"; else bad "$name: exit $rc, got '$got', want '$want': $(cat "$TMP/err")"; fi
}

SOURCE="file:/var/flink/checkpoints/7f3a/chk-42"
TOPIC="orders-agent-action-state"
TOPIC_ID="q1Yw3mZ7QGu3c8m0b7o5Zg"
SPEC_ID="a5440177c24ca86c94163d0a3254bca95d7c4e4d3cc3671b267c8e68797adac4"

# ---- offline: plan ID, plan file, control record
expect_output "plan-id matches the spec vector" "$SPEC_ID" \
  interop plan-id "$SOURCE" "$TOPIC" "$TOPIC_ID" 0=150 1=100 2=0
expect_output "write-plan prints the spec plan ID" "$SPEC_ID" \
  interop write-plan --source "$SOURCE" --topic "$TOPIC" --topic-id "$TOPIC_ID" --offsets 2=0,0=150,1=100 --out "$TMP/plan.json"
interop reprint-plan "$TMP/plan.json" >"$TMP/reprinted.json"
if cmp -s "$TMP/plan.json" "$TMP/reprinted.json"; then ok "reprint-plan is byte-identical"; else bad "reprint-plan differs"; fi
expected_file="$(printf '{\n  "schemaVersion" : 1,\n  "planId" : "%s",\n  "sourceRecoveryPoint" : "%s",\n  "topic" : "%s",\n  "topicId" : "%s",\n  "offsets" : {\n    "0" : 150,\n    "1" : 100,\n    "2" : 0\n  }\n}\nX' "$SPEC_ID" "$SOURCE" "$TOPIC" "$TOPIC_ID")"
printf '%s' "${expected_file%X}" >"$TMP/expected.json"
if cmp -s "$TMP/plan.json" "$TMP/expected.json"; then ok "plan file has the documented bytes"; else bad "plan file bytes differ from the spec layout"; fi
cp "$TMP/plan.json" "$TMP/plan.before"
expect_status "write-plan refuses to overwrite" 1 \
  interop write-plan --source other --topic "$TOPIC" --topic-id "$TOPIC_ID" --offsets 0=1 --out "$TMP/plan.json"
if cmp -s "$TMP/plan.json" "$TMP/plan.before"; then ok "existing plan file untouched"; else bad "existing plan file changed"; fi

expect_output "non-ASCII and <>& round-trip" "" bash -c '
  java -jar "$1" write-plan --source "s3://bücket/チェック/<a&b>" --topic t --topic-id "$2" --offsets 10=1,2=3 --out "$3/u.json" >/dev/null &&
  java -jar "$1" reprint-plan "$3/u.json" | cmp - "$3/u.json" && grep -q "\"s3://bücket/チェック/<a&b>\"" "$3/u.json" &&
  grep -n "\"2\" : 3" "$3/u.json" | grep -q "^8:"' _ "$JAR" "$TOPIC_ID" "$TMP"

record="{\"schemaVersion\":1,\"status\":\"COMMITTED\",\"plan\":{\"schemaVersion\":1,\"planId\":\"$SPEC_ID\",\"sourceRecoveryPoint\":\"$SOURCE\",\"topic\":\"$TOPIC\",\"topicId\":\"$TOPIC_ID\",\"offsets\":{\"0\":150,\"1\":100,\"2\":0}}}"
printf '%s' "$record" >"$TMP/record.json"
interop reprint-record "$TMP/record.json" >"$TMP/record.out"
if cmp -s "$TMP/record.json" "$TMP/record.out"; then ok "reprint-record is byte-identical"; else bad "reprint-record differs"; fi

sed 's/"1" : 100/"01" : 100/' "$TMP/plan.json" >"$TMP/bad.json"
expect_status "non-canonical partition key is rejected" 1 interop reprint-plan "$TMP/bad.json"
expect_status "unknown command is a usage error" 2 interop frobnicate

# ---- Kafka (optional)
if ((WITH_KAFKA)); then
  BOOTSTRAP="${INTEROP_BOOTSTRAP:-}"
  if [[ -z "$BOOTSTRAP" ]]; then
    KAFKA_WD="$TMP/kafka"
    "$REPO/scripts/kafka/start-single.sh" "$KAFKA_WD" >"$TMP/kafka-start.log" 2>&1 \
      || { cat "$TMP/kafka-start.log" >&2; exit 1; }
    # shellcheck disable=SC1091
    BOOTSTRAP="$(source "$KAFKA_WD/env.sh" && echo "$KAFKA_BOOTSTRAP_SERVERS")"
  fi
  K=(--bootstrap "$BOOTSTRAP")
  run_id="$(date +%s)-$$"
  ctl="interop-selftest-$run_id"

  expect_output "create-control-topic creates" "created" interop create-control-topic "${K[@]}" --topic "$ctl"
  expect_output "create-control-topic leaves an existing topic" "exists" interop create-control-topic "${K[@]}" --topic "$ctl"
  expect_output "empty control topic has no boundary" "boundary none" interop read-control "${K[@]}" --topic "$ctl"
  expect_output "write-committed appends at offset 0" "offset 0" \
    interop write-committed "${K[@]}" --topic "$ctl" --plan "$TMP/plan.json"
  expect_status "aborted tombstone is written" 0 \
    interop write-raw "${K[@]}" --topic "$ctl" --key "$SPEC_ID" --tombstone --transaction abort
  expect_output "read_committed skips the aborted tombstone" "$(printf '%s COMMITTED\nboundary 0=150,1=100,2=0' "$SPEC_ID")" \
    interop read-control "${K[@]}" --topic "$ctl"
  interop write-plan --source "$SOURCE-next" --topic "$TOPIC" --topic-id "$TOPIC_ID" --offsets 0=150,1=120,2=7 --out "$TMP/next.json" >"$TMP/next.id"
  expect_status "second plan committed" 0 interop write-committed "${K[@]}" --topic "$ctl" --plan "$TMP/next.json"
  expect_status "first plan applied" 0 interop write-committed "${K[@]}" --topic "$ctl" --plan "$TMP/plan.json" --status APPLIED
  expect_output "last status wins, first-appearance order, max boundary" \
    "$(printf '%s APPLIED\n%s COMMITTED\nboundary 0=150,1=120,2=7' "$SPEC_ID" "$(cat "$TMP/next.id")")" \
    interop read-control "${K[@]}" --topic "$ctl"
  expect_status "APPLIED back to COMMITTED written" 0 interop write-committed "${K[@]}" --topic "$ctl" --plan "$TMP/plan.json"
  expect_status "APPLIED back to COMMITTED is rejected" 1 interop read-control "${K[@]}" --topic "$ctl"

  interop create-control-topic "${K[@]}" --topic "$ctl-tomb" >/dev/null
  interop write-committed "${K[@]}" --topic "$ctl-tomb" --plan "$TMP/plan.json" >/dev/null
  interop write-raw "${K[@]}" --topic "$ctl-tomb" --key "$SPEC_ID" --tombstone >/dev/null
  expect_status "committed tombstone is rejected" 1 interop read-control "${K[@]}" --topic "$ctl-tomb"

  interop create-control-topic "${K[@]}" --topic "$ctl-key" >/dev/null
  interop write-raw "${K[@]}" --topic "$ctl-key" --key "not-the-plan-id" --value-file "$TMP/record.json" --transaction commit >/dev/null
  expect_status "key different from planId is rejected" 1 interop read-control "${K[@]}" --topic "$ctl-key"
  expect_status "missing topic is an error" 1 interop read-control "${K[@]}" --topic "$ctl-missing" --timeout-ms 10000
fi

echo "selftest: $passed passed, $failed failed"
((failed == 0))
