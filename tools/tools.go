//go:build tools

// Package tools pins the developer tools the provider's build runs with
// `go run -modfile=tools/go.mod`, in a module of their own so that their
// dependencies never reach the provider's go.mod.
package tools

import (
	_ "github.com/fsouza/fake-gcs-server"
	_ "github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs"
	_ "github.com/johannesboyne/gofakes3/cmd/gofakes3"
	_ "github.com/open-policy-agent/opa"
)
