#!/usr/bin/env bash
# make demo: the whole workflow against an embedded broker. Needs Go and terraform.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/require-tools.sh" go terraform
cd "$root"
exec go run ./internal/demo
