#!/usr/bin/env bash
# Start ONE Apache Kafka on 127.0.0.1 (KRaft, combined broker+controller; or,
# with KAFKA_METADATA_MODE=zookeeper on 3.x, a broker and its own ZooKeeper)
# with PLAINTEXT, SASL_SSL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512), SSL (mTLS) and
# OAUTH (SASL_SSL with OAUTHBEARER, JWTs checked against a JWKS file)
# listeners, ACLs enabled (StandardAuthorizer, AclAuthorizer in ZooKeeper
# mode), and write <workdir>/env.sh.
#
# Usage: scripts/kafka/start-single.sh <workdir>
# See scripts/kafka/README.md.
set -euo pipefail

if [[ $# -ne 1 || -z "$1" ]]; then
  echo "usage: $0 <workdir>" >&2
  exit 2
fi
# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

kafka_require_tools openssl keytool awk cksum timeout
kafka_check_java
kafka_check_version

mkdir -p "$1"
WD="$(cd "$1" && pwd -P)"
NODE_ID=1
ND="$WD/node-$NODE_ID"

# Credentials (test-only, loopback-only broker). Overridable from the environment.
PLAIN_USER="${KAFKA_SASL_PLAIN_USER:-admin}"
PLAIN_PASSWORD="${KAFKA_SASL_PLAIN_PASSWORD:-admin-secret}"
SCRAM_USER="${KAFKA_SCRAM_USER:-scram-admin}"
SCRAM_PASSWORD="${KAFKA_SCRAM_PASSWORD:-scram-admin-secret}"
LIMITED_USER="${KAFKA_LIMITED_USER:-limited}"
LIMITED_PASSWORD="${KAFKA_LIMITED_PASSWORD:-limited-secret}"
CLIENT_CN="flinkagents-client"
STORE_PASSWORD="changeit"
# OAUTHBEARER: whoever holds oauth/signing.key can mint tokens the broker
# accepts (tests run their own token endpoint with it). The subject is the
# principal; audience and issuer are checked.
OAUTH_SUBJECT="flinkagents-oauth"
OAUTH_AUDIENCE="flinkagents-test-kafka"
OAUTH_ISSUER="https://flinkagents-test-issuer.invalid"
OAUTH_KEY_ID="flinkagents-test-key"
# Short, so a test of a few seconds sees the broker demand re-authentication.
OAUTH_REAUTH_MS=10000
for v in "$PLAIN_USER" "$PLAIN_PASSWORD" "$SCRAM_USER" "$SCRAM_PASSWORD" "$LIMITED_USER" "$LIMITED_PASSWORD"; do
  [[ "$v" =~ ^[A-Za-z0-9._-]+$ ]] || kafka_die "user names/passwords must match [A-Za-z0-9._-]+ (got '$v')"
done
SUPER_USERS="User:ANONYMOUS;User:$PLAIN_USER;User:$SCRAM_USER;User:$CLIENT_CN;User:$OAUTH_SUBJECT"

T_START="$(kafka_now)"
kafka_prepare_workdir "$WD"
echo single >"$WD/layout"

STAGE="setup"
cleanup() {
  local rc=$?
  if ((rc != 0)); then
    kafka_log "start-single FAILED (exit $rc) during: $STAGE (workdir $WD)"
    kafka_dump_logs "$ND" 80
    local pid; pid="$(kafka_node_pid "$WD" "$NODE_ID")"
    if [[ -n "$pid" ]]; then
      kafka_stop_pid "$pid" "$WD" 10 || true
      rm -f "$ND/kafka.pid"
    fi
    kafka_stop_zookeeper "$WD" 10 || true
    kafka_log "start-single FAILED; nothing left running. Logs: $ND/logs/"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

STAGE="fetching jars"
kafka_fetch
T_FETCHED="$(kafka_now)"

# ---------------------------------------------------------------- certificates
CERTS="$WD/certs"
mkdir -p "$CERTS"
STAGE="certificate generation (see $CERTS/openssl.log)"
(
  cd "$CERTS"
  exec >openssl.log 2>&1
  openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 30 \
    -keyout ca.key -out ca.pem -subj "/CN=flinkagents-test-ca" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
  sign() { # name subject extfile-content
    openssl req -newkey rsa:2048 -nodes -sha256 -keyout "$1.rawkey" -out "$1.csr" -subj "$2"
    printf '%s\n' "$3" >"$1.ext"
    openssl x509 -req -sha256 -days 30 -in "$1.csr" -CA ca.pem -CAkey ca.key \
      -set_serial "0x$(openssl rand -hex 16)" -extfile "$1.ext" -out "$1.pem"
    # Unencrypted PKCS#8 ("BEGIN PRIVATE KEY").
    openssl pkcs8 -topk8 -nocrypt -in "$1.rawkey" -out "$1.key"
    rm -f "$1.rawkey" "$1.csr"
  }
  sign broker "/CN=localhost" "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth,clientAuth
subjectAltName=IP:127.0.0.1,DNS:localhost"
  sign client "/CN=$CLIENT_CN" "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth"
  openssl pkcs12 -export -in broker.pem -inkey broker.key -certfile ca.pem -name broker \
    -out broker.p12 -passout "pass:$STORE_PASSWORD"
  openssl pkcs12 -export -in client.pem -inkey client.key -certfile ca.pem -name client \
    -out client.p12 -passout "pass:$STORE_PASSWORD"
  keytool -importcert -noprompt -alias ca -file ca.pem -keystore truststore.p12 \
    -storetype PKCS12 -storepass "$STORE_PASSWORD"
  chmod 600 ./*.key
)

# ---------------------------------------------------------------- OAuth signing key and JWKS
# The broker reads the public key from a JWKS *file*, so no token server has
# to be up before the broker starts (Kafka refuses to start when its first
# JWKS fetch fails); tests serve the token endpoint themselves, signing with
# the private key.
OAUTH="$WD/oauth"
mkdir -p "$OAUTH"
STAGE="OAuth key generation (see $OAUTH/openssl.log)"
(
  cd "$OAUTH"
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out signing.key 2>openssl.log
  chmod 600 signing.key
  modulus_hex="$(openssl rsa -in signing.key -noout -modulus 2>>openssl.log)"
  modulus_hex="${modulus_hex#Modulus=}"
  # JWK "n": the big-endian modulus, base64url without padding. printf %b
  # turns \xHH escapes into bytes (no xxd needed).
  n="$(printf '%b' "$(sed 's/../\\x&/g' <<<"$modulus_hex")" | openssl base64 -A | tr '+/' '-_' | tr -d '=')"
  printf '{"keys":[{"kty":"RSA","use":"sig","alg":"RS256","kid":"%s","n":"%s","e":"AQAB"}]}\n' \
    "$OAUTH_KEY_ID" "$n" >jwks.json
)

# ---------------------------------------------------------------- ZooKeeper mode: ZooKeeper + SCRAM users
# SCRAM credentials live in ZooKeeper there; written before the broker starts,
# as KRaft's format writes them, so both modes start with the same users.
KAFKA_ZOOKEEPER_CONNECT=""
if [[ "$KAFKA_METADATA_MODE" == zookeeper ]]; then
  STAGE="starting ZooKeeper (see $WD/zookeeper/logs)"
  kafka_start_zookeeper "$WD"
  STAGE="creating SCRAM users in ZooKeeper"
  for user in "$SCRAM_USER:$SCRAM_PASSWORD" "$LIMITED_USER:$LIMITED_PASSWORD"; do
    kafka_run_class "$(kafka_class ConfigCommand)" --zookeeper "$KAFKA_ZOOKEEPER_CONNECT" --alter \
      --add-config "SCRAM-SHA-256=[password=${user#*:}],SCRAM-SHA-512=[password=${user#*:}]" \
      --entity-type users --entity-name "${user%%:*}" >>"$WD/zookeeper/logs/scram.log" 2>&1 ||
      { cat "$WD/zookeeper/logs/scram.log" >&2; kafka_die "could not create SCRAM user ${user%%:*}"; }
  done
fi

for ATTEMPT in 1 2 3; do
# ---------------------------------------------------------------- config
  STAGE="writing config"
  PORTS="$(kafka_pick_ports 5)"
  read -r P_PLAIN P_SASL P_SSL P_CTRL P_OAUTH <<<"$(echo $PORTS)"
  LISTENERS="PLAINTEXT://127.0.0.1:$P_PLAIN,SASL_SSL://127.0.0.1:$P_SASL,SSL://127.0.0.1:$P_SSL,OAUTH://127.0.0.1:$P_OAUTH"
  if [[ "$KAFKA_METADATA_MODE" == zookeeper ]]; then
    QUORUM="$KAFKA_ZOOKEEPER_CONNECT" CONTROLLER_ADDRESS="" LISTENER_MAP=""
  else
    QUORUM="$NODE_ID@127.0.0.1:$P_CTRL" CONTROLLER_ADDRESS="127.0.0.1:$P_CTRL" LISTENER_MAP=",CONTROLLER:PLAINTEXT"
    LISTENERS="$LISTENERS,CONTROLLER://$CONTROLLER_ADDRESS"
  fi
  mkdir -p "$ND/data" "$ND/logs"
  # Kafka 4 reads OAuth URLs and files only where these allow.
  printf '%s\n' "-Dorg.apache.kafka.sasl.oauthbearer.allowed.urls=file://$OAUTH/jwks.json" \
    "-Dorg.apache.kafka.sasl.oauthbearer.allowed.files=$OAUTH/jwks.json" >"$ND/jvm.options"
  cat >"$ND/server.properties" <<EOF
# Generated by scripts/kafka/start-single.sh
$(kafka_metadata_properties "$NODE_ID" "$QUORUM")
inter.broker.listener.name=PLAINTEXT
listeners=$LISTENERS
advertised.listeners=PLAINTEXT://127.0.0.1:$P_PLAIN,SASL_SSL://127.0.0.1:$P_SASL,SSL://127.0.0.1:$P_SSL,OAUTH://127.0.0.1:$P_OAUTH
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,SASL_SSL:SASL_SSL,SSL:SSL,OAUTH:SASL_SSL$LISTENER_MAP
log.dirs=$ND/data

# --- TLS (shared by SASL_SSL and SSL listeners)
ssl.keystore.type=PKCS12
ssl.keystore.location=$CERTS/broker.p12
ssl.keystore.password=$STORE_PASSWORD
ssl.key.password=$STORE_PASSWORD
ssl.truststore.type=PKCS12
ssl.truststore.location=$CERTS/truststore.p12
ssl.truststore.password=$STORE_PASSWORD
ssl.client.auth=none
# SSL listener: mutual TLS, principal = certificate CN
listener.name.ssl.ssl.client.auth=required
ssl.principal.mapping.rules=RULE:^CN=([^,]+).*\$/\$1/,DEFAULT

# --- SASL on SASL_SSL
sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512
listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$PLAIN_USER="$PLAIN_PASSWORD" user_$LIMITED_USER="$LIMITED_PASSWORD";
listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;

# --- OAUTHBEARER on OAUTH (SASL_SSL): RS256 JWTs checked against the JWKS
# file, no clock skew allowed (an expired token is refused at once), and
# re-authentication demanded every OAUTH_REAUTH_MS.
listener.name.oauth.sasl.enabled.mechanisms=OAUTHBEARER
listener.name.oauth.oauthbearer.sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;
listener.name.oauth.oauthbearer.sasl.server.callback.handler.class=org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler
listener.name.oauth.oauthbearer.connections.max.reauth.ms=$OAUTH_REAUTH_MS
sasl.oauthbearer.jwks.endpoint.url=file://$OAUTH/jwks.json
sasl.oauthbearer.expected.audience=$OAUTH_AUDIENCE
sasl.oauthbearer.expected.issuer=$OAUTH_ISSUER
sasl.oauthbearer.clock.skew.seconds=0

# --- ACLs
authorizer.class.name=$(kafka_authorizer_class)
super.users=$SUPER_USERS
allow.everyone.if.no.acl.found=false

# --- single node sizing
num.partitions=1
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=5
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=5
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false
num.network.threads=2
num.io.threads=4
num.recovery.threads.per.data.dir=1
background.threads=4
log.cleaner.dedupe.buffer.size=8388608
${KAFKA_EXTRA_SERVER_PROPERTIES:-}
EOF

# ---------------------------------------------------------------- format storage (+ SCRAM users)
  STAGE="formatting storage"
  T_FMT="$(kafka_now)"
  CLUSTER_ID="$(kafka_random_cluster_id)"
  fmt_args=()
  for mech in SCRAM-SHA-256 SCRAM-SHA-512; do
    fmt_args+=(--add-scram "$mech=[name=$SCRAM_USER,password=$SCRAM_PASSWORD]")
    fmt_args+=(--add-scram "$mech=[name=$LIMITED_USER,password=$LIMITED_PASSWORD]")
  done
  kafka_format_storage "$ND" "$CLUSTER_ID" "${fmt_args[@]}" || kafka_die "kafka-storage format failed"
  # ZooKeeper mode: the broker makes its cluster ID itself.
  [[ "$KAFKA_METADATA_MODE" == zookeeper ]] && CLUSTER_ID=""

# ---------------------------------------------------------------- start + wait
  STAGE="starting broker"
  T_JVM="$(kafka_now)"
  kafka_start_node_jvm "$ND"
  DEADLINE=$(($(date +%s) + KAFKA_START_TIMEOUT))
  if ! { kafka_wait_port "$WD" "$NODE_ID" "$P_PLAIN" "$DEADLINE" &&
    kafka_wait_brokers "127.0.0.1:$P_PLAIN" 1 "$DEADLINE" "$WD"; }; then
    if ((ATTEMPT < 3)) && kafka_bind_conflict "$ND"; then
      kafka_log "a picked port was taken meanwhile (attempt $ATTEMPT); retrying with new ports"
      kafka_stop_pid "$(kafka_node_pid "$WD" "$NODE_ID")" "$WD" 10 || true
      mv "$ND/logs" "$WD/bind-conflict-logs.$ATTEMPT" 2>/dev/null || true
      rm -rf "$ND"
      continue
    fi
    kafka_die "broker did not come up (PLAINTEXT port open + ApiVersions answered)"
  fi
  for p in "$P_SASL" "$P_SSL" "$P_OAUTH"; do
    kafka_port_open "$p" || kafka_die "listener port $p is not open"
  done
  break
done
T_READY="$(kafka_now)"

# ---------------------------------------------------------------- client configs (for Java CLI tools)
STAGE="writing client configs and env.sh"
CL="$WD/client"
mkdir -p "$CL"
tls_common="ssl.truststore.type=PKCS12
ssl.truststore.location=$CERTS/truststore.p12
ssl.truststore.password=$STORE_PASSWORD"
printf 'security.protocol=PLAINTEXT\n' >"$CL/plaintext.properties"
printf 'security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="%s" password="%s";\n%s\n' \
  "$PLAIN_USER" "$PLAIN_PASSWORD" "$tls_common" >"$CL/sasl-plain.properties"
for m in 256 512; do
  printf 'security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-%s\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="%s" password="%s";\n%s\n' \
    "$m" "$SCRAM_USER" "$SCRAM_PASSWORD" "$tls_common" >"$CL/sasl-scram-$m.properties"
done
printf 'security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="%s" password="%s";\n%s\n' \
  "$LIMITED_USER" "$LIMITED_PASSWORD" "$tls_common" >"$CL/limited-scram-512.properties"
printf 'security.protocol=SSL\n%s\nssl.keystore.type=PKCS12\nssl.keystore.location=%s\nssl.keystore.password=%s\nssl.key.password=%s\n' \
  "$tls_common" "$CERTS/client.p12" "$STORE_PASSWORD" "$STORE_PASSWORD" >"$CL/ssl.properties"

# ---------------------------------------------------------------- env.sh
PID="$(kafka_node_pid "$WD" "$NODE_ID")"
{
  echo "# Generated by scripts/kafka/start-single.sh at $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "export KAFKA_LAYOUT=single"
  echo "export KAFKA_VERSION=$(kafka_q "$KAFKA_VERSION")"
  echo "export KAFKA_METADATA_MODE=$KAFKA_METADATA_MODE"
  echo "export KAFKA_ZOOKEEPER_CONNECT=$KAFKA_ZOOKEEPER_CONNECT"
  echo "export KAFKA_WORKDIR=$(kafka_q "$WD")"
  echo "export KAFKA_CLUSTER_ID=$(kafka_q "$CLUSTER_ID")"
  echo "export KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:$P_PLAIN"
  echo "export KAFKA_BOOTSTRAP_SASL_SSL=127.0.0.1:$P_SASL"
  echo "export KAFKA_BOOTSTRAP_SSL=127.0.0.1:$P_SSL"
  echo "export KAFKA_BOOTSTRAP_OAUTH=127.0.0.1:$P_OAUTH"
  echo "export KAFKA_OAUTH_SIGNING_KEY_PEM=$(kafka_q "$OAUTH/signing.key")"
  echo "export KAFKA_OAUTH_KEY_ID=$(kafka_q "$OAUTH_KEY_ID")"
  echo "export KAFKA_OAUTH_SUBJECT=$(kafka_q "$OAUTH_SUBJECT")"
  echo "export KAFKA_OAUTH_AUDIENCE=$(kafka_q "$OAUTH_AUDIENCE")"
  echo "export KAFKA_OAUTH_ISSUER=$(kafka_q "$OAUTH_ISSUER")"
  echo "export KAFKA_OAUTH_REAUTH_MS=$OAUTH_REAUTH_MS"
  echo "export KAFKA_CONTROLLER_ADDRESS=$CONTROLLER_ADDRESS"
  echo "export KAFKA_CA_PEM=$(kafka_q "$CERTS/ca.pem")"
  echo "export KAFKA_CLIENT_CERT_PEM=$(kafka_q "$CERTS/client.pem")"
  echo "export KAFKA_CLIENT_KEY_PEM=$(kafka_q "$CERTS/client.key")"
  echo "export KAFKA_SSL_CLIENT_PRINCIPAL=$(kafka_q "User:$CLIENT_CN")"
  echo "export KAFKA_SASL_PLAIN_USER=$(kafka_q "$PLAIN_USER")"
  echo "export KAFKA_SASL_PLAIN_PASSWORD=$(kafka_q "$PLAIN_PASSWORD")"
  echo "export KAFKA_SCRAM_USER=$(kafka_q "$SCRAM_USER")"
  echo "export KAFKA_SCRAM_PASSWORD=$(kafka_q "$SCRAM_PASSWORD")"
  echo "export KAFKA_LIMITED_USER=$(kafka_q "$LIMITED_USER")"
  echo "export KAFKA_LIMITED_PASSWORD=$(kafka_q "$LIMITED_PASSWORD")"
  echo "export KAFKA_SUPER_USERS=$(kafka_q "$SUPER_USERS")"
  echo "export KAFKA_CLIENT_CONFIG_DIR=$(kafka_q "$CL")"
  echo "export KAFKA_CLASSPATH=$(kafka_q "$KAFKA_CLASSPATH")"
  echo "export KAFKA_NODE_IDS=$NODE_ID"
  echo "export KAFKA_NODE_${NODE_ID}_PID=$PID"
  echo "export KAFKA_NODE_${NODE_ID}_BOOTSTRAP=127.0.0.1:$P_PLAIN"
  echo "export KAFKA_PID=$PID"
  echo "export KAFKA_PIDS=$PID"
  echo "export KAFKA_LOG_DIR=$(kafka_q "$ND/logs")"
} >"$WD/env.sh.tmp"
mv "$WD/env.sh.tmp" "$WD/env.sh"

kafka_log "Kafka $KAFKA_VERSION ($KAFKA_METADATA_MODE) single node up: PLAINTEXT 127.0.0.1:$P_PLAIN SASL_SSL 127.0.0.1:$P_SASL SSL 127.0.0.1:$P_SSL OAUTH 127.0.0.1:$P_OAUTH (pid $PID)"
kafka_log "timings: fetch $(awk -v a="$T_START" -v b="$T_FETCHED" 'BEGIN{printf "%.1f", b-a}')s, certs+format $(awk -v a="$T_FETCHED" -v b="$T_JVM" 'BEGIN{printf "%.1f", b-a}')s (format $(awk -v a="$T_FMT" -v b="$T_JVM" 'BEGIN{printf "%.1f", b-a}')s), broker start->ready $(awk -v a="$T_JVM" -v b="$T_READY" 'BEGIN{printf "%.1f", b-a}')s, total $(kafka_elapsed "$T_START")s"
kafka_log "env: source $WD/env.sh ; stop: scripts/kafka/stop.sh $WD"
