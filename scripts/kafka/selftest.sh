#!/usr/bin/env bash
# Self-check for scripts/kafka: real Kafka, driven only by Kafka's own Java tool classes.
#
#   single : start-single.sh; per listener (PLAINTEXT, SASL_SSL PLAIN/SCRAM-256/SCRAM-512,
#            mTLS) create a topic, produce + consume one record; wrong SASL passwords and
#            a missing client cert are rejected; ACLs: the limited user is denied, then
#            allowed after AclCommand grants; a transactional copy works; stop.sh.
#   cluster: start-cluster.sh; RF-3 topic; produce acks=all; kill the partition leader;
#            produce acks=all + a transaction again; consume; restart-node.sh until the
#            node is back in the ISR; stop.sh.
#
# Usage: scripts/kafka/selftest.sh [single|cluster|all]   (default all)
# Env:   KAFKA_SELFTEST_WORKDIR (default: a new mktemp -d, removed on success)
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
HERE="$KAFKA_SCRIPTS_DIR"
WHAT="${1:-all}"
case "$WHAT" in single | cluster | all) ;; *) echo "usage: $0 [single|cluster|all]" >&2; exit 2 ;; esac

kafka_require_tools timeout
kafka_check_version
WANT_VERSION="$KAFKA_VERSION" WANT_MODE="$KAFKA_METADATA_MODE"
ROOT="${KAFKA_SELFTEST_WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/kafka-selftest.XXXXXX")}"
mkdir -p "$ROOT"
PASS=0
FAIL=0
TIMINGS=()
ACTIVE=()

finish() {
  local rc=$? wd
  for wd in "${ACTIVE[@]-}"; do
    [[ -n "$wd" ]] && "$HERE/stop.sh" "$wd" >/dev/null 2>&1 || true
  done
  echo
  echo "== selftest timings"
  printf '   %s\n' "${TIMINGS[@]-}"
  if ((rc == 0 && FAIL == 0)) && [[ -z "${KAFKA_SELFTEST_WORKDIR:-}" ]]; then
    rm -rf "$ROOT"
  else
    echo "   workdirs kept for debugging: $ROOT"
  fi
  echo "selftest: $PASS passed, $FAIL failed"
  ((rc == 0 && FAIL == 0)) || exit 1
}
trap finish EXIT
trap 'exit 130' INT TERM

ok() { PASS=$((PASS + 1)); echo "  PASS $*"; }
bad() { FAIL=$((FAIL + 1)); echo "  FAIL $*"; }
section() { echo; echo "== $*"; }

LAST_OUT=""
# run <description> <cmd...>: expect success.
run_ok() {
  local d="$1"; shift
  if LAST_OUT="$("$@" 2>&1)"; then ok "$d"; return 0; fi
  bad "$d"; tail -n 15 <<<"$LAST_OUT" | sed 's/^/       | /'; return 1
}
# run_fail <description> <grep-regex> <cmd...>: expect failure whose output matches regex.
run_fail() {
  local d="$1" re="$2"; shift 2
  if LAST_OUT="$("$@" 2>&1)"; then
    bad "$d (unexpectedly succeeded)"; return 1
  fi
  if grep -qiE "$re" <<<"$LAST_OUT"; then ok "$d"; return 0; fi
  bad "$d (failed, but output does not match /$re/)"; tail -n 15 <<<"$LAST_OUT" | sed 's/^/       | /'; return 1
}

# Tool classes and the console tools' option names differ by version
# (3.x: --producer.config/--producer-property/--consumer.config).
kafka_fetch
CLS_TOPICS="$(kafka_class TopicCommand)" CLS_ACLS="$(kafka_class AclCommand)"
CLS_PRODUCER="$(kafka_class ConsoleProducer)" CLS_CONSUMER="$(kafka_class ConsoleConsumer)"
CLS_TXN_COPIER="$(kafka_class TransactionalMessageCopier)"
if kafka_version_at_least 4 0; then
  PRODUCER_CONFIG=--command-config PRODUCER_PROPERTY=--command-property CONSUMER_CONFIG=--command-config
else
  PRODUCER_CONFIG=--producer.config PRODUCER_PROPERTY=--producer-property CONSUMER_CONFIG=--consumer.config
fi
topics() { kafka_run_class "$CLS_TOPICS" "$@"; }
acls() { kafka_run_class "$CLS_ACLS" "$@"; }
# produce <bootstrap> <config-file> <topic> <value> [extra producer props...]
produce() {
  local bs="$1" cfg="$2" topic="$3" value="$4"; shift 4
  local extra=() p
  for p in acks=all delivery.timeout.ms=30000 request.timeout.ms=15000 max.block.ms=20000 "$@"; do
    extra+=("$PRODUCER_PROPERTY" "$p")
  done
  printf '%s\n' "$value" | kafka_run_class "$CLS_PRODUCER" \
    --bootstrap-server "$bs" "$PRODUCER_CONFIG" "$cfg" --topic "$topic" --sync "${extra[@]}"
}
# consume <bootstrap> <config-file> <topic> <n> [extra args...] -> values on stdout
consume() {
  local bs="$1" cfg="$2" topic="$3" n="$4"; shift 4
  kafka_run_class "$CLS_CONSUMER" \
    --bootstrap-server "$bs" "$CONSUMER_CONFIG" "$cfg" --topic "$topic" \
    --from-beginning --max-messages "$n" --timeout-ms 30000 "$@"
}
# expect_consume <desc> <expected-values-newline-separated> <consume args...>
expect_consume() {
  local d="$1" want="$2"; shift 2
  local got
  got="$(consume "$@" 2>"$ROOT/consume.err")" || true
  if [[ "$(sort <<<"$got")" == "$(sort <<<"$want")" ]]; then
    ok "$d"
  else
    bad "$d: want [$(tr '\n' ' ' <<<"$want")] got [$(tr '\n' ' ' <<<"$got")]"
    tail -n 10 "$ROOT/consume.err" | sed 's/^/       | /'
  fi
}
timed() { # timed <label> <cmd...>
  local label="$1" t0 rc=0; shift
  t0="$(kafka_now)"
  "$@" || rc=$?
  TIMINGS+=("$label: $(kafka_elapsed "$t0")s")
  return "$rc"
}

# ============================================================================ single
selftest_single() {
  local WD="$ROOT/single"
  section "single node ($WD)"
  ACTIVE+=("$WD")
  set +e # count failures, keep going
  timed "start-single.sh (fetch+certs+format+start+ready)" "$HERE/start-single.sh" "$WD" || { bad "start-single.sh"; return 0; }
  ok "start-single.sh"
  # shellcheck disable=SC1091
  source "$WD/env.sh"
  local C="$KAFKA_CLIENT_CONFIG_DIR" t0
  t0="$(kafka_now)"

  [[ "$KAFKA_VERSION" == "${WANT_VERSION:?}" && "$KAFKA_METADATA_MODE" == "${WANT_MODE:?}" ]] &&
    ok "KAFKA_VERSION=$KAFKA_VERSION KAFKA_METADATA_MODE=$KAFKA_METADATA_MODE" ||
    bad "KAFKA_VERSION=$KAFKA_VERSION KAFKA_METADATA_MODE=$KAFKA_METADATA_MODE (want $WANT_VERSION $WANT_MODE)"
  for f in "$KAFKA_CA_PEM" "$KAFKA_CLIENT_CERT_PEM" "$KAFKA_CLIENT_KEY_PEM"; do
    [[ -s "$f" ]] || bad "missing $f"
  done
  if grep -q "BEGIN PRIVATE KEY" "$KAFKA_CLIENT_KEY_PEM" &&
    openssl verify -CAfile "$KAFKA_CA_PEM" "$KAFKA_CLIENT_CERT_PEM" >/dev/null &&
    openssl x509 -in "$WD/certs/broker.pem" -noout -text | grep "IP Address:127.0.0.1" >/dev/null; then
    ok "PEM files: unencrypted PKCS#8 key, client cert signed by CA, broker SAN has IP:127.0.0.1"
  else
    bad "PEM files"
  fi

  local name bs cfg
  for name in plaintext sasl-plain sasl-scram-256 sasl-scram-512 ssl; do
    case "$name" in
      plaintext) bs="$KAFKA_BOOTSTRAP_SERVERS" ;;
      ssl) bs="$KAFKA_BOOTSTRAP_SSL" ;;
      *) bs="$KAFKA_BOOTSTRAP_SASL_SSL" ;;
    esac
    cfg="$C/$name.properties"
    run_ok "[$name] create topic st-$name via $bs" \
      topics --bootstrap-server "$bs" --command-config "$cfg" --create --topic "st-$name" --partitions 1 --replication-factor 1 &&
      run_ok "[$name] produce one record" produce "$bs" "$cfg" "st-$name" "hello-$name" &&
      expect_consume "[$name] consume it back" "hello-$name" "$bs" "$cfg" "st-$name" 1
  done

  # --- negative authentication
  sed 's/password="[^"]*"/password="wrong-password"/' "$C/sasl-plain.properties" >"$WD/bad-plain.properties"
  sed 's/password="[^"]*"/password="wrong-password"/' "$C/sasl-scram-512.properties" >"$WD/bad-scram.properties"
  grep -v '^ssl.key' "$C/ssl.properties" | grep -v '^ssl.keystore' >"$WD/ssl-nocert.properties"
  run_fail "[sasl-plain] wrong password is rejected" "authentication failed|SaslAuthenticationException" \
    topics --bootstrap-server "$KAFKA_BOOTSTRAP_SASL_SSL" --command-config "$WD/bad-plain.properties" --list
  run_fail "[sasl-scram-512] wrong password is rejected" "authentication failed|SaslAuthenticationException" \
    topics --bootstrap-server "$KAFKA_BOOTSTRAP_SASL_SSL" --command-config "$WD/bad-scram.properties" --list
  run_fail "[ssl] client without certificate is rejected (mTLS required)" "SSL handshake failed|SslAuthenticationException" \
    topics --bootstrap-server "$KAFKA_BOOTSTRAP_SSL" --command-config "$WD/ssl-nocert.properties" --list

  # --- ACLs: limited user (SCRAM-SHA-512) has no ACLs until granted
  local L="$C/limited-scram-512.properties"
  run_ok "[acl] admin creates st-acl" topics --bootstrap-server "$KAFKA_BOOTSTRAP_SERVERS" --create --topic st-acl --partitions 1 --replication-factor 1
  run_fail "[acl] limited user cannot produce without ACLs" "TopicAuthorizationException|Not authorized|authoriz" \
    produce "$KAFKA_BOOTSTRAP_SASL_SSL" "$L" st-acl "denied"
  run_ok "[acl] admin (SCRAM, SASL_SSL) grants Write/Describe/Read on topic st-acl" \
    acls --bootstrap-server "$KAFKA_BOOTSTRAP_SASL_SSL" --command-config "$C/sasl-scram-512.properties" --add \
    --allow-principal "User:$KAFKA_LIMITED_USER" --operation Write --operation Describe --operation Read --topic st-acl
  run_ok "[acl] admin (mTLS) grants Read on group st-limited" \
    acls --bootstrap-server "$KAFKA_BOOTSTRAP_SSL" --command-config "$C/ssl.properties" --add \
    --allow-principal "User:$KAFKA_LIMITED_USER" --operation Read --group st-limited
  run_ok "[acl] limited user can produce after grant" produce "$KAFKA_BOOTSTRAP_SASL_SSL" "$L" st-acl "allowed"
  expect_consume "[acl] limited user can consume with group st-limited" "allowed" \
    "$KAFKA_BOOTSTRAP_SASL_SSL" "$L" st-acl 1 --group st-limited

  # --- transactions on a single node
  run_ok "[txn] create st-txn-out" topics --bootstrap-server "$KAFKA_BOOTSTRAP_SERVERS" --create --topic st-txn-out --partitions 1 --replication-factor 1
  run_ok "[txn] transactional copy st-plaintext -> st-txn-out" \
    kafka_run_class "$CLS_TXN_COPIER" --broker-list "$KAFKA_BOOTSTRAP_SERVERS" \
    --input-topic st-plaintext --input-partition 0 --output-topic st-txn-out --transactional-id st-txn-1 \
    --consumer-group st-txn-group --transaction-timeout 30000
  expect_consume "[txn] read_committed consumer sees the committed record" "hello-plaintext" \
    "$KAFKA_BOOTSTRAP_SERVERS" "$C/plaintext.properties" st-txn-out 1 --isolation-level read_committed

  TIMINGS+=("single checks (JVM per tool call): $(kafka_elapsed "$t0")s")
  timed "stop.sh (single)" "$HERE/stop.sh" "$WD"
  if kafka_pid_alive "$KAFKA_PID" "$WD"; then bad "broker still running after stop.sh"; else ok "stop.sh stopped the broker"; fi
}

# ============================================================================ cluster
isr_count() { # isr_count <bootstrap> <topic>
  topics --bootstrap-server "$1" --describe --topic "$2" 2>/dev/null |
    sed -n 's/.*Isr: \([0-9,]*\).*/\1/p' | sed -n 1p | tr ',' '\n' | grep -c . || true
}
selftest_cluster() {
  local WD="$ROOT/cluster"
  section "three-node cluster ($WD)"
  ACTIVE+=("$WD")
  set +e # count failures, keep going
  timed "start-cluster.sh (3 nodes, format+start+ready)" "$HERE/start-cluster.sh" "$WD" || { bad "start-cluster.sh"; return 0; }
  ok "start-cluster.sh"
  # shellcheck disable=SC1091
  source "$WD/env.sh"
  local BS="$KAFKA_BOOTSTRAP_SERVERS" P="$ROOT/plaintext.properties" t0 desc leader
  printf 'security.protocol=PLAINTEXT\n' >"$P"
  t0="$(kafka_now)"
  [[ "$(tr ',' '\n' <<<"$BS" | wc -l)" -eq 3 ]] && ok "KAFKA_BOOTSTRAP_SERVERS has 3 nodes: $BS" || bad "bootstrap: $BS"

  run_ok "create st-rf3 (RF 3, min.insync.replicas 2 from broker defaults)" \
    topics --bootstrap-server "$BS" --create --topic st-rf3 --partitions 1
  desc="$(topics --bootstrap-server "$BS" --describe --topic st-rf3 2>&1 || true)"
  if grep -q "ReplicationFactor: 3" <<<"$desc" && grep -q "min.insync.replicas=2" <<<"$desc"; then
    ok "st-rf3 has ReplicationFactor 3 and min.insync.replicas=2"
  else
    bad "st-rf3 describe: $desc"
  fi
  run_ok "produce 'before' with acks=all" produce "$BS" "$P" st-rf3 before
  leader="$(sed -n 's/.*Leader: \([0-9]*\).*/\1/p' <<<"$desc" | sed -n 1p)"
  [[ -n "$leader" ]] || leader=1
  local t1; t1="$(kafka_now)"
  run_ok "kill-node.sh: SIGKILL partition leader node $leader" "$HERE/kill-node.sh" "$WD" "$leader"
  # shellcheck disable=SC1091
  source "$WD/env.sh"
  local v="KAFKA_NODE_${leader}_PID"
  [[ -z "${!v}" ]] && ok "env.sh: $v is empty after kill" || bad "env.sh: $v=${!v} after kill"
  run_ok "produce 'after-kill' with acks=all on 2 of 3 nodes" produce "$BS" "$P" st-rf3 after-kill
  TIMINGS+=("kill leader -> acks=all produce succeeded: $(kafka_elapsed "$t1")s")
  run_ok "create st-txn-out on 2 of 3 nodes" topics --bootstrap-server "$BS" --create --topic st-txn-out --partitions 1
  run_ok "transactional copy st-rf3 -> st-txn-out on 2 of 3 nodes" \
    kafka_run_class "$CLS_TXN_COPIER" --broker-list "$BS" \
    --input-topic st-rf3 --input-partition 0 --output-topic st-txn-out --transactional-id st-txn-c \
    --consumer-group st-txn-group --transaction-timeout 30000
  expect_consume "consume both records" "before
after-kill" "$BS" "$P" st-rf3 2
  expect_consume "read_committed sees both copied records" "before
after-kill" "$BS" "$P" st-txn-out 2 --isolation-level read_committed

  if timed "restart-node.sh (node $leader)" "$HERE/restart-node.sh" "$WD" "$leader"; then ok "restart-node.sh $leader"; else bad "restart-node.sh $leader"; fi
  # shellcheck disable=SC1091
  source "$WD/env.sh"
  kafka_pid_alive "${!v}" "$WD" && ok "env.sh: $v=${!v} is alive after restart" || bad "env.sh: $v=${!v} after restart"
  local deadline=$(($(date +%s) + 90)) n=0
  while (($(date +%s) < deadline)); do
    n="$(isr_count "$BS" st-rf3)"
    ((n == 3)) && break
    sleep 2
  done
  ((n == 3)) && ok "restarted node rejoined the ISR of st-rf3 (ISR size 3)" || bad "ISR size $n after restart"
  run_ok "produce 'after-restart' with acks=all" produce "$BS" "$P" st-rf3 after-restart

  TIMINGS+=("cluster checks (JVM per tool call): $(kafka_elapsed "$t0")s")
  timed "stop.sh (cluster)" "$HERE/stop.sh" "$WD"
  local id alive=0
  for id in $KAFKA_NODE_IDS; do
    [[ -f "$WD/node-$id/kafka.pid" ]] && alive=1
  done
  for pid in $KAFKA_PIDS; do kafka_pid_alive "$pid" "$WD" && alive=1; done
  ((alive == 0)) && ok "stop.sh stopped all nodes" || bad "nodes still running after stop.sh"
}

T_ALL="$(kafka_now)"
case "$WHAT" in
  single) selftest_single ;;
  cluster) selftest_cluster ;;
  all) selftest_single; selftest_cluster ;;
esac
TIMINGS+=("selftest total: $(kafka_elapsed "$T_ALL")s")
