#!/usr/bin/env bash
# Kill one node of a running layout (cluster or single) to simulate a failure.
#
# Usage: scripts/kafka/kill-node.sh <workdir> <node-id> [KILL|TERM]
#   KILL (default): hard crash, no controlled shutdown.
#   TERM: controlled shutdown (waits up to KAFKA_STOP_TIMEOUT, then KILL).
# Updates KAFKA_NODE_<id>_PID / KAFKA_PIDS in <workdir>/env.sh (dead node -> empty).
set -euo pipefail

if [[ $# -lt 2 || $# -gt 3 ]]; then
  echo "usage: $0 <workdir> <node-id> [KILL|TERM]" >&2
  exit 2
fi
# The version and mode the workdir was started with, not this shell's defaults.
if [[ -f "$1/env.sh" ]]; then
  eval "$(grep -E '^export KAFKA_(VERSION|METADATA_MODE|ZOOKEEPER_CONNECT)=' "$1/env.sh")"
fi
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[[ -d "$1" ]] || kafka_die "workdir $1 does not exist"
WD="$(cd "$1" && pwd -P)"
ID="$2"
SIG="${3:-KILL}"
[[ -f "$WD/node-$ID/server.properties" ]] || kafka_die "no node $ID in $WD"
PID="$(kafka_node_pid "$WD" "$ID")"
kafka_pid_alive "$PID" "$WD" || kafka_die "node $ID in $WD is not running"

case "$SIG" in
  KILL)
    kill -KILL "$PID"
    for ((i = 0; i < 100; i++)); do kafka_pid_alive "$PID" "$WD" || break; sleep 0.1; done
    kafka_pid_alive "$PID" "$WD" && kafka_die "pid $PID survived SIGKILL"
    ;;
  TERM) kafka_stop_pid "$PID" "$WD" "${KAFKA_STOP_TIMEOUT:-30}" || kafka_die "could not stop pid $PID" ;;
  *) kafka_die "signal must be KILL or TERM (got '$SIG')" ;;
esac
rm -f "$WD/node-$ID/kafka.pid"
kafka_update_env_pids "$WD"
kafka_log "node $ID (pid $PID) killed with SIG$SIG"
