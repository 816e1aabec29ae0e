#!/usr/bin/env bash
# make test's second pass: the tests of Terraform 1.14+ features (list
# resources, the action, import by identity) skip below 1.14. When the
# terraform on PATH is 1.14 or later, make test's first pass ran them with
# it and there is nothing left to do; otherwise they run here under
# Terraform 1.15.9 (scripts/testacc-terraform115.sh), and a missing binary
# fails the run naming TERRAFORM_115_GZ: make test skips no suite.
set -euo pipefail
cd "$(dirname "$0")/.."
if scripts/terraform114.sh --on-path; then
  echo "the Terraform 1.14+ tests ran in the pass above, under $(terraform version | sed -n 1p) (on PATH)"
  exit 0
fi
echo "the terraform on PATH ($(terraform version | sed -n 1p)) is older than 1.14: its 1.14+ tests skipped above and run now under Terraform 1.15.9"
exec scripts/testacc-terraform115.sh
