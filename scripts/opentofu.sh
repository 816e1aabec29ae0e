#!/usr/bin/env bash
# The acceptance suite (real CLI, in-process kfake broker) under OpenTofu
# instead of Terraform. `make testacc-opentofu` runs it; CI runs it after
# `make test`.
#
# OpenTofu is built from its Go module source at a pinned release, fetched
# through the Go module proxy like any other module (no binary download).
# `go install github.com/opentofu/opentofu/cmd/tofu@vX` refuses the module
# (its go.mod has replace directives), so the module is downloaded with
# `go mod download` and built inside its directory. The binary is cached:
# the first run builds for several minutes on two cores, later runs reuse it.
#
# Knobs:
#   OPENTOFU_VERSION   release to build (default below: the newest 1.x the
#                      proxy served when it was pinned; `go list -m -versions
#                      github.com/opentofu/opentofu` lists them)
#   OPENTOFU_CACHE     where binaries are kept, one directory per version
#                      (default ~/.cache/flinkagents-opentofu)
#   OPENTOFU_PACKAGES  the Go packages to test (default the resources, data
#                      sources, functions and module suites)
#   GOTEST             default `go test`
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
"$root/scripts/require-tools.sh" go

version=${OPENTOFU_VERSION:-1.12.6}
cache=${OPENTOFU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/flinkagents-opentofu}/$version
tofu=$cache/tofu
packages=${OPENTOFU_PACKAGES:-"./internal/resources/... ./internal/datasources/... ./internal/functions/... ./examples/modules/..."}
gotest=${GOTEST:-go test}

work=$(mktemp -d "${TMPDIR:-/tmp}/opentofu.XXXXXX")
trap 'rm -rf "$work"' EXIT

# An empty CLI configuration: the run depends on nothing in ~/.terraformrc
# or ~/.tofurc. It also matters for a TF_CLI_CONFIG_FILE that names a
# missing file: OpenTofu prints that warning on standard output, where it
# breaks the version parsing of terraform-plugin-testing.
export TF_CLI_CONFIG_FILE=$work/tofurc
: >"$TF_CLI_CONFIG_FILE"

# `sed -n 1p`, not `head -n 1`: head exits after one line, tofu then dies of
# SIGPIPE writing the rest, and under pipefail that fails the run (exit 141;
# it failed CI once, depending on which process the scheduler ran first).
built_version() {
  [[ -x $tofu ]] && "$tofu" version 2>/dev/null | sed -n 1p
}

if [[ $(built_version) != "OpenTofu v$version" ]]; then
  echo "opentofu: building OpenTofu $version from github.com/opentofu/opentofu@v$version (cached in $cache)"
  start=$(date +%s)
  # Outside any module, so nothing here touches go.mod or go.sum.
  dir=$(cd "$work" && GOWORK=off GOFLAGS=-mod=mod go mod download -json "github.com/opentofu/opentofu@v$version" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  if [[ ! -f $dir/cmd/tofu/main.go ]]; then
    echo "ERROR: go mod download did not give the source of github.com/opentofu/opentofu@v$version (got '$dir')" >&2
    exit 1
  fi
  mkdir -p "$cache"
  # version.dev=no: a release build, which reports "OpenTofu v<version>"
  # rather than a -dev version.
  (cd "$dir" && GOWORK=off GOFLAGS=-buildvcs=false CGO_ENABLED=0 go build -trimpath \
    -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" -o "$work/tofu" ./cmd/tofu)
  mv "$work/tofu" "$tofu"
  echo "opentofu: built in $(($(date +%s) - start))s"
fi
if [[ $(built_version) != "OpenTofu v$version" ]]; then
  echo "ERROR: $tofu reports '$(built_version)', want OpenTofu v$version" >&2
  exit 1
fi
"$tofu" version | sed -n 1p

# The in-process broker, whatever the environment says: the real-Kafka
# passes are scripts/testacc-kafka.sh's. Unqualified provider sources
# resolve on OpenTofu's registry, so the test harness serves the provider
# under registry.opentofu.org.
unset KAFKA_BOOTSTRAP_SERVERS FLINKAGENTS_ACC_PROVIDER_HCL
# The scheduled-cleanup pipeline test (examples/modules/agent-fleet, tag
# interop) checks every retained point with the runtime's restore check,
# which the interop jar runs.
"$root/scripts/build-interop.sh"
export FLINKAGENTS_INTEROP_JAR=$root/interop/java/target/flinkagents-interop.jar
start=$(date +%s)
# shellcheck disable=SC2086 # packages and gotest are word lists
TF_ACC=1 TF_ACC_TERRAFORM_PATH="$tofu" TF_ACC_PROVIDER_HOST=registry.opentofu.org \
  $gotest -tags interop -count=1 -timeout 30m $packages
echo "opentofu: acceptance suite under OpenTofu $version passed in $(($(date +%s) - start))s"
