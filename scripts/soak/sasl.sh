#!/usr/bin/env bash
# Gives every node of a running scripts/kafka cluster a second listener,
# SASL (SASL_PLAINTEXT, mechanism PLAIN), beside its PLAINTEXT one, so the
# soak's provider authenticates with a password that must never reach a log.
# The cluster, just started and holding nothing yet, is killed, each node's
# server.properties gains the listener, and the nodes start again together
# with their data (restart-node.sh).
#
# Usage: scripts/soak/sasl.sh <kafka workdir> <user> <password file>
# Prints the SASL bootstrap list (127.0.0.1:p1,...) on stdout.
set -euo pipefail

if [[ $# -ne 3 ]]; then
  echo "usage: $0 <kafka workdir> <user> <password file>" >&2
  exit 2
fi
KAFKA_SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")/../kafka" && pwd)"
# shellcheck source=../kafka/lib.sh
source "$KAFKA_SCRIPTS/lib.sh"
WD="$(cd "$1" && pwd -P)"
USER_NAME="$2"
PASSWORD="$(cat "$3")"
[[ "$USER_NAME" =~ ^[A-Za-z0-9._-]+$ ]] || kafka_die "user name must be [A-Za-z0-9._-]+"
[[ "$PASSWORD" =~ ^[A-Za-z0-9._-]+$ ]] || kafka_die "password must be [A-Za-z0-9._-]+ (it is written into a JAAS line)"

ids=($(kafka_node_ids "$WD"))
ports=($(kafka_pick_ports "${#ids[@]}"))
for id in "${ids[@]}"; do "$KAFKA_SCRIPTS/kill-node.sh" "$WD" "$id" KILL >&2; done
bootstrap=()
for i in "${!ids[@]}"; do
  props="$WD/node-${ids[$i]}/server.properties"
  port="${ports[$i]}"
  # Append to the listener lines (PLAINTEXT stays first: the kafka scripts
  # read its port from advertised.listeners) and add the PLAIN user; the
  # JAAS line is a password-type config, which Kafka logs as [hidden].
  sed -i -e "s|^\(listeners=.*\)$|\1,SASL://127.0.0.1:$port|" \
    -e "s|^\(advertised.listeners=.*\)$|\1,SASL://127.0.0.1:$port|" \
    -e "s|^\(listener.security.protocol.map=.*\)$|\1,SASL:SASL_PLAINTEXT|" "$props"
  cat >>"$props" <<PROPS
# --- added by scripts/soak/sasl.sh
sasl.enabled.mechanisms=PLAIN
listener.name.sasl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$USER_NAME="$PASSWORD";
PROPS
  bootstrap+=("127.0.0.1:$port")
done
pids=()
for id in "${ids[@]}"; do
  "$KAFKA_SCRIPTS/restart-node.sh" "$WD" "$id" >&2 &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || kafka_die "a node did not come back with its SASL listener"; done
kafka_update_env_pids "$WD" # the parallel restarts each rewrote env.sh
(IFS=,; echo "${bootstrap[*]}")
