package main

// Documentation: docs/ is generated from the provider schema, templates/ and
// examples/, and committed. tfplugindocs uses the terraform on PATH (it would
// download one otherwise, which fails offline): scripts/tfplugindocs.sh puts a
// Terraform 1.14 or later first, the oldest line that reports list resources
// and actions (the one on PATH when it is one, else 1.15.9 from
// TERRAFORM_115_GZ); terraform fmt uses the one on PATH, so the first line
// insists on it.
// The tables of the "Required permissions" guide are written into its template
// from internal/permissions first, so the guide and the data source share them.
//go:generate sh -c "command -v terraform >/dev/null || { echo 'go generate: terraform must be on PATH for tfplugindocs' >&2; exit 1; }"
//go:generate terraform fmt -recursive ./examples/
//go:generate go run ./internal/permissions/cmd/permissionsguide templates/guides/required-permissions.md.tmpl
//go:generate scripts/tfplugindocs.sh
