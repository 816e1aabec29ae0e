#!/usr/bin/env bash
# Prints the directory of a Terraform 1.14 or later, the oldest line that
# has list resources, actions and resource identity: the terraform on PATH
# when it is one, so a machine with a current Terraform needs nothing beside
# the clone; otherwise Terraform 1.15.9 from scripts/terraform115.sh
# (TERRAFORM_115_GZ), which fails naming what is missing.
#   scripts/terraform114.sh --on-path   exits 0 when the terraform on PATH is 1.14 or later, 1 when not;
#                                       prints nothing
set -euo pipefail
cd "$(dirname "$0")/.."

on_path=$(command -v terraform || true)
path_is_114=false
if [[ -n $on_path ]]; then
  version=$("$on_path" version -json 2>/dev/null | sed -n 's/.*"terraform_version": *"\([^"]*\)".*/\1/p')
  IFS=. read -r major minor _ <<<"$version"
  if [[ $major =~ ^[0-9]+$ && $minor =~ ^[0-9]+$ ]] && ((major > 1 || (major == 1 && minor >= 14))); then
    path_is_114=true
  fi
fi

if [[ ${1:-} == --on-path ]]; then
  $path_is_114
  exit
fi
if $path_is_114; then
  dirname "$on_path"
  exit 0
fi
exec scripts/terraform115.sh
