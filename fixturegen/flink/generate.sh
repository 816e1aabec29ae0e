#!/usr/bin/env bash
# Writes Flink checkpoint/savepoint fixtures with the Flink Agents recoveryMarker union state,
# each with an oracle.json of what Flink's State Processor API reads back.
#
#   fixturegen/flink/generate.sh [--quick] [--only NAME[,NAME]] [OUTDIR] [LINE...]
#
# OUTDIR defaults to internal/checkpoint/testdata/generated (relative to the repository root);
# LINE is one of 1.20 2.0 2.1 2.2 2.3, "2.x" (the newest 2.x line) or "all" (default: all).
# --quick writes one fixture per line (for CI). Needs only Java 17 and Maven: Flink comes from
# Maven Central on the first run. Lines run one after another (one JVM at a time).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
source "$here/lib.sh"

quick=()
only=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) quick=(--quick); shift ;;
    --only) only=(--only "$2"); shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    -*) echo "generate.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done

out="${1:-$repo/internal/checkpoint/testdata/generated}"
[[ $# -gt 0 ]] && shift
mkdir -p "$out"
out="$(cd "$out" && pwd)"

lines=()
for arg in "${@:-all}"; do
  case "$arg" in
    all) lines+=("${ALL_LINES[@]}") ;;
    2.x) lines+=("$NEWEST_2X") ;;
    *) lines+=("$(check_line "$arg")") ;;
  esac
done

total_start=$SECONDS
for line in "${lines[@]}"; do
  start=$SECONDS
  cp="$(build_line "$line")"
  # A fixed staging path keeps the absolute paths Flink records (file merging, shared/) stable.
  staging="${TMPDIR:-/tmp}/flink-fixturegen"
  run_java "$cp" io.github.actionstate.fixturegen.Generate \
    --out "$out" --staging "$staging" "${quick[@]}" "${only[@]}"
  echo "generate.sh: Flink line $line took $((SECONDS - start)) s"
done
echo "generate.sh: all done in $((SECONDS - total_start)) s, fixtures in $out"
