#!/usr/bin/env bash
# make install: builds the provider from this checkout and installs it where
# `terraform init` looks before any registry, so configurations (with modules,
# with a lock file) init and run without dev_overrides while the provider is
# not published.
#
#   scripts/install.sh [PLUGIN_DIR]    default: ~/.terraform.d/plugins
#
# ~/.terraform.d/plugins is Terraform's implied local mirror directory (and
# OpenTofu's); any directory works as well when a CLI configuration names it
# in a filesystem_mirror block. The provider goes in under both registry
# hosts, since OpenTofu resolves "actionstate/flinkagents" on its own.
#
# The version is the next release's (the first version heading in
# CHANGELOG.md) plus "+local." and 8 hex digits of the binary's SHA-256: it
# matches constraints such as "~> 0.1" (a prerelease such as 0.1.0-dev would
# match only an exact one), and each different build is a different version,
# so after installing a new build `terraform init -upgrade` moves a lock file
# to it (a same-version package with a new checksum is refused even then).
# Earlier local builds are removed: versions that differ only after "+" rank
# equal, and Terraform could pick either.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
plugins=${1:-$HOME/.terraform.d/plugins}

base=$(sed -n 's/^## \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' CHANGELOG.md | head -n 1)
[[ -n "$base" ]] || { echo "install: no version heading (## X.Y.Z) in CHANGELOG.md" >&2; exit 1; }
os_arch="$(go env GOOS)_$(go env GOARCH)"
exe=$(go env GOEXE)

work=$(mktemp -d "${TMPDIR:-/tmp}/flinkagents-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
go build -ldflags "-X main.version=$base+local" -o "$work/provider$exe" .
if command -v sha256sum >/dev/null; then
  sum=$(sha256sum "$work/provider$exe")
else
  sum=$(shasum -a 256 "$work/provider$exe") # macOS
fi
version="$base+local.${sum:0:8}"

for host in registry.terraform.io registry.opentofu.org; do
  dir="$plugins/$host/actionstate/flinkagents"
  rm -rf "$dir"/*+local.*
  mkdir -p "$dir/$version/$os_arch"
  cp "$work/provider$exe" "$dir/$version/$os_arch/terraform-provider-flinkagents_v$version$exe"
done

echo "installed actionstate/flinkagents $version ($os_arch) in $plugins"
echo "terraform init now finds it there, with no registry and no dev_overrides."
echo "after a later 'make install', run 'terraform init -upgrade' where a lock file names this build."
