#!/usr/bin/env bash
# Installs Terraform 1.15.9, the current stable line, and prints the
# directory holding it. The binary is the one the team builds from the
# public hashicorp/terraform tag v1.15.9 for linux/amd64, kept gzipped at
# TERRAFORM_115_GZ (default ../shared/tools/terraform.gz beside the
# repository), unpacked once into TERRAFORM_115_CACHE. A missing one fails,
# naming it. List resources, actions and resource identity need >= 1.14:
# the acceptance suites run under it (scripts/testacc-terraform115.sh) and
# tfplugindocs reads the provider's schema with it (generate.go).
set -euo pipefail
cd "$(dirname "$0")/.."
want=1.15.9
gz=${TERRAFORM_115_GZ:-$(cd .. && pwd)/shared/tools/terraform.gz}
cache=${TERRAFORM_115_CACHE:-$HOME/.cache/flinkagents-terraform/$want}
bin=$cache/terraform
if [[ ! -x $bin ]]; then
  if [[ ! -f $gz ]]; then
    echo "ERROR: Terraform $want not found: $gz does not exist." >&2
    echo "  Set TERRAFORM_115_GZ to a gzipped terraform $want for linux/amd64 (built from the hashicorp/terraform tag v$want)," >&2
    echo "  or TERRAFORM_115_CACHE to a directory holding an executable 'terraform' of that version." >&2
    exit 1
  fi
  mkdir -p "$cache"
  gunzip -c "$gz" >"$bin.tmp.$$"
  chmod +x "$bin.tmp.$$"
  mv "$bin.tmp.$$" "$bin"
fi
got=$("$bin" version -json | sed -n 's/.*"terraform_version": *"\([^"]*\)".*/\1/p')
if [[ $got != "$want" ]]; then
  echo "ERROR: $bin reports Terraform '$got', want $want (from $gz)" >&2
  exit 1
fi
echo "$cache"
