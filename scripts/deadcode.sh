#!/usr/bin/env bash
# Fails on functions no program of this module reaches (dead, or used only
# by tests while living in a production package). Test-support packages,
# which only tests import, are exempt. Usage: scripts/deadcode.sh PKG@VERSION
set -euo pipefail
cd "$(dirname "$0")/.."
report=$(go run "$1" ./... | grep -v -E '^internal/(acctest|emulators|javatool|saslauth/saslauthtest|checkpointstore/stalltest)/' || true)
if [[ -n $report ]]; then
  echo "deadcode: unreachable from every program (delete it, or move test-only code into a test-support package):" >&2
  echo "$report" >&2
  exit 1
fi
echo "deadcode: nothing unreachable"
