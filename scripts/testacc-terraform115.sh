#!/usr/bin/env bash
# The acceptance suites (kfake) under Terraform 1.15.9, beside the terraform
# on PATH that `make test` uses: list resources (terraform query), actions
# and resource identity need 1.14 or later, and their tests skip below it.
# scripts/terraform115.sh says where the binary comes from.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(scripts/terraform115.sh)
echo "acceptance suites under $("$dir/terraform" version | sed -n 1p) ($dir/terraform)"
TF_ACC=1 TF_ACC_TERRAFORM_PATH=$dir/terraform go test -count=1 -timeout 30m \
  ./internal/resources/... ./internal/datasources/... ./internal/functions/... ./internal/actions/... ./examples/... .
