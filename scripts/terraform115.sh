#!/usr/bin/env bash
# Installs Terraform 1.15.9, the current stable line, and prints the
# directory holding it. The binary is the one the team builds from the
# public hashicorp/terraform tag v1.15.9 for linux/amd64, kept gzipped at
# TERRAFORM_115_GZ, unpacked once into TERRAFORM_115_CACHE. There is no
# default: only .ci/run names the team's copy (kept outside the
# clone), so a clone never depends on it silently. A missing one fails,
# naming the variable. Needed only where the terraform on PATH is older than
# 1.14 (scripts/terraform114.sh) and by `make testacc-terraform115`.
set -euo pipefail
cd "$(dirname "$0")/.."
want=1.15.9
gz=${TERRAFORM_115_GZ:-}
cache=${TERRAFORM_115_CACHE:-$HOME/.cache/flinkagents-terraform/$want}
bin=$cache/terraform
if [[ ! -x $bin ]]; then
  if [[ ! -f $gz ]]; then
    if [[ -z $gz ]]; then
      echo "ERROR: Terraform $want not found: TERRAFORM_115_GZ is not set and $bin does not exist." >&2
    else
      echo "ERROR: Terraform $want not found: TERRAFORM_115_GZ=$gz does not exist." >&2
    fi
    echo "  Set TERRAFORM_115_GZ to a gzipped terraform $want for linux/amd64 (built from the hashicorp/terraform tag v$want)," >&2
    echo "  or TERRAFORM_115_CACHE to a directory holding an executable 'terraform' of that version." >&2
    echo "  make test and make generate need neither when the terraform on PATH is 1.14 or later." >&2
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
