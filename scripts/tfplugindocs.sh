#!/usr/bin/env bash
# Runs tfplugindocs with a Terraform 1.14 or later first on PATH: tfplugindocs
# reads the provider's schema through `terraform providers schema -json`, and
# only 1.14+ reports list resources and actions, so an older one would leave
# their pages out. scripts/terraform114.sh picks the terraform on PATH when it
# is one, else Terraform 1.15.9 (TERRAFORM_115_GZ).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(scripts/terraform114.sh)
PATH=$dir:$PATH exec go run -modfile=tools/go.mod github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs generate --provider-dir . --provider-name flinkagents
