// Command terraform-provider-flinkagents serves the flinkagents provider to
// Terraform over plugin protocol 6.
package main

import (
	"context"
	"flag"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/actionstate/terraform-provider-flinkagents/internal/provider"
)

// version is "dev" in local builds; goreleaser sets the release version with
// -ldflags "-X main.version=...".
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false,
		"serve in debug mode for a debugger such as delve; prints TF_REATTACH_PROVIDERS to use with Terraform")
	flag.Parse()
	tuneGC(os.Getenv)
	if err := quietUnlessLogging(os.Getenv, os.Setenv); err != nil {
		log.Fatal(err)
	}

	stopProfile, err := startProfile()
	if err != nil {
		log.Fatal(err)
	}
	err = providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/actionstate/" + provider.TypeName,
		Debug:   debug,
	})
	stopProfile()
	if err != nil {
		log.Fatal(err)
	}
}
