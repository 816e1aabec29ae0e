#!/usr/bin/env bash
# Setup and teardown of scripts/soak.sh; sourced with ROOT, DIR and KEEP set.
# Defines:
#   soak_build        the provider (into a filesystem mirror that TF_CLI_CONFIG_FILE
#                     names), the driver, gofakes3 and opa (tools/go.mod), the interop jar
#   soak_secrets      fresh sentinel secrets in $DIR/secrets: the SASL password and the
#                     AWS secret key, which no log may ever show
#   soak_start_kafka  the 3-node cluster with its SASL listeners; sets BOOTSTRAP,
#                     SASL_BOOTSTRAP and ALLOWED_SECRET_FILES
#   soak_start_s3     the S3 emulator with bucket "soak"; sets S3_URL and the AWS_* environment
#   soak_stop         stops what was started; removes $DIR unless KEEP is set

# shellcheck source=../kafka/lib.sh
source "$ROOT/scripts/kafka/lib.sh"

soak_build() {
  local mirror="$DIR/mirror/registry.terraform.io/actionstate/flinkagents/0.0.1/$(go env GOOS)_$(go env GOARCH)"
  mkdir -p "$DIR/bin" "$mirror"
  log "building the provider, the soak driver, gofakes3 and opa"
  (cd "$ROOT" && go build -o "$mirror/terraform-provider-flinkagents_v0.0.1" . && go build -o "$DIR/bin/soak" ./internal/soak/cmd/soak)
  (cd "$ROOT/tools" && go build -o "$DIR/bin/gofakes3" github.com/johannesboyne/gofakes3/cmd/gofakes3 &&
    go build -o "$DIR/bin/opa" github.com/open-policy-agent/opa)
  "$ROOT/scripts/build-interop.sh" >&2
  # A filesystem mirror rather than dev_overrides: terraform init installs the
  # modules and the provider as a user's run would.
  cat >"$DIR/terraformrc" <<RC
provider_installation {
  filesystem_mirror {
    path    = "$DIR/mirror"
    include = ["registry.terraform.io/actionstate/flinkagents"]
  }
}
RC
  export TF_CLI_CONFIG_FILE="$DIR/terraformrc"
}

soak_secrets() {
  mkdir -p "$DIR/secrets"
  printf 'soak-sasl-%s\n' "$(openssl rand -hex 12)" >"$DIR/secrets/sasl-password"
  printf 'soak-aws-%s\n' "$(openssl rand -hex 16)" >"$DIR/secrets/aws-secret-access-key"
}

soak_start_kafka() {
  # The cleaner looks for work every second (Kafka's default: 15 s), so a
  # compaction the soak provokes happens within its night.
  KAFKA_EXTRA_SERVER_PROPERTIES="log.cleaner.backoff.ms=1000" "$ROOT/scripts/kafka/start-cluster.sh" "$DIR/kafka" >&2
  SASL_BOOTSTRAP="$("$ROOT/scripts/soak/sasl.sh" "$DIR/kafka" soak "$DIR/secrets/sasl-password")"
  BOOTSTRAP="$(bash -c "source '$DIR/kafka/env.sh'; printf %s \"\$KAFKA_BOOTSTRAP_SERVERS\"")"
  ALLOWED_SECRET_FILES="$DIR/secrets"
  local f
  for f in "$DIR"/kafka/node-*/server.properties; do ALLOWED_SECRET_FILES+=",$f"; done
  log "Kafka: PLAINTEXT $BOOTSTRAP, SASL $SASL_BOOTSTRAP"
}

S3_PID=
soak_start_s3() {
  local port
  port="$(kafka_pick_ports 1)"
  S3_URL="http://127.0.0.1:$port"
  "$DIR/bin/gofakes3" -backend bolt -bolt.db "$DIR/s3.db" -host "127.0.0.1:$port" -initialbucket soak >"$DIR/gofakes3.log" 2>&1 &
  S3_PID=$!
  for _ in $(seq 100); do curl -fsS -o /dev/null "$S3_URL/soak" 2>/dev/null && break; sleep 0.1; done
  curl -fsS -o /dev/null "$S3_URL/soak" || { log "the S3 emulator did not start (log: $DIR/gofakes3.log)"; return 1; }
  # The emulator checks no signature; the provider's AWS SDK still signs
  # every request with this key, which therefore must never be logged.
  export AWS_ACCESS_KEY_ID=soak AWS_SECRET_ACCESS_KEY="$(cat "$DIR/secrets/aws-secret-access-key")" AWS_REGION=us-east-1
  export AWS_EC2_METADATA_DISABLED=true AWS_REQUEST_CHECKSUM_CALCULATION=when_required AWS_RESPONSE_CHECKSUM_VALIDATION=when_required
  log "S3 emulator: $S3_URL (objects in $DIR/s3.db)"
}

soak_stop() {
  local rc=$?
  [[ -z $S3_PID ]] || kill "$S3_PID" 2>/dev/null || true
  "$ROOT/scripts/kafka/stop.sh" "$DIR/kafka" >/dev/null 2>&1 || true
  if [[ -z ${KEEP:-} && $rc == 0 ]]; then
    rm -rf "$DIR"
  fi
  exit "$rc"
}
