# shellcheck shell=bash
# Shared helpers for scripts/kafka/*.sh. Sourced, not executed.
#
# Layout of a workdir (both single and cluster):
#   <workdir>/env.sh                 exports for tests (see README.md)
#   <workdir>/layout                 "single" or "cluster"
#   <workdir>/certs/                 CA, broker and client certs/keys (single only)
#   <workdir>/oauth/                 JWT signing key and the JWKS the broker checks (single only)
#   <workdir>/client/*.properties    ready-made Java client configs (single only)
#   <workdir>/node-<id>/server.properties
#   <workdir>/node-<id>/kafka.pid    PID of the running JVM (absent when stopped/killed)
#   <workdir>/node-<id>/data/        KRaft metadata + log segments
#   <workdir>/node-<id>/logs/        server.log, kafka-authorizer.log, stdout.log (JVM stdout/stderr)
#   <workdir>/zookeeper/             ZooKeeper mode only: zoo.cfg, zk.pid, data/, logs/

KAFKA_VERSION="${KAFKA_VERSION:-4.4.0}"
# kraft (default) or zookeeper (Kafka 3.x only: 4.0 removed ZooKeeper mode).
KAFKA_METADATA_MODE="${KAFKA_METADATA_MODE:-kraft}"
KAFKA_SCRIPTS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
KAFKA_CACHE_DIR="${KAFKA_CACHE_DIR:-${HOME:?HOME is not set}/.cache/flinkagents-kafka/$KAFKA_VERSION}"
KAFKA_LIBS_DIR="$KAFKA_CACHE_DIR/libs"
KAFKA_CLASSPATH="$KAFKA_LIBS_DIR/*"

# Broker JVM: small heap, cheap GC, C1 only (fast startup, light on a shared 2-core box).
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms128m -Xmx512m}"
KAFKA_JVM_OPTS="${KAFKA_JVM_OPTS:--XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true}"
# Tool JVMs (console producer, topics, acls, ...).
KAFKA_TOOL_JVM_OPTS="${KAFKA_TOOL_JVM_OPTS:--Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-120}"
KAFKA_TOOL_TIMEOUT="${KAFKA_TOOL_TIMEOUT:-120}"

kafka_log() { printf 'kafka-scripts: %s\n' "$*" >&2; }
kafka_die() { printf 'kafka-scripts: ERROR: %s\n' "$*" >&2; exit 1; }

# Seconds since epoch with millis, for timings.
kafka_now() { date +%s.%N | cut -c1-14; }
kafka_elapsed() { awk -v a="$1" -v b="$(kafka_now)" 'BEGIN{printf "%.1f", b-a}'; }

kafka_require_tools() {
  local t missing=()
  for t in "$@"; do command -v "$t" >/dev/null 2>&1 || missing+=("$t"); done
  if ((${#missing[@]})); then
    kafka_die "required tool(s) not found on PATH: ${missing[*]} (need Java 17+ JDK with keytool, openssl, Maven for the first download)"
  fi
}

kafka_check_java() {
  kafka_require_tools java
  local v major
  v="$(java -version 2>&1 | awk -F'"' '/version/ {print $2; exit}')"
  major="${v%%.*}"
  [[ "$major" =~ ^[0-9]+$ ]] || kafka_die "cannot determine Java version from 'java -version' (got '$v')"
  ((major >= 17)) || kafka_die "Kafka $KAFKA_VERSION needs Java 17+, found Java $v"
}

# kafka_version_at_least MAJOR MINOR: is KAFKA_VERSION MAJOR.MINOR or newer?
kafka_version_at_least() {
  local major minor
  IFS=. read -r major minor _ <<<"$KAFKA_VERSION"
  ((major > $1 || (major == $1 && minor >= $2)))
}

# Refuse, before anything is fetched or started, a version or mode these
# scripts cannot run, saying which one would.
kafka_check_version() {
  [[ "$KAFKA_VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
    kafka_die "KAFKA_VERSION must be a release like 3.9.1 or 4.4.0 (got '$KAFKA_VERSION')"
  kafka_version_at_least 3 6 ||
    kafka_die "Kafka $KAFKA_VERSION is older than these scripts support: use 3.6 or newer (the oldest release tested; SCRAM users at KRaft format time need 3.5)"
  case "$KAFKA_METADATA_MODE" in
    kraft) ;;
    zookeeper)
      if kafka_version_at_least 4 0; then
        kafka_die "Kafka $KAFKA_VERSION has no ZooKeeper mode (removed in 4.0): use KAFKA_METADATA_MODE=kraft, or a 3.x KAFKA_VERSION for ZooKeeper"
      fi
      ;;
    *) kafka_die "KAFKA_METADATA_MODE must be kraft or zookeeper (got '$KAFKA_METADATA_MODE')" ;;
  esac
}

# kafka_class NAME: the full name of Kafka tool class NAME in the fetched jars.
# The tools moved from kafka.admin and kafka.tools (Scala) to
# org.apache.kafka.tools over 3.x, one by one, so the jars are asked rather
# than a table kept. A zip keeps entry names uncompressed, hence grep; the
# lookbehind keeps kafka/tools/X from matching org/apache/kafka/tools/X.
kafka_class() {
  local name="$1" pkg
  for pkg in org.apache.kafka.tools org.apache.kafka.tools.consumer org.apache.kafka.tools.reassign kafka.admin kafka.tools; do
    if grep -qaP "(?<![a-z]/)${pkg//.//}/$name\.class" "$KAFKA_LIBS_DIR"/kafka_2.13-*.jar "$KAFKA_LIBS_DIR"/kafka-tools-*.jar 2>/dev/null; then
      printf '%s.%s\n' "$pkg" "$name"
      return 0
    fi
  done
  kafka_die "Kafka $KAFKA_VERSION's jars in $KAFKA_LIBS_DIR have no tool class $name"
}

# Download (once) all jars into $KAFKA_LIBS_DIR via Maven. Reused while the pom is unchanged.
kafka_fetch() {
  local stamp want tmp rc
  want="$KAFKA_VERSION $(cksum <"$KAFKA_SCRIPTS_DIR/pom.xml" | awk '{print $1}')"
  stamp="$KAFKA_LIBS_DIR/.complete"
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    return 0
  fi
  kafka_require_tools mvn
  mkdir -p "$KAFKA_CACHE_DIR"
  # Serialise concurrent first runs.
  exec 9>"$KAFKA_CACHE_DIR/.lock"
  if command -v flock >/dev/null 2>&1; then flock 9; fi
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    exec 9>&-
    return 0
  fi
  local t0; t0="$(kafka_now)"
  kafka_log "downloading Apache Kafka $KAFKA_VERSION jars with Maven into $KAFKA_LIBS_DIR ..."
  tmp="$KAFKA_CACHE_DIR/libs.tmp.$$"
  rm -rf "$tmp"
  rc=0
  # Switches for pom.xml's version-dependent profiles.
  local profiles=()
  kafka_version_at_least 3 7 || profiles+=(-Dkafka.without.server)
  kafka_version_at_least 4 0 || profiles+=(-Dkafka.log4j1.bridge)
  # shellcheck disable=SC2086
  mvn -B -q -f "$KAFKA_SCRIPTS_DIR/pom.xml" ${KAFKA_MAVEN_ARGS:-} \
    -Dkafka.version="$KAFKA_VERSION" ${profiles[@]+"${profiles[@]}"} \
    dependency:copy-dependencies -DincludeScope=runtime -DoutputDirectory="$tmp" \
    >"$KAFKA_CACHE_DIR/mvn.log" 2>&1 || rc=$?
  if ((rc != 0)) || [[ ! -f "$tmp/kafka_2.13-$KAFKA_VERSION.jar" ]]; then
    tail -n 40 "$KAFKA_CACHE_DIR/mvn.log" >&2 || true
    rm -rf "$tmp"
    exec 9>&-
    kafka_die "Maven could not fetch org.apache.kafka:kafka_2.13:$KAFKA_VERSION (full log: $KAFKA_CACHE_DIR/mvn.log)"
  fi
  rm -rf "$KAFKA_LIBS_DIR"
  mv "$tmp" "$KAFKA_LIBS_DIR"
  printf '%s\n' "$want" >"$stamp"
  exec 9>&-
  kafka_log "downloaded $(ls "$KAFKA_LIBS_DIR" | wc -l) jars in $(kafka_elapsed "$t0")s"
}

# Run a Kafka main class (tools) on the cached classpath, bounded by KAFKA_TOOL_TIMEOUT seconds.
kafka_run_class() {
  local cls="$1"; shift
  # shellcheck disable=SC2086
  timeout "$KAFKA_TOOL_TIMEOUT" java $KAFKA_TOOL_JVM_OPTS -Dlog4j2.configurationFile="$KAFKA_SCRIPTS_DIR/log4j2-tools.properties" \
    -cp "$KAFKA_CLASSPATH" "$cls" "$@"
}

# Ports currently bound on this host (any state), from /proc/net/tcp{,6}.
_kafka_used_ports() {
  local f sl local_addr rest
  for f in /proc/net/tcp /proc/net/tcp6; do
    [[ -r "$f" ]] || continue
    while read -r sl local_addr rest; do
      [[ "$sl" == sl ]] && continue
      printf '%d\n' "0x${local_addr##*:}"
    done <"$f"
  done
}

# kafka_pick_ports N -> prints N distinct free TCP ports (20000-32767, below Linux's ephemeral range).
kafka_pick_ports() {
  local n="$1" used picked=() p tries=0
  used=" $(_kafka_used_ports | sort -un | tr '\n' ' ') "
  while ((${#picked[@]} < n)); do
    ((tries++ < 1000)) || kafka_die "could not find $n free ports"
    p=$((20000 + (RANDOM * 32768 + RANDOM) % 12768))
    [[ "$used" == *" $p "* ]] && continue
    [[ " ${picked[*]-} " == *" $p "* ]] && continue
    # Someone listening on it right now?
    if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then continue; fi
    picked+=("$p")
  done
  printf '%s\n' "${picked[@]}"
}

kafka_port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Is $1 a live PID of a java process started for workdir $2?
kafka_pid_alive() {
  local pid="$1" wd="$2"
  [[ -n "$pid" && "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  [[ -r "/proc/$pid/cmdline" ]] || return 0 # no procfs: trust kill -0
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -F -- "$wd/" >/dev/null || return 1
}

# kafka_jmx_opts <port>: JVM options, one per line, for JMX on 127.0.0.1 at
# port with no authentication (the benchmarks' request counters).
kafka_jmx_opts() {
  printf '%s\n' -Djava.rmi.server.hostname=127.0.0.1 -Dcom.sun.management.jmxremote.host=127.0.0.1 \
    "-Dcom.sun.management.jmxremote.port=$1" "-Dcom.sun.management.jmxremote.rmi.port=$1" \
    -Dcom.sun.management.jmxremote.authenticate=false -Dcom.sun.management.jmxremote.ssl=false
}

kafka_node_pid() { [[ -f "$1/node-$2/kafka.pid" ]] && cat "$1/node-$2/kafka.pid" || true; }

kafka_node_ids() {
  local d
  for d in "$1"/node-*; do [[ -d "$d" ]] && printf '%s\n' "${d##*/node-}"; done | sort -n
}

# Start the JVM for node dir $1 in the background, record PID. Options the
# node itself needs (system properties its config depends on) live in
# <node dir>/jvm.options, one per line, so restart-node.sh passes them too.
kafka_start_node_jvm() {
  local nd="$1" node_opts=()
  mkdir -p "$nd/logs"
  [[ -f "$nd/jvm.options" ]] && mapfile -t node_opts <"$nd/jvm.options"
  # shellcheck disable=SC2086
  nohup java $KAFKA_HEAP_OPTS $KAFKA_JVM_OPTS ${node_opts[@]+"${node_opts[@]}"} \
    -Dkafka.logs.dir="$nd/logs" \
    -Dlog4j2.configurationFile="$KAFKA_SCRIPTS_DIR/log4j2-broker.properties" \
    -cp "$KAFKA_CLASSPATH" kafka.Kafka "$nd/server.properties" \
    >>"$nd/logs/stdout.log" 2>&1 </dev/null &
  local pid=$!
  echo "$pid" >"$nd/kafka.pid"
  kafka_wait_exec "$pid" "$nd/"
}

# Until the background child has exec'd java, /proc/<pid>/cmdline is still the
# calling script's, which names the workdir without its trailing slash, so
# kafka_pid_alive would call a starting node dead (seen on a loaded 2-core
# machine as "exited during startup"). Wait until the command line names $2 or
# the process is gone, at most 10 s. Args: pid path-in-cmdline.
kafka_wait_exec() {
  local pid="$1" want="$2" i
  [[ -r "/proc/$pid/cmdline" ]] || return 0
  for ((i = 0; i < 100; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -F -- "$want" >/dev/null && return 0
    sleep 0.1
  done
}

# Print the tail of a node's logs to stderr.
kafka_dump_logs() {
  local nd="$1" n="${2:-60}" f
  for f in "$nd/logs/server.log" "$nd/logs/stdout.log"; do
    [[ -s "$f" ]] || continue
    printf '\n----- last %s lines of %s -----\n' "$n" "$f" >&2
    tail -n "$n" "$f" >&2
  done
}

# Stop one PID: TERM, wait up to $3 s, then KILL.
kafka_stop_pid() {
  local pid="$1" wd="$2" grace="${3:-30}" i
  kafka_pid_alive "$pid" "$wd" || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < grace * 10; i++)); do
    kafka_pid_alive "$pid" "$wd" || return 0
    sleep 0.1
  done
  kafka_log "pid $pid did not exit after ${grace}s of SIGTERM; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do
    kafka_pid_alive "$pid" "$wd" || return 0
    sleep 0.1
  done
  return 1
}

# Wait for node: JVM alive and PLAINTEXT port open. Args: workdir id port deadline(epoch s)
kafka_wait_port() {
  local wd="$1" id="$2" port="$3" deadline="$4" pid
  pid="$(kafka_node_pid "$wd" "$id")"
  while :; do
    kafka_pid_alive "$pid" "$wd" || { kafka_log "node $id (pid ${pid:-?}) exited during startup"; return 1; }
    kafka_port_open "$port" && return 0
    (($(date +%s) < deadline)) || { kafka_log "node $id: port $port not open after ${KAFKA_START_TIMEOUT}s"; return 1; }
    sleep 0.2
  done
}

# Wait until a metadata/ApiVersions round trip over $1 (bootstrap) sees $2 brokers. Arg 3: deadline.
# Arg 4 (optional): workdir whose recorded nodes must all stay alive meanwhile.
kafka_wait_brokers() {
  local bs="$1" want="$2" deadline="$3" wd="${4:-}" out n id
  while :; do
    if [[ -n "$wd" ]]; then
      for id in $(kafka_node_ids "$wd"); do
        kafka_pid_alive "$(kafka_node_pid "$wd" "$id")" "$wd" || { kafka_log "node $id exited during startup"; return 1; }
      done
    fi
    out="$(KAFKA_TOOL_TIMEOUT=60 kafka_run_class "$(kafka_class BrokerApiVersionsCommand)" --bootstrap-server "$bs" 2>&1)" || true
    n="$(grep -cE '\(id: [0-9]+ rack' <<<"$out" || true)"
    ((n >= want)) && return 0
    (($(date +%s) < deadline)) || { kafka_log "only $n of $want brokers answered ApiVersions on $bs: $(tail -n 3 <<<"$out")"; return 1; }
    sleep 1
  done
}

# Did node dir $1 fail because a port was taken (race between picking and binding)?
kafka_bind_conflict() { grep -qs "Address already in use" "$1/logs/server.log" "$1/logs/stdout.log"; }

kafka_random_cluster_id() {
  # 16 random bytes, URL-safe base64 without padding = a Kafka Uuid string.
  # One in 64 starts with '-', which kafka-storage's argument parser takes
  # for an option ("--cluster-id: expected one argument"): draw again.
  local id
  while :; do
    id="$(openssl rand 16 | openssl base64 -A | tr '+/' '-_' | tr -d '=')"
    [[ "$id" != -* ]] && break
  done
  printf '%s\n' "$id"
}

kafka_q() { printf '%q' "$1"; }

kafka_prepare_workdir() {
  local wd="$1" id pid
  mkdir -p "$wd"
  for id in $(kafka_node_ids "$wd"); do
    pid="$(kafka_node_pid "$wd" "$id")"
    if kafka_pid_alive "$pid" "$wd"; then
      kafka_die "a Kafka node (id $id, pid $pid) is still running in $wd; run scripts/kafka/stop.sh $wd first"
    fi
  done
  pid="$(kafka_zookeeper_pid "$wd")"
  if kafka_pid_alive "$pid" "$wd"; then
    kafka_die "ZooKeeper (pid $pid) is still running in $wd; run scripts/kafka/stop.sh $wd first"
  fi
  rm -rf "$wd"/node-* "$wd/zookeeper" "$wd/certs" "$wd/oauth" "$wd/client" "$wd/env.sh" "$wd/layout" "$wd/env.d"
}

# Rewrite the PID lines of <workdir>/env.sh from the node-*/kafka.pid files
# (after kill-node.sh / restart-node.sh). A dead node gets an empty PID.
kafka_update_env_pids() {
  local wd="$1" id pid all=() first=""
  [[ -f "$wd/env.sh" ]] || return 0
  local tmp="$wd/env.sh.tmp.$$"
  cp "$wd/env.sh" "$tmp"
  for id in $(kafka_node_ids "$wd"); do
    pid="$(kafka_node_pid "$wd" "$id")"
    kafka_pid_alive "$pid" "$wd" || pid=""
    [[ -n "$pid" ]] && all+=("$pid")
    [[ -z "$first" ]] && first="${pid:-none}"
    sed -i "s|^export KAFKA_NODE_${id}_PID=.*|export KAFKA_NODE_${id}_PID=$pid|" "$tmp"
  done
  [[ "$first" == none ]] && first=""
  sed -i -e "s|^export KAFKA_PIDS=.*|export KAFKA_PIDS=\"${all[*]-}\"|" \
         -e "s|^export KAFKA_PID=.*|export KAFKA_PID=$first|" "$tmp"
  mv "$tmp" "$wd/env.sh"
}

# PLAINTEXT port of node <id> in <workdir> (from its server.properties).
kafka_node_port() {
  sed -n 's|^advertised.listeners=PLAINTEXT://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$1/node-$2/server.properties"
}

# ---------------------------------------------------------------- ZooKeeper mode (Kafka 3.x)

kafka_zookeeper_pid() { [[ -f "$1/zookeeper/zk.pid" ]] && cat "$1/zookeeper/zk.pid" || true; }

# kafka_start_zookeeper WORKDIR: a standalone ZooKeeper (the server Kafka 3.x
# depends on, from the same jars) on a free 127.0.0.1 port, no admin server.
# Waits until it answers "ruok"; sets KAFKA_ZOOKEEPER_CONNECT.
kafka_start_zookeeper() {
  local wd="$1" zd="$1/zookeeper" port deadline reply
  port="$(kafka_pick_ports 1)"
  mkdir -p "$zd/data" "$zd/logs"
  # tickTime 1000: sessions may last 2-20 s, so the brokers' 6 s session is honoured.
  printf '%s\n' "dataDir=$zd/data" "clientPort=$port" "clientPortAddress=127.0.0.1" \
    tickTime=1000 initLimit=10 syncLimit=5 maxClientCnxns=0 admin.enableServer=false \
    4lw.commands.whitelist=ruok,dump >"$zd/zoo.cfg"
  # shellcheck disable=SC2086
  nohup java -Xms32m -Xmx128m $KAFKA_JVM_OPTS -Dkafka.logs.dir="$zd/logs" \
    -Dlog4j2.configurationFile="$KAFKA_SCRIPTS_DIR/log4j2-broker.properties" \
    -cp "$KAFKA_CLASSPATH" org.apache.zookeeper.server.ZooKeeperServerMain "$zd/zoo.cfg" \
    >>"$zd/logs/stdout.log" 2>&1 </dev/null &
  echo $! >"$zd/zk.pid"
  kafka_wait_exec "$(cat "$zd/zk.pid")" "$zd/"
  deadline=$(($(date +%s) + KAFKA_START_TIMEOUT))
  while :; do
    if ! kafka_pid_alive "$(kafka_zookeeper_pid "$wd")" "$wd"; then
      kafka_dump_logs "$zd" 40
      kafka_log "ZooKeeper exited during startup"
      return 1
    fi
    reply="$( (exec 3<>"/dev/tcp/127.0.0.1/$port" && printf ruok >&3 && timeout 2 cat <&3) 2>/dev/null || true)"
    [[ "$reply" == imok ]] && break
    if (($(date +%s) >= deadline)); then
      kafka_dump_logs "$zd" 40
      kafka_log "ZooKeeper on port $port did not answer ruok after ${KAFKA_START_TIMEOUT}s"
      return 1
    fi
    sleep 0.2
  done
  KAFKA_ZOOKEEPER_CONNECT="127.0.0.1:$port"
}

# kafka_zookeeper_wait_unregistered ID DEADLINE: wait until broker ID's
# ZooKeeper registration is gone. A killed broker's session outlives it by up
# to zookeeper.session.timeout.ms, and a broker started meanwhile finds its ID
# taken and exits. Needs KAFKA_ZOOKEEPER_CONNECT.
kafka_zookeeper_wait_unregistered() {
  local port="${KAFKA_ZOOKEEPER_CONNECT##*:}" dump
  while :; do
    dump="$( (exec 3<>"/dev/tcp/127.0.0.1/$port" && printf dump >&3 && timeout 2 cat <&3) 2>/dev/null || true)"
    grep -q "/brokers/ids/$1\$" <<<"$dump" || return 0
    (($(date +%s) < $2)) || { kafka_log "broker $1 is still registered in ZooKeeper"; return 1; }
    sleep 0.5
  done
}

# kafka_metadata_properties ID QUORUM: the server.properties lines that make
# node ID a KRaft broker+controller (QUORUM: controller.quorum.voters) or a
# ZooKeeper-mode broker (QUORUM: zookeeper.connect).
kafka_metadata_properties() {
  if [[ "$KAFKA_METADATA_MODE" == zookeeper ]]; then
    printf '%s\n' "broker.id=$1" "zookeeper.connect=$2" zookeeper.session.timeout.ms=6000
  else
    printf '%s\n' process.roles=broker,controller "node.id=$1" "controller.quorum.voters=$2" \
      controller.listener.names=CONTROLLER
  fi
}

# The authorizer of the metadata mode (StandardAuthorizer needs KRaft).
kafka_authorizer_class() {
  if [[ "$KAFKA_METADATA_MODE" == zookeeper ]]; then
    echo kafka.security.authorizer.AclAuthorizer
  else
    echo org.apache.kafka.metadata.authorizer.StandardAuthorizer
  fi
}

# kafka_format_storage NODE_DIR CLUSTER_ID [ARGS...]: KRaft's storage format.
# ZooKeeper mode needs none: the broker writes meta.properties itself.
kafka_format_storage() {
  local nd="$1" id="$2"
  shift 2
  [[ "$KAFKA_METADATA_MODE" == zookeeper ]] && return 0
  if ! kafka_run_class kafka.tools.StorageTool format -t "$id" -c "$nd/server.properties" "$@" >"$nd/logs/format.log" 2>&1; then
    cat "$nd/logs/format.log" >&2
    return 1
  fi
}

# kafka_stop_zookeeper WORKDIR [GRACE]: after the brokers, so they deregister cleanly.
kafka_stop_zookeeper() {
  local pid
  pid="$(kafka_zookeeper_pid "$1")"
  [[ -n "$pid" ]] || return 0
  kafka_stop_pid "$pid" "$1" "${2:-30}" || return 1
  rm -f "$1/zookeeper/zk.pid"
}
