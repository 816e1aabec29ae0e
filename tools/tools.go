//go:build tools

// Package tools pins the developer tools the provider's build runs with
// `go run -modfile=tools/go.mod`, in a module of their own so that their
// dependencies never reach the provider's go.mod.
package tools

import (
	_ "github.com/golangci/golangci-lint/v2/cmd/golangci-lint"
	_ "github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs"
	_ "golang.org/x/tools/cmd/deadcode"
)
