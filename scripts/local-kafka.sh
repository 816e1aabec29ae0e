#!/usr/bin/env bash
# A local Apache Kafka for trying the provider by hand (README, "Quick start"):
# one node on 127.0.0.1, started from Maven Central jars by scripts/kafka (no
# Docker). Needs Java 17+, Maven (first start only: it fetches about 45 MB of
# jars) and openssl.
#
#   scripts/local-kafka.sh start    starts it, or says where it already runs
#   scripts/local-kafka.sh stop     stops it; the next start begins empty
#
# start prints `export KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:<port>` on standard
# output (everything else goes to standard error), so
#
#   eval "$(scripts/local-kafka.sh start)"
#
# points the provider (and cmd/write-savepoint) at it. Use the PLAINTEXT
# address it prints: that listener needs no TLS or credentials. The broker
# keeps running after the shell exits; its files are in
# FLINKAGENTS_LOCAL_KAFKA_DIR (default ~/.cache/flinkagents-local-kafka).
# KAFKA_VERSION picks another release, as for scripts/kafka.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${FLINKAGENTS_LOCAL_KAFKA_DIR:-$HOME/.cache/flinkagents-local-kafka}

running() {
  [[ -f "$dir/env.sh" ]] || return 1
  # shellcheck source=/dev/null
  source "$dir/env.sh"
  # shellcheck source=kafka/lib.sh
  source "$root/scripts/kafka/lib.sh"
  kafka_pid_alive "${KAFKA_PID:-}" "$(cd "$dir" && pwd -P)"
}

announce() {
  echo "Kafka $KAFKA_VERSION runs on $KAFKA_BOOTSTRAP_SERVERS (PLAINTEXT); stop it with: scripts/local-kafka.sh stop" >&2
  echo "export KAFKA_BOOTSTRAP_SERVERS=$KAFKA_BOOTSTRAP_SERVERS"
}

case "${1:-}" in
start)
  if running; then
    announce
    exit 0
  fi
  "$root/scripts/require-tools.sh" java mvn openssl
  mkdir -p "$dir"
  echo "starting Kafka in $dir (the first start downloads its jars with Maven) ..." >&2
  if ! "$root/scripts/kafka/start-single.sh" "$dir" >"$dir/start.log" 2>&1; then
    cat "$dir/start.log" >&2
    echo "local-kafka: Kafka did not start; the log above says why" >&2
    exit 1
  fi
  # shellcheck source=/dev/null
  source "$dir/env.sh"
  announce
  ;;
stop)
  "$root/scripts/kafka/stop.sh" "$dir" 2>&1 | sed 's/^kafka-scripts: /local-kafka: /' >&2
  ;;
*)
  echo "usage: $0 start|stop" >&2
  exit 2
  ;;
esac
