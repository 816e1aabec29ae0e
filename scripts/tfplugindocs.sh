#!/usr/bin/env bash
# Runs tfplugindocs with Terraform 1.15.9 first on PATH: tfplugindocs reads
# the provider's schema through `terraform providers schema -json`, and only
# a Terraform >= 1.14 reports list resources and actions, so an older one
# would leave their pages out (scripts/terraform115.sh says where the binary
# comes from).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(scripts/terraform115.sh)
PATH=$dir:$PATH exec go run -modfile=tools/go.mod github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs generate --provider-dir . --provider-name flinkagents
