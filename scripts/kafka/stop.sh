#!/usr/bin/env bash
# Stop every Kafka node recorded in <workdir> (single or cluster layout),
# then its ZooKeeper if it has one:
# SIGTERM, wait (KAFKA_STOP_TIMEOUT, default 30s), then SIGKILL.
# Safe to run twice; exits 0 when nothing is running.
#
# Usage: scripts/kafka/stop.sh <workdir>
set -euo pipefail

if [[ $# -ne 1 || -z "$1" ]]; then
  echo "usage: $0 <workdir>" >&2
  exit 2
fi
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[[ -d "$1" ]] || { kafka_log "stop: $1 does not exist; nothing to stop"; exit 0; }
WD="$(cd "$1" && pwd -P)"
GRACE="${KAFKA_STOP_TIMEOUT:-30}"

ids=()
pids=()
for id in $(kafka_node_ids "$WD"); do
  pid="$(kafka_node_pid "$WD" "$id")"
  if kafka_pid_alive "$pid" "$WD"; then
    ids+=("$id")
    pids+=("$pid")
  fi
done

if ((${#pids[@]} == 0)); then
  kafka_log "stop: no running Kafka node in $WD"
else
  # TERM all nodes at once (a cluster shuts down faster when the quorum goes together).
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  failed=0
  for i in "${!pids[@]}"; do
    kafka_stop_pid "${pids[$i]}" "$WD" "$GRACE" || { kafka_log "stop: could not kill pid ${pids[$i]}"; failed=1; }
    kafka_log "stop: node ${ids[$i]} (pid ${pids[$i]}) stopped"
  done
  ((failed == 0)) || exit 1
fi
for id in $(kafka_node_ids "$WD"); do
  pid="$(kafka_node_pid "$WD" "$id")"
  kafka_pid_alive "$pid" "$WD" || rm -f "$WD/node-$id/kafka.pid"
done
# ZooKeeper mode: ZooKeeper last, once no broker needs it.
kafka_stop_zookeeper "$WD" "$GRACE" || { kafka_log "stop: could not stop ZooKeeper in $WD"; exit 1; }
