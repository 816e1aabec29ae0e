// Command permissionsguide rewrites the generated part of the "Required
// permissions" guide template from internal/permissions' table; go generate
// runs it before tfplugindocs renders the template into docs/.
//
//	go run ./internal/permissions/cmd/permissionsguide templates/guides/required-permissions.md.tmpl
package main

import (
	"fmt"
	"os"

	"github.com/actionstate/terraform-provider-flinkagents/internal/permissions"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: permissionsguide TEMPLATE")
		os.Exit(2)
	}
	file := os.Args[1]
	text, err := os.ReadFile(file)
	if err == nil {
		var updated string
		if updated, err = permissions.UpdateGuide(string(text)); err == nil {
			err = os.WriteFile(file, []byte(updated), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "permissionsguide: %s: %v\n", file, err)
		os.Exit(1)
	}
}
