#!/usr/bin/env bash
# make release-check: the same commit gives byte-identical release archives
# and SHA256SUMS. Builds a GoReleaser snapshot (unsigned, nothing published)
# from each of two fresh clones of HEAD, at different paths and with
# different file times, and compares every archive and the checksums byte
# for byte. Builds linux/amd64 only by default (RELEASE_CHECK_TARGETS: a
# comma-separated list of .goreleaser.yml targets, e.g.
# "linux_amd64_v1, darwin_arm64"), which is what a two-core machine does in
# a few minutes.
#
#   GORELEASER   the pinned module@version `go run` builds (GNUmakefile)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
goreleaser=${GORELEASER:?set GORELEASER=module@version (make release-check does)}
targets=${RELEASE_CHECK_TARGETS:-linux_amd64_v1}
head=$(git -C "$root" rev-parse HEAD)

work=$(mktemp -d "${TMPDIR:-/tmp}/release-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
for n in 1 2; do
  clone="$work/clone-$n"
  git clone --quiet --no-checkout "$root" "$clone"
  git -C "$clone" checkout --quiet "$head"
  # Different file times in each clone, as two checkouts on two days have.
  find "$clone" -path "$clone/.git" -prune -o -exec touch -h -d "@$((start - n * 86400))" {} +
  sed "s/^    targets: .*/    targets: [$targets]/" "$clone/.goreleaser.yml" >"$work/goreleaser-$n.yml"
  grep -q "^    targets: \[$targets\]" "$work/goreleaser-$n.yml" ||
    { echo "release-check: .goreleaser.yml has no one-line targets list to narrow" >&2; exit 1; }
  echo "release-check: snapshot $n of $head ($targets)" >&2
  (cd "$clone" && go run "$goreleaser" release --snapshot --clean --skip=sign,publish \
    --config "$work/goreleaser-$n.yml" >"$work/goreleaser-$n.log" 2>&1) ||
    { cat "$work/goreleaser-$n.log" >&2; echo "release-check: snapshot $n failed" >&2; exit 1; }
done

cd "$work/clone-1/dist"
artifacts=(*.zip *_SHA256SUMS)
[[ -e "${artifacts[0]}" ]] || { echo "release-check: snapshot 1 made no zip" >&2; exit 1; }
status=0
for f in "${artifacts[@]}"; do
  if cmp -s "$f" "$work/clone-2/dist/$f"; then
    echo "identical: $f"
  else
    echo "DIFFERENT: $f" >&2
    status=1
  fi
done
[[ $(cd "$work/clone-2/dist" && ls *.zip *_SHA256SUMS | wc -l) -eq ${#artifacts[@]} ]] ||
  { echo "release-check: the snapshots hold different sets of archives" >&2; status=1; }
sed 's/^/  /' "${artifacts[-1]}"
echo "release-check: $([[ $status == 0 ]] && echo passed || echo FAILED) in $(($(date +%s) - start))s"
exit $status
