#!/usr/bin/env bash
# Shared by the Terraform-at-scale benchmarks (bench-rollout.sh,
# bench-fleet.sh): Kafka from scripts/kafka with JMX on loopback, the broker's
# request counters and CPU, provider binaries wrapped so their CPU is logged
# and installed from a filesystem mirror, Terraform's S3 backend on the
# gofakes3 emulator, and one measured terraform command per results row.
#
# Source it after setting ROOT (the repository), DIR (the scratch directory)
# and BENCH_NAME (for messages). It defines:
#   bench_start_kafka              starts one node in $DIR/kafka, sets BOOTSTRAP
#   bench_wrap REAL WRAPPER        a wrapper that appends REAL's CPU to $DIR/cpu-provider.log
#   bench_mirror_provider REAL SOURCE VERSION
#                                  installs REAL, wrapped, as provider SOURCE (e.g.
#                                  registry.terraform.io/actionstate/flinkagents) VERSION in
#                                  the filesystem mirror $DIR/mirror, and points
#                                  TF_CLI_CONFIG_FILE at a configuration using that mirror
#   bench_start_s3 BUCKET          builds gofakes3 (tools/go.mod), starts it on loopback with
#                                  BUCKET, sets S3_URL and S3_BUCKET and the AWS_* environment
#   bench_stop_s3                  stops it (safe when it never started)
#   bench_backend WORKDIR local|s3 [KEY]
#                                  local state in WORKDIR, or the S3 backend at KEY on the emulator
#   bench_init WORKDIR             terraform init -reconfigure in WORKDIR, its log in $DIR/init.log
#   bench_drop_topics PREFIX       deletes every topic named PREFIX-*, with Kafka's tool
#   bench_measure ROW_PREFIX WORKDIR terraform-args...
#                                  runs terraform in WORKDIR and appends to $RESULTS:
#                                  ROW_PREFIX \t wall_s \t cpu_core_s \t cpu_provider_s \t cpu_broker_s \t requests \t by_type
#                                  \t peak_rss_core_mb \t peak_rss_provider_mb

# Peak memory: the provider's from GNU time's %M (the kernel's maxrss of a
# waited-for process; the provider starts no children), the largest of a
# command's provider processes. Terraform core's cannot come from there
# (its maxrss includes the providers it waited for): its own high-water
# mark (VmHWM) is read from /proc five times a second while it runs, so a
# peak in its last fifth of a second may be missed.
BENCH_TIME="${BENCH_TIME:-/usr/bin/time}"

log() { printf '%s: %s\n' "$BENCH_NAME" "$*" >&2; }
die() { printf '%s: ERROR: %s\n' "$BENCH_NAME" "$*" >&2; exit 1; }

# shellcheck source=../kafka/lib.sh
source "$ROOT/scripts/kafka/lib.sh"

bench_require_time() {
  "$BENCH_TIME" -f %M -o /dev/null true 2>/dev/null ||
    die "GNU time not found at $BENCH_TIME (it measures peak memory; install the 'time' package or set BENCH_TIME)"
}

bench_start_kafka() {
  bench_require_time
  # The scripts' 512 MB heap suits the tests; a broker holding 10,000
  # operators' 60,000 partitions ran out of it (OutOfMemoryError) in the
  # first advance.
  export KAFKA_HEAP_OPTS="${BENCH_KAFKA_HEAP_OPTS:--Xms1g -Xmx4g}"
  KAFKA_DIR="$DIR/kafka"
  local nodes="${BENCH_KAFKA_NODES:-1}" i
  [[ $nodes =~ ^[1-9]$ ]] || die "BENCH_KAFKA_NODES must be 1..9 (got '$nodes')"
  if ((nodes == 1)); then
    JMX_PORTS="$(kafka_pick_ports 1)"
    KAFKA_JVM_OPTS="${KAFKA_JVM_OPTS:-} $(kafka_jmx_opts "$JMX_PORTS" | tr '\n' ' ')" "$ROOT/scripts/kafka/start-single.sh" "$KAFKA_DIR"
  else
    # A broker keeps a file open per partition, and a process here may
    # open 20,000 files (the hard limit, which root cannot raise in this
    # sandbox): 10,000 operators' 40,000 partitions need several brokers.
    # Topics keep the module's replication factor (1), so the cluster's
    # min.insync.replicas is 1 as on the single node.
    JMX_PORTS="$(kafka_pick_ports "$nodes" | tr '\n' ' ')"
    KAFKA_CLUSTER_SIZE="$nodes" KAFKA_JMX_PORTS="$JMX_PORTS" \
      KAFKA_EXTRA_SERVER_PROPERTIES="min.insync.replicas=1${KAFKA_EXTRA_SERVER_PROPERTIES:+
$KAFKA_EXTRA_SERVER_PROPERTIES}" "$ROOT/scripts/kafka/start-cluster.sh" "$KAFKA_DIR"
  fi
  BOOTSTRAP="$(bash -c "source '$KAFKA_DIR/env.sh'; printf %s \"\$KAFKA_BOOTSTRAP_SERVERS\"")"
  [[ -n "$BOOTSTRAP" ]] || die "no PLAINTEXT bootstrap address in $KAFKA_DIR/env.sh"
  BROKER_PIDS=""
  for ((i = 1; i <= nodes; i++)); do BROKER_PIDS+="$(cat "$KAFKA_DIR/node-$i/kafka.pid") "; done
  CLK_TCK="$(getconf CLK_TCK)"
}

bench_stop_kafka() { [[ -z ${KAFKA_DIR:-} ]] || "$ROOT/scripts/kafka/stop.sh" "$KAFKA_DIR" >/dev/null 2>&1 || true; }

bench_drop_topics() { # bench_drop_topics <prefix>: what a run left behind
  kafka_run_class org.apache.kafka.tools.TopicCommand --bootstrap-server "$BOOTSTRAP" --delete --if-exists \
    --topic "$1-.*" >/dev/null 2>&1 || true
}

# CPU seconds the broker JVMs have used so far (they share the machine).
broker_cpu() {
  local pid stats=()
  for pid in $BROKER_PIDS; do stats+=("/proc/$pid/stat"); done
  awk -v hz="$CLK_TCK" '{ t += ($14 + $15) / hz } END { printf "%.2f\n", t }' "${stats[@]}"
}

# Requests the brokers have received, by type, summed over versions and
# brokers. The nodes' own KRaft traffic and connection handshakes are left
# out (with several nodes, replication of the internal topics between them
# is not).
request_counts() {
  local port
  for port in $JMX_PORTS; do
    kafka_run_class org.apache.kafka.tools.JmxTool --one-time true --report-format properties \
      --jmx-url "service:jmx:rmi:///jndi/rmi://127.0.0.1:$port/jmxrmi" \
      --object-name 'kafka.network:type=RequestMetrics,name=RequestsPerSec,request=*,version=*' --attributes Count 2>/dev/null
  done |
    awk -F'[=,:]' '/request=/ {
        for (i = 1; i <= NF; i++) if ($i == "request") t = $(i + 1)
        c[t] += $NF }
      END { for (t in c) if (t !~ /^(ApiVersions|BrokerHeartbeat|BrokerRegistration|ControllerRegistration|Vote|BeginQuorumEpoch|EndQuorumEpoch|FetchSnapshot)$/) print t, c[t] }' |
    sort
}

# A provider is installed behind a wrapper that
# appends the provider process's CPU (user, sys, from bash's `times`) to a
# log, so a command's CPU splits into terraform core and provider.
bench_wrap() { # bench_wrap <real binary> <wrapper path>
  mkdir -p "$(dirname "$2")"
  cat >"$2" <<WRAP
#!/usr/bin/env bash
"$BENCH_TIME" -f %M -a -o "$DIR/rss-provider.log" "$1" "\$@"
rc=\$?
times >"$DIR/cpu-provider.log.\$\$" # not through a pipe: a pipeline's subshell has no children
tail -1 "$DIR/cpu-provider.log.\$\$" >>"$DIR/cpu-provider.log" && rm -f "$DIR/cpu-provider.log.\$\$"
exit \$rc
WRAP
  chmod +x "$2"
}

bench_measure() { # bench_measure <row prefix, tab-separated> <workdir> <terraform args...>
  local prefix="$1" workdir="$2"
  shift 2
  local t0 t1 total b0 b1
  request_counts >"$DIR/requests-before"
  : >"$DIR/cpu-provider.log"
  : >"$DIR/rss-provider.log"
  b0="$(broker_cpu)"
  t0="$(date +%s.%N)"
  # `times` in the subshell (into a file, not a pipe): the CPU of terraform
  # and of everything it started and waited for.
  (
    cd "$workdir"
    # errexit is off inside a subshell tested with ||: exit explicitly.
    terraform "$@" -no-color >"$DIR/last.log" 2>&1 &
    local tf=$! key kb _ pause sampler rc=0
    # Builtins only, so the sampling adds nothing to the CPU counted: the
    # pause is a read that times out on a FIFO no one writes to.
    rm -f "$DIR/pause" && mkfifo "$DIR/pause" && exec {pause}<>"$DIR/pause"
    while :; do
      while read -r key kb _; do [[ $key != VmHWM: ]] || echo "$kb"; done <"/proc/$tf/status" 2>/dev/null || true
      read -rt 0.2 -u "$pause" _ || true
    done >"$DIR/rss-terraform.log" &
    sampler=$!
    wait "$tf" || rc=$?
    kill "$sampler" 2>/dev/null
    ((rc == 0)) || exit "$rc"
    times >"$DIR/cpu-terraform.log"
  ) || { tail -30 "$DIR/last.log" >&2; die "terraform $1 failed in $workdir (log: $DIR/last.log)"; }
  total="$(tail -1 "$DIR/cpu-terraform.log")"
  t1="$(date +%s.%N)"
  # Every command's output, for where the time went ("Read complete after",
  # "Modifications complete after" per resource).
  { printf '==== %s\n' "$prefix"; cat "$DIR/last.log"; } >>"$DIR/commands.log"
  b1="$(broker_cpu)"
  request_counts >"$DIR/requests-after"
  awk -v prefix="$prefix" -v t0="$t0" -v t1="$t1" -v broker="$(awk -v a="$b0" -v b="$b1" 'BEGIN { print b - a }')" \
    -v total="$total" -v before="$DIR/requests-before" -v after="$DIR/requests-after" -v plog="$DIR/cpu-provider.log" \
    -v rsst="$DIR/rss-terraform.log" -v rssp="$DIR/rss-provider.log" '
    function secs(s,   a, i, x, m, q) { # "0m1.230s 0m0.120s" -> 1.35
      x = 0; split(s, a, " ")
      for (i in a) { m = a[i]; sub(/s$/, "", m); split(m, q, "m"); x += q[1] * 60 + q[2] }
      return x }
    BEGIN {
      while ((getline line < before) > 0) { split(line, f, " "); b[f[1]] = f[2] }
      req = 0; types = ""
      while ((getline line < after) > 0) { split(line, f, " "); d = f[2] - b[f[1]]; if (d > 0) { req += d; types = types f[1] "=" d " " } }
      prov = 0; while ((getline line < plog) > 0) prov += secs(line)
      tot = secs(total)
      # GNU time appends "Command exited with non-zero status" lines: numbers only.
      mt = 0; while ((getline line < rsst) > 0) if (line ~ /^[0-9]+$/ && line + 0 > mt) mt = line + 0
      mp = 0; while ((getline line < rssp) > 0) if (line ~ /^[0-9]+$/ && line + 0 > mp) mp = line + 0
      printf "%s\t%.1f\t%.1f\t%.1f\t%.1f\t%d\t%s\t%.0f\t%.0f\n", prefix, t1 - t0, tot - prov, prov, broker, req, types, mt / 1024, mp / 1024
    }' | tee -a "$RESULTS" >&2
}

# A filesystem mirror rather than dev_overrides: the S3 backend needs
# `terraform init`, which dev_overrides do not let through.
BENCH_MIRROR_INCLUDE=
bench_mirror_provider() { # bench_mirror_provider <real binary> <source> <version>
  local real="$1" source="$2" version="$3"
  # The whole provider, not only this version: a stale version left in a
  # reused scratch directory would be picked as the newest.
  rm -rf "${DIR:?}/mirror/$source"
  bench_wrap "$real" "$DIR/mirror/$source/$version/$(go env GOOS)_$(go env GOARCH)/terraform-provider-${source##*/}_v$version"
  BENCH_MIRROR_INCLUDE+="${BENCH_MIRROR_INCLUDE:+, }\"$source\""
  cat >"$DIR/terraformrc" <<RC
provider_installation {
  filesystem_mirror {
    path    = "$DIR/mirror"
    include = [$BENCH_MIRROR_INCLUDE]
  }
}
RC
  export TF_CLI_CONFIG_FILE="$DIR/terraformrc" TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1
}

S3_PID=
bench_start_s3() { # bench_start_s3 <bucket>
  S3_BUCKET="$1"
  (cd "$ROOT/tools" && go build -o "$DIR/real/gofakes3" github.com/johannesboyne/gofakes3/cmd/gofakes3) ||
    die "could not build gofakes3 from tools/go.mod"
  # The emulator checks no credentials; the provider and the S3 backend still
  # want some from the standard chain.
  export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true
  # gofakes3 answers a multipart object (a state of several MB) with checksums
  # the AWS SDK rejects, as some S3-compatible stores do: checksums only where
  # an operation requires them.
  export AWS_REQUEST_CHECKSUM_CALCULATION=when_required AWS_RESPONSE_CHECKSUM_VALIDATION=when_required
  local port
  port="$(kafka_pick_ports 1)"
  S3_URL="http://127.0.0.1:$port"
  "$DIR/real/gofakes3" -backend memory -host "127.0.0.1:$port" -initialbucket "$S3_BUCKET" -quiet >"$DIR/gofakes3.log" 2>&1 &
  S3_PID=$!
  for _ in $(seq 100); do curl -fsS -o /dev/null "$S3_URL/$S3_BUCKET" 2>/dev/null && break; sleep 0.1; done
  curl -fsS -o /dev/null "$S3_URL/$S3_BUCKET" || die "the S3 emulator did not start (log: $DIR/gofakes3.log)"
}

bench_stop_s3() { [[ -z ${S3_PID:-} ]] || kill "$S3_PID" 2>/dev/null || true; }

bench_backend() { # bench_backend <workdir> <local|s3> [state key]
  local workdir="$1" backend="$2" key="${3:-}"
  # Forget the last backend (init -reconfigure keeps an S3 backend when
  # the block is removed).
  rm -f "$workdir/backend.tf" "$workdir/.terraform/terraform.tfstate"
  case "$backend" in
  local) ;;
  s3)
    [[ -n $key && -n ${S3_URL:-} ]] || die "bench_backend s3 needs a state key and bench_start_s3"
    # use_lockfile as users configure it: every command takes and releases
    # the lock object.
    cat >"$workdir/backend.tf" <<TF
terraform {
  backend "s3" {
    bucket                      = "$S3_BUCKET"
    key                         = "$key"
    region                      = "us-east-1"
    endpoints                   = { s3 = "$S3_URL" }
    use_path_style              = true
    use_lockfile                = true
    skip_s3_checksum            = true
    skip_credentials_validation = true
    skip_requesting_account_id  = true
    skip_metadata_api_check     = true
    skip_region_validation      = true
  }
}
TF
    ;;
  *) die "backend $backend is neither local nor s3" ;;
  esac
}

bench_init() { # bench_init <workdir>
  (cd "$1" && terraform init -input=false -reconfigure >"$DIR/init.log" 2>&1) ||
    { tail -20 "$DIR/init.log" >&2; die "terraform init failed in $1 (log: $DIR/init.log)"; }
}
