#!/usr/bin/env bash
# Start or stop Azurite (the Azure Storage emulator, blob service only) on
# 127.0.0.1 for the checkpoint-storage tests.
#
# Usage: scripts/azurite.sh start <dir>
#        scripts/azurite.sh stop <dir>
#
# start installs the pinned npm package into $AZURITE_CACHE_DIR (default
# ~/.cache/flinkagents-azurite/<version>) when it is missing, starts the blob
# service on a free loopback port with its data under <dir>/data, waits until
# it accepts connections, and writes <dir>/env.sh:
#
#   AZURITE_BLOB_ENDPOINT      http://127.0.0.1:<port>/devstoreaccount1
#   AZURITE_ACCOUNT            devstoreaccount1
#   AZURITE_KEY                the emulator's well-known, published key
#   AZURITE_CONNECTION_STRING  a connection string for the above
#
# Tests read these variables; `source <dir>/env.sh` sets them in a shell.
# stop ends the process recorded in <dir>/azurite.pid, and only that one.
set -euo pipefail

AZURITE_VERSION="${AZURITE_VERSION:-3.37.0}"
AZURITE_CACHE_DIR="${AZURITE_CACHE_DIR:-${HOME:?HOME is not set}/.cache/flinkagents-azurite/$AZURITE_VERSION}"
# Public development credentials documented by Microsoft for every Azurite.
ACCOUNT=devstoreaccount1
KEY='Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='

die() { echo "azurite.sh: $*" >&2; exit 1; }
log() { echo "azurite.sh: $*" >&2; }

[[ $# -eq 2 ]] || { echo "usage: $0 start|stop <dir>" >&2; exit 2; }
CMD="$1"
mkdir -p "$2"
DIR="$(cd "$2" && pwd -P)"
PIDFILE="$DIR/azurite.pid"

alive() { [[ -n "$1" ]] && kill -0 "$1" 2>/dev/null; }

install() {
  command -v node >/dev/null 2>&1 || die "node is not installed; Azurite needs Node.js 18+ and npm (Debian: apt-get install nodejs npm)"
  command -v npm >/dev/null 2>&1 || die "npm is not installed; Azurite is installed with npm (Debian: apt-get install npm)"
  local bin="$AZURITE_CACHE_DIR/node_modules/.bin/azurite-blob"
  local main="$AZURITE_CACHE_DIR/node_modules/azurite/dist/src/blob/main.js"
  mkdir -p "$AZURITE_CACHE_DIR"
  # Two test processes starting Azurite at once must not run npm into the
  # same directory at once (that leaves a half-removed install behind).
  exec 8>"$AZURITE_CACHE_DIR/.lock"
  command -v flock >/dev/null 2>&1 && flock 8
  if [[ ! -x "$bin" || ! -f "$main" ]]; then
    log "installing azurite@$AZURITE_VERSION into $AZURITE_CACHE_DIR"
    rm -rf "$AZURITE_CACHE_DIR/node_modules" # a partial install is not repaired by npm
    npm install --prefix "$AZURITE_CACHE_DIR" --no-audit --no-fund --loglevel=error "azurite@$AZURITE_VERSION" >&2 ||
      die "npm install azurite@$AZURITE_VERSION failed"
    [[ -x "$bin" && -f "$main" ]] || die "npm installed azurite but $bin or $main is missing"
  fi
  exec 8>&-
  echo "$bin"
}

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start() {
  if [[ -f "$PIDFILE" ]] && alive "$(cat "$PIDFILE")"; then
    die "Azurite already running for $DIR (pid $(cat "$PIDFILE")); stop it first"
  fi
  local bin port pid
  bin="$(install)"
  mkdir -p "$DIR/data"
  # A free port can be taken between choosing and binding it: try a few.
  for attempt in 1 2 3 4 5; do
    port="$(free_port)"
    setsid "$bin" --blobHost 127.0.0.1 --blobPort "$port" --location "$DIR/data" \
      --skipApiVersionCheck --disableProductStyleUrl --silent \
      >"$DIR/azurite.log" 2>&1 </dev/null &
    pid=$!
    for ((i = 0; i < 200; i++)); do
      listening "$port" && break
      alive "$pid" || break
      sleep 0.1
    done
    if alive "$pid" && listening "$port"; then
      echo "$pid" >"$PIDFILE"
      local endpoint="http://127.0.0.1:$port/$ACCOUNT"
      cat >"$DIR/env.sh" <<EOF
export AZURITE_BLOB_ENDPOINT='$endpoint'
export AZURITE_ACCOUNT='$ACCOUNT'
export AZURITE_KEY='$KEY'
export AZURITE_CONNECTION_STRING='DefaultEndpointsProtocol=http;AccountName=$ACCOUNT;AccountKey=$KEY;BlobEndpoint=$endpoint;'
EOF
      log "Azurite $AZURITE_VERSION blob service on $endpoint (pid $pid); env in $DIR/env.sh"
      cat "$DIR/env.sh"
      return 0
    fi
    alive "$pid" && kill "$pid" 2>/dev/null || true
    log "attempt $attempt on port $port failed: $(tail -n 5 "$DIR/azurite.log" 2>/dev/null)"
  done
  die "Azurite did not start; see $DIR/azurite.log"
}

stop() {
  [[ -f "$PIDFILE" ]] || { log "no $PIDFILE: nothing to stop"; return 0; }
  local pid
  pid="$(cat "$PIDFILE")"
  if alive "$pid"; then
    kill "$pid"
    for ((i = 0; i < 50; i++)); do alive "$pid" || break; sleep 0.1; done
    alive "$pid" && kill -KILL "$pid"
  fi
  rm -f "$PIDFILE"
  log "stopped pid $pid"
}

case "$CMD" in
  start) start ;;
  stop) stop ;;
  *) die "unknown command '$CMD' (want start or stop)" ;;
esac
