package functions_test

import (
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// run is an acceptance test of configurations that only call functions:
// no broker, the provider unconfigured (functions never configure it).
// Like every acceptance test it needs TF_ACC and the CLI, Terraform 1.8 or
// later (OpenTofu through scripts/opentofu.sh).
func run(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 to run it (make test does); it needs the terraform CLI")
	}
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		ProtoV6ProviderFactories: acctest.Factories,
		Steps:                    steps,
	})
}
