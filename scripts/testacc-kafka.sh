#!/usr/bin/env bash
# The acceptance suite against real Apache Kafka (KRaft, scripts/kafka),
# once per listener kind, then the security tests on the same broker and the
# failure tests on a three-node cluster. `make testacc-kafka` runs it (after
# `make interop-jar`); CI runs that after `make test`.
#
# Passes (each a separate `go test` run; all run even when one fails):
#   plaintext  acceptance, interop and the example modules on the PLAINTEXT listener
#   races      internal/cleanup concurrent-apply tests (transactional fencing), the Java tool appending
#              mid-apply, topics recreated mid-apply
#   tf115      list resources (terraform query), the action and import by identity, which skip below
#              Terraform 1.14, under Terraform 1.14+ (scripts/terraform114.sh: the terraform on PATH
#              when it is one, else 1.15.9 from TERRAFORM_115_GZ) on PLAINTEXT and SASL_SSL
#   scram-512  the connection subset (auth_run below) on SASL_SSL, SCRAM-SHA-512,
#              tls { ca_pem }
#   mtls       the connection subset on SSL with a client certificate
#   security   internal/realkafka (-tags realkafka): TLS, SASL, ACLs, secrets,
#              OAUTHBEARER with client credentials outliving 15 s tokens,
#              a killed applier's transaction aborted, a frozen broker mid-commit
#   cluster    internal/realkafka TestCluster*: leader kills during an apply
#
# Knobs: TESTACC_KAFKA_PASSES (space-separated subset of the names above,
# default all), TESTACC_KAFKA_RUN (a go test -run pattern for every listener
# pass, default: all tests on plaintext, the connection subset on the
# others), TESTACC_KAFKA_AUTH_RUN (the secured listeners' pattern when
# TESTACC_KAFKA_RUN is unset; '.' runs the whole suite), TESTACC_KAFKA_CLUSTER_RUN (the cluster pass's,
# default TestCluster), KAFKA_VERSION and KAFKA_METADATA_MODE (scripts/kafka), TESTACC_KAFKA_WORKDIR (kept when set; default a temp dir
# removed on success), GOTEST (default `go test`), GOFLAGS as usual.
# Brokers are always stopped on exit, whatever happens.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
"$root/scripts/require-tools.sh" go terraform java mvn openssl keytool

passes=${TESTACC_KAFKA_PASSES:-"plaintext races tf115 scram-512 mtls security cluster"}
gotest=${GOTEST:-go test}
jar="$root/interop/java/target/flinkagents-interop.jar"
[[ -f $jar ]] || { echo "testacc-kafka: $jar missing: run 'make interop-jar' (make testacc-kafka does)" >&2; exit 1; }

if [[ -n ${TESTACC_KAFKA_WORKDIR:-} ]]; then
  work=$TESTACC_KAFKA_WORKDIR keep=1
  mkdir -p "$work"
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/testacc-kafka.XXXXXX") keep=0
fi
single=$work/single cluster=$work/cluster

status=0
declare -a summary=()
started_single=0 started_cluster=0
cleanup() {
  local rc=$?
  ((started_single)) && scripts/kafka/stop.sh "$single" >/dev/null 2>&1 || true
  ((started_cluster)) && scripts/kafka/stop.sh "$cluster" >/dev/null 2>&1 || true
  if ((rc == 0 && status == 0 && keep == 0)); then
    rm -rf "$work"
  else
    echo "testacc-kafka: broker logs and test output kept in $work" >&2
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wants() { [[ " $passes " == *" $1 "* ]]; }

# run NAME CMD...: runs one pass with its own log, records result and time.
run() {
  local name=$1; shift
  local t0=$SECONDS rc=0
  echo "=== testacc-kafka: pass $name"
  "$@" 2>&1 | tee "$work/$name.log" || rc=$?
  local took=$((SECONDS - t0))
  if ((rc == 0)); then
    summary+=("$(printf '%-10s PASS  %4ds' "$name" "$took")")
  else
    summary+=("$(printf '%-10s FAIL  %4ds  (log: %s)' "$name" "$took" "$work/$name.log")")
    status=1
  fi
}

acceptance_pkgs=(./internal/resources/... ./internal/datasources/... ./internal/actions/... ./interop/... ./examples/...)

# The secured listeners differ from plaintext only in how connections are
# made, and the security pass covers verification, mechanisms and refusals.
# So they run the tests that, between them, open every connection the
# provider and the suite open and send every kind of request over it: the
# provider's admin client (topic create, describe, alter, import, delete),
# its transactional client (control appends) and read_committed fetches,
# ListOffsets and DeleteRecords, both data sources that read Kafka, and the
# Java client (security file) reading our records, writing its own and
# restoring a job. The rest of the suite asks nothing new of a connection.
auth_tests=(TestActionStateTopicLifecycle TestCleanupControlTopicLifecycle TestCleanupBoundaryLifecycle
  TestCleanupBoundaryDataSource TestAccAgentConfigWithCleanup
  TestJavaClientReadsOurControlRecords TestWeResumeACommittedRecordWrittenByJava TestModuleJobRestoresBeforeAndAfterFirstCleanup)
auth_run="^($(IFS='|'; echo "${auth_tests[*]}"))\$"

# check_auth_tests fails when a test of the connection subset no longer
# exists (renamed or removed), which would drop its coverage in silence.
check_auth_tests() {
  local listed missing=()
  listed=$(go test -tags interop -list "$auth_run" "${acceptance_pkgs[@]}" 2>&1) || { echo "$listed" >&2; return 1; }
  for t in "${auth_tests[@]}"; do
    grep -qx "$t" <<<"$listed" || missing+=("$t")
  done
  ((${#missing[@]} == 0)) || { echo "testacc-kafka: connection subset names tests that do not exist: ${missing[*]}" >&2; return 1; }
}

# acceptance [RUN]: the provider's suite (the tests RUN matches, default all)
# with env already set for one listener.
acceptance() {
  TF_ACC=1 FLINKAGENTS_INTEROP_JAR="$jar" $gotest -count=1 -timeout 30m ${1:+-run "$1"} \
    -tags interop "${acceptance_pkgs[@]}"
}

# tf115: the tests of Terraform 1.14+ features under Terraform 1.14 or later
# (1.15.9 in CI), on the listener whose env is set.
tf115_run='TestAccAdopt|TestAccQuery|TestAccApplyCleanupPlan'
tf115() {
  local dir
  dir=$(scripts/terraform114.sh) || return 1
  TF_ACC_TERRAFORM_PATH=$dir/terraform acceptance "$tf115_run"
}

# races: two and three appliers racing on one control topic (and two fleets
# racing on one shared entry), on the real
# broker's transaction coordinator; the Java tool's records landing below an
# apply's open transaction (the last stable offset); the action-state or control topic
# recreated between an apply's steps (spec section 7's windows).
races() {
  $gotest -count=1 -timeout 10m -v -run 'TestConcurrentApplies|TestRacingApplies|TestApplyDeletesNothingFromATopicRecreatedBeforeTheDelete|TestApplyAbortsCOMMITTEDAppendedToARecreatedControlTopic|TestToolApplyingTheSamePlanMeanwhile|TestApply.*TheTool|TestApplyGivesUpOnAControlTopicThatKeepsChanging|TestTwoFleetsRaceOnOneEntry|TestFencedApply|TestTwoAppliesOfTheSamePlan' ./internal/cleanup/
}

# with_listener KIND CMD...: runs CMD with the env of one listener of the
# single broker (from env.sh, sourced into this subshell only).
with_listener() (
  local kind=$1; shift
  # shellcheck source=/dev/null
  source "$single/env.sh"
  unset FLINKAGENTS_ACC_PROVIDER_HCL FLINKAGENTS_ACC_CA_PEM FLINKAGENTS_ACC_CERT_PEM FLINKAGENTS_ACC_KEY_PEM \
    FLINKAGENTS_ACC_SASL_MECHANISM FLINKAGENTS_ACC_SASL_USER FLINKAGENTS_ACC_SASL_PASSWORD FLINKAGENTS_ACC_JAVA_SECURITY_FILE
  case $kind in
    plaintext) ;;
    scram-512)
      export KAFKA_BOOTSTRAP_SERVERS=$KAFKA_BOOTSTRAP_SASL_SSL
      export FLINKAGENTS_ACC_PROVIDER_HCL="  tls {
    ca_pem = \"$KAFKA_CA_PEM\"
  }
  sasl {
    mechanism = \"SCRAM-SHA-512\"
    username  = \"$KAFKA_SCRAM_USER\"
    password  = \"$KAFKA_SCRAM_PASSWORD\"
  }"
      export FLINKAGENTS_ACC_CA_PEM=$KAFKA_CA_PEM FLINKAGENTS_ACC_SASL_MECHANISM=SCRAM-SHA-512 \
        FLINKAGENTS_ACC_SASL_USER=$KAFKA_SCRAM_USER FLINKAGENTS_ACC_SASL_PASSWORD=$KAFKA_SCRAM_PASSWORD \
        FLINKAGENTS_ACC_JAVA_SECURITY_FILE=$KAFKA_CLIENT_CONFIG_DIR/sasl-scram-512.properties
      ;;
    mtls)
      export KAFKA_BOOTSTRAP_SERVERS=$KAFKA_BOOTSTRAP_SSL
      export FLINKAGENTS_ACC_PROVIDER_HCL="  tls {
    ca_pem   = \"$KAFKA_CA_PEM\"
    cert_pem = \"$KAFKA_CLIENT_CERT_PEM\"
    key_pem  = \"$KAFKA_CLIENT_KEY_PEM\"
  }"
      export FLINKAGENTS_ACC_CA_PEM=$KAFKA_CA_PEM FLINKAGENTS_ACC_CERT_PEM=$KAFKA_CLIENT_CERT_PEM \
        FLINKAGENTS_ACC_KEY_PEM=$KAFKA_CLIENT_KEY_PEM \
        FLINKAGENTS_ACC_JAVA_SECURITY_FILE=$KAFKA_CLIENT_CONFIG_DIR/ssl.properties
      ;;
    *) echo "unknown listener $kind" >&2; return 2 ;;
  esac
  "$@"
)

# realkafka RUN-REGEX ENV-FILE: the tagged suite against one layout.
realkafka() {
  KAFKA_ENV_FILE=$2 KAFKA_SCRIPTS_DIR="$root/scripts/kafka" TF_ACC=1 \
    $gotest -tags realkafka -count=1 -timeout 20m -v -run "$1" ./internal/realkafka/...
}

total0=$SECONDS
if wants plaintext || wants races || wants tf115 || wants scram-512 || wants mtls || wants security; then
  t0=$SECONDS
  started_single=1
  scripts/kafka/start-single.sh "$single" >"$work/start-single.log" 2>&1 ||
    { cat "$work/start-single.log" >&2; echo "testacc-kafka: single broker did not start" >&2; exit 1; }
  summary+=("$(printf '%-10s up    %4ds' "broker" "$((SECONDS - t0))")")
  if [[ -z ${TESTACC_KAFKA_RUN:-} && -z ${TESTACC_KAFKA_AUTH_RUN:-} ]] && { wants scram-512 || wants mtls; }; then
    check_auth_tests
  fi
  for kind in plaintext scram-512 mtls; do
    pattern=${TESTACC_KAFKA_RUN:-}
    [[ -n $pattern || $kind == plaintext ]] || pattern=${TESTACC_KAFKA_AUTH_RUN:-$auth_run}
    wants "$kind" && run "$kind" with_listener "$kind" acceptance "$pattern"
    if [[ $kind == plaintext ]] && wants races; then
      run races with_listener plaintext races
    fi
    if [[ $kind != mtls ]] && wants tf115; then
      run "tf115-$kind" with_listener "$kind" tf115
    fi
  done
  wants security && run security realkafka 'TestSecurity|TestSingle' "$single/env.sh"
  scripts/kafka/stop.sh "$single" >/dev/null 2>&1 || true
  started_single=0
fi

if wants cluster; then
  t0=$SECONDS
  started_cluster=1
  scripts/kafka/start-cluster.sh "$cluster" >"$work/start-cluster.log" 2>&1 ||
    { cat "$work/start-cluster.log" >&2; echo "testacc-kafka: cluster did not start" >&2; exit 1; }
  summary+=("$(printf '%-10s up    %4ds' "cluster" "$((SECONDS - t0))")")
  run cluster realkafka "${TESTACC_KAFKA_CLUSTER_RUN:-TestCluster}" "$cluster/env.sh"
  scripts/kafka/stop.sh "$cluster" >/dev/null 2>&1 || true
  started_cluster=0
fi

version=$(cat "$single/env.sh" "$cluster/env.sh" 2>/dev/null | sed -n 's/^export KAFKA_VERSION=//p' | sed -n 1p || true)
echo
echo "=== testacc-kafka summary (Apache Kafka ${version:-?} ${KAFKA_METADATA_MODE:-kraft}, $(nproc) cores)"
printf '  %s\n' "${summary[@]}"
printf '  %-10s %s  %4ds\n' total "$( ((status == 0)) && echo PASS || echo FAIL)" "$((SECONDS - total0))"
exit "$status"
