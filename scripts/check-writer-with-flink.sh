#!/usr/bin/env bash
# Proves that real Flink reads the savepoints checkpoint.WriteSavepoint writes: for metadata
# version 4 with Flink 1.20 and version 5 with Flink 2.0, writes every variant of
# internal/checkpoint/cmd/writefixture, reads its recoveryMarker union state with Flink's State
# Processor API (fixturegen/flink/read.sh) and requires exactly the markers written, as a
# multiset, from the operator written.
#
#   scripts/check-writer-with-flink.sh [WORKDIR]
#
# Needs go, java (17+) and mvn; Flink comes from Maven Central on the first run (a few minutes),
# later runs take about a minute. WORKDIR (default: a temporary directory, removed on success)
# keeps the savepoints, oracle JSON and Flink logs. Any failure exits non-zero naming what failed.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
read_tool="$repo/fixturegen/flink/read.sh"

fail() {
  echo "check-writer-with-flink: FAIL: $*" >&2
  exit 1
}

missing=()
for tool in go java mvn; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
((${#missing[@]} == 0)) || fail "required tools not on PATH: ${missing[*]} (Go; JDK 17+ and Maven for Flink)"
[[ -x "$read_tool" ]] || fail "$read_tool is missing or not executable (the fixturegen/flink oracle reader)"

if [[ $# -gt 0 ]]; then
  work="$1"
  mkdir -p "$work"
  work="$(cd "$work" && pwd)"
  keep=1
else
  work="$(mktemp -d "${TMPDIR:-/tmp}/check-writer-with-flink.XXXXXX")"
  keep=0
fi
trap 'status=$?; if [[ $status -ne 0 || $keep -eq 1 ]]; then echo "check-writer-with-flink: files kept in $work" >&2; else rm -rf "$work"; fi' EXIT

start=$SECONDS
(cd "$repo" && go build -o "$work/writefixture" ./internal/checkpoint/cmd/writefixture) ||
  fail "building internal/checkpoint/cmd/writefixture"
variants="$("$work/writefixture" variants)"
[[ -n "$variants" ]] || fail "writefixture lists no variants"

checked=0
# metadata version : Flink line that writes it
for pair in 4:1.20 5:2.0; do
  version="${pair%%:*}"
  line="${pair#*:}"
  for variant in $variants; do
    dir="$work/v$version-$variant"
    rm -rf "$dir"
    uid="$("$work/writefixture" write -version "$version" -variant "$variant" -out "$dir")" ||
      fail "writing metadata version $version, variant $variant"
    t0=$SECONDS
    if ! "$read_tool" "$line" "$dir/savepoint" "$uid" >"$dir/oracle.json" 2>"$dir/read.log"; then
      tail -n 40 "$dir/read.log" >&2
      fail "Flink $line could not read the version $version savepoint ($variant); log: $dir/read.log"
    fi
    echo "check-writer-with-flink: Flink $line read v$version/$variant in $((SECONDS - t0)) s"
    "$work/writefixture" compare -flink-line "$line" "$dir/expected.json" "$dir/oracle.json" ||
      fail "Flink $line read other markers than written (metadata version $version, $variant)"
    checked=$((checked + 1))
  done
done
echo "check-writer-with-flink: OK: $checked savepoints read back exactly by real Flink in $((SECONDS - start)) s"
