#!/usr/bin/env bash
# CI: regenerates one fixture per Flink line with real Flink (1.20 and the
# newest 2.x) and checks that the Go reader agrees with Flink's State
# Processor API on those fresh bytes (TestGeneratedFixturesMatchOracle with
# FLINK_FIXTURE_DIR pointing at them).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
"$root/scripts/require-tools.sh" go java mvn
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
start=$(date +%s)
"$root/fixturegen/flink/generate.sh" --quick "$out" 1.20 2.x
count=$(find "$out" -name oracle.json | wc -l)
if (( count < 2 )); then
  echo "ERROR: expected at least one fresh fixture per Flink line, found $count oracle.json under $out" >&2
  exit 1
fi
cd "$root"
FLINK_FIXTURE_DIR="$out" go test -count=1 -run 'TestGeneratedFixturesMatchOracle' -v ./internal/checkpoint/ | grep -E '^(=== RUN|--- |ok|FAIL|PASS)' 
echo "fixturegen ci-check: $count fresh fixtures agree with the Go reader in $(( $(date +%s) - start ))s"
