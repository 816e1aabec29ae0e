#!/usr/bin/env bash
# (Re)start one node of a layout with its existing data and config, wait until it
# answers on its PLAINTEXT port and is registered in the cluster metadata.
# If the node is still running it is stopped first (SIGTERM).
#
# Usage: scripts/kafka/restart-node.sh <workdir> <node-id>
# Updates KAFKA_NODE_<id>_PID / KAFKA_PIDS in <workdir>/env.sh.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <workdir> <node-id>" >&2
  exit 2
fi
# The version and mode the workdir was started with, not this shell's defaults.
if [[ -f "$1/env.sh" ]]; then
  eval "$(grep -E '^export KAFKA_(VERSION|METADATA_MODE|ZOOKEEPER_CONNECT)=' "$1/env.sh")"
fi
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
kafka_require_tools timeout
kafka_check_java

[[ -d "$1" ]] || kafka_die "workdir $1 does not exist"
WD="$(cd "$1" && pwd -P)"
ID="$2"
ND="$WD/node-$ID"
[[ -f "$ND/server.properties" ]] || kafka_die "no node $ID in $WD"
[[ -d "$KAFKA_LIBS_DIR" ]] || kafka_die "Kafka jars missing in $KAFKA_LIBS_DIR (KAFKA_VERSION/KAFKA_CACHE_DIR differ from start?)"

PID="$(kafka_node_pid "$WD" "$ID")"
if kafka_pid_alive "$PID" "$WD"; then
  kafka_log "node $ID (pid $PID) is running; stopping it first"
  kafka_stop_pid "$PID" "$WD" "${KAFKA_STOP_TIMEOUT:-30}" || kafka_die "could not stop pid $PID"
fi
rm -f "$ND/kafka.pid"

PORT="$(kafka_node_port "$WD" "$ID")"
[[ -n "$PORT" ]] || kafka_die "cannot find PLAINTEXT port of node $ID"
kafka_port_open "$PORT" && kafka_die "port $PORT of node $ID is taken by another process"

cleanup() {
  local rc=$?
  if ((rc != 0)); then
    kafka_log "restart of node $ID FAILED (exit $rc)"
    kafka_dump_logs "$ND" 60
    local pid; pid="$(kafka_node_pid "$WD" "$ID")"
    if [[ -n "$pid" ]]; then kafka_stop_pid "$pid" "$WD" 10 || true; fi
    rm -f "$ND/kafka.pid"
    kafka_update_env_pids "$WD" || true
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

T0="$(kafka_now)"
echo "----- restart $(date -u +%Y-%m-%dT%H:%M:%SZ) -----" >>"$ND/logs/stdout.log"
DEADLINE=$(($(date +%s) + KAFKA_START_TIMEOUT))
if [[ "$KAFKA_METADATA_MODE" == zookeeper ]]; then
  kafka_zookeeper_wait_unregistered "$ID" "$DEADLINE" || kafka_die "node $ID's old ZooKeeper session did not expire"
fi
kafka_start_node_jvm "$ND"
kafka_wait_port "$WD" "$ID" "$PORT" "$DEADLINE" || kafka_die "node $ID did not open port $PORT"
# Registered + unfenced: it shows up in the metadata that it serves itself.
while :; do
  out="$(KAFKA_TOOL_TIMEOUT=60 kafka_run_class "$(kafka_class BrokerApiVersionsCommand)" --bootstrap-server "127.0.0.1:$PORT" 2>&1)" || true
  grep -qE "\(id: $ID rack" <<<"$out" && break
  (($(date +%s) < DEADLINE)) || kafka_die "node $ID not registered after ${KAFKA_START_TIMEOUT}s: $(tail -n 3 <<<"$out")"
  sleep 1
done
kafka_update_env_pids "$WD"
kafka_log "node $ID restarted (pid $(kafka_node_pid "$WD" "$ID")) in $(kafka_elapsed "$T0")s"
