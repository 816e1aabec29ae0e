#!/usr/bin/env bash
# Prints the oracle JSON (what Flink's State Processor API reads from the recoveryMarker union
# state) for any checkpoint or savepoint.
#
#   fixturegen/flink/read.sh LINE PATH (UID | UID-HASH | auto) [--base DIR]
#
# LINE: 1.20 2.0 2.1 2.2 2.3 or 2.x (newest 2.x). PATH: a savepoint or chk-N directory, or its
# _metadata file. auto picks the only operator holding a recoveryMarker state. With --base,
# snapshotPath in the output is relative to DIR. Build output goes to stderr, JSON to stdout.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/lib.sh"

if [[ $# -ne 3 && $# -ne 5 ]]; then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
line="$(check_line "$1")"
shift
cp="$(build_line "$line")"
run_java "$cp" io.github.actionstate.fixturegen.Read "$@"
