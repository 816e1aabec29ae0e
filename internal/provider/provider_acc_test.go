package provider

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/saslauth/saslauthtest"
)

// testAccProtoV6ProviderFactories serves the provider in-process to the
// Terraform CLI that terraform-plugin-testing drives.
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	TypeName: providerserver.NewProtocol6WithError(New("test")()),
}

// requireTerraform points terraform-plugin-testing at the terraform on PATH.
// Without TF_ACC the test is skipped, so a plain `go test ./...` needs Go
// alone (`make test` sets it). With TF_ACC, a missing terraform fails the
// test, loudly: the harness would otherwise try to download one, which
// fails offline with a confusing error.
func requireTerraform(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs the terraform CLI: set TF_ACC=1 (make test does)")
	}
	if os.Getenv("TF_ACC_TERRAFORM_PATH") != "" {
		return
	}
	bin, err := exec.LookPath("terraform")
	if err != nil {
		t.Fatalf("terraform CLI not found on PATH (%v): install Terraform >= 1.0 or set TF_ACC_TERRAFORM_PATH; "+
			"these tests run the real CLI against the provider", err)
	}
	t.Setenv("TF_ACC_TERRAFORM_PATH", bin)
}

// TestAccProviderBlockOnly plans a configuration that has nothing but the
// provider block. Terraform prunes a provider nothing uses, so this proves
// only that the schema loads and the block is accepted; the probe test
// below reaches Configure.
func TestAccProviderBlockOnly(t *testing.T) {
	requireTerraform(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "flinkagents" {
  bootstrap_servers = ["127.0.0.1:1"]
  tls {}
  sasl {
    mechanism = "PLAIN"
    username  = "terraform"
    password  = "secret"
  }
}
`,
			PlanOnly: true,
		}},
	})
}

// TestAccConfigureWithoutBroker runs the real CLI through validate, plan,
// apply and refresh with a provider pointed at a port nothing listens on:
// none of it may need the broker. resource.UnitTest runs without TF_ACC
// because nothing here needs a cluster.
func TestAccConfigureWithoutBroker(t *testing.T) {
	requireTerraform(t)
	pki := newTestPKI(t)
	caFile := writeFile(t, "ca.pem", pki.caPEM)
	unreachable := closedAddress(t)
	t.Setenv(bootstrapServersEnv, "kafka-a:9092,kafka-b:9092")
	probe := func(provider string, buildClient bool) string {
		return provider + fmt.Sprintf(`
data "flinkagents_probe" "this" {
  build_client = %t
}
`, buildClient)
	}
	brokers := func(want ...string) statecheck.StateCheck {
		values := make([]knownvalue.Check, len(want))
		for i, w := range want {
			values[i] = knownvalue.StringExact(w)
		}
		return statecheck.ExpectKnownValue("data.flinkagents_probe.this",
			tfjsonpath.New("bootstrap_servers"), knownvalue.ListExact(values))
	}

	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: map[string]func() (tfprotov6.ProviderServer, error){
			TypeName: providerserver.NewProtocol6WithError(newProbeProvider()),
		},
		Steps: []resource.TestStep{
			{
				// Invalid configurations first: the harness destroys with the
				// last step's configuration, which must be valid.
				Config: probe(`
provider "flinkagents" {
  tls {
    ca_pem = "/nonexistent/ca.pem"
  }
}
`, false),
				ExpectError: regexp.MustCompile(`Invalid TLS Configuration`),
			},
			{
				Config: probe(`
provider "flinkagents" {
  sasl {
    mechanism = "SCRAM-SHA-256"
    username  = "terraform"
  }
}
`, false),
				ExpectError: regexp.MustCompile(`Missing SASL Attribute`),
			},
			{
				Config:      probe(`provider "flinkagents" { timeout = "forever" }`, false),
				ExpectError: regexp.MustCompile(`Invalid Timeout`),
			},
			{
				// The Mongey provider's number form: Terraform converts 120 to "120".
				Config: probe(`provider "flinkagents" { timeout = 120 }`, false),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue("data.flinkagents_probe.this",
					tfjsonpath.New("timeout"), knownvalue.StringExact("2m0s"))},
			},
			{
				Config: probe(fmt.Sprintf(`
provider "flinkagents" {
  bootstrap_servers = [%q]
  client_id         = "acceptance"
  timeout           = "5s"

  tls {
    ca_pem   = %q
    cert_pem = <<-EOT
%sEOT
    key_pem  = <<-EOT
%sEOT
  }

  sasl {
    mechanism = "SCRAM-SHA-512"
    username  = "terraform"
    password  = "secret"
  }
}
`, unreachable, caFile, pki.clientCertPEM, pki.clientKeyPEM), true),
				ConfigStateChecks: []statecheck.StateCheck{brokers(unreachable)},
			},
			{
				Config:            probe(`provider "flinkagents" {}`, true),
				ConfigStateChecks: []statecheck.StateCheck{brokers("kafka-a:9092", "kafka-b:9092")},
			},
		},
	})
}

// TestAccNoBootstrapServersFailsAtFirstUse checks the error is reported
// where Kafka is first needed, naming both ways to fix it.
func TestAccNoBootstrapServersFailsAtFirstUse(t *testing.T) {
	requireTerraform(t)
	t.Setenv(bootstrapServersEnv, "")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: map[string]func() (tfprotov6.ProviderServer, error){
			TypeName: providerserver.NewProtocol6WithError(newProbeProvider()),
		},
		Steps: []resource.TestStep{{
			Config: `
provider "flinkagents" {}

data "flinkagents_probe" "this" {
  build_client = true
}
`,
			ExpectError: regexp.MustCompile(`(?s)Provider Configuration Incomplete.*KAFKA_BOOTSTRAP_SERVERS`),
		}},
	})
}

// TestAccCredentialsFetchedAtFirstUse runs the real CLI with providers that
// fetch their credentials: OAuth client credentials against a token
// endpoint and an assumed AWS role against STS, both served on 127.0.0.1.
// Refusals surface at the first operation that needs Kafka with their own
// diagnostics; the secrets come from sensitive variables and the
// environment, as in a pipeline.
func TestAccCredentialsFetchedAtFirstUse(t *testing.T) {
	requireTerraform(t)
	saslauthtest.IsolateAWS(t)
	tokens := newTokenServer(t)
	sts := saslauthtest.NewSTS(t)
	sts.Refuse("AccessDenied")
	t.Setenv("AWS_ENDPOINT_URL_STS", sts.URL)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIAACCTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "acc-secret")
	t.Setenv(bootstrapServersEnv, closedAddress(t))
	t.Setenv(saslTokenURLEnv, tokens.URL)
	t.Setenv(saslUsernameEnv, "terraform")

	probe := func(provider string) string {
		return "variable \"client_secret\" {\n  type      = string\n  sensitive = true\n}\n" + provider +
			"\ndata \"flinkagents_probe\" \"this\" {\n  build_client = true\n}\n"
	}
	oauth := func(secret string) config.Variables {
		return config.Variables{"client_secret": config.StringVariable(secret)}
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: map[string]func() (tfprotov6.ProviderServer, error){
			TypeName: providerserver.NewProtocol6WithError(newProbeProvider()),
		},
		Steps: []resource.TestStep{
			{
				Config: probe(`
provider "flinkagents" {
  sasl {
    mechanism     = "OAUTHBEARER"
    client_secret = var.client_secret # token_url and client_id from the environment
  }
}
`),
				ConfigVariables: oauth("wrong-secret"),
				ExpectError:     regexp.MustCompile(`(?s)OAuth Token Request Failed.*invalid_client`),
			},
			{
				Config: probe(`
provider "flinkagents" {
  sasl {
    mechanism            = "AWS_MSK_IAM"
    aws_role_arn         = "arn:aws:iam::111122223333:role/kafka"
    aws_role_external_id = "ext-1"
    aws_region           = "eu-west-1"
  }
}
`),
				ConfigVariables: oauth("unused"),
				ExpectError:     regexp.MustCompile(`(?s)AWS Role Assumption Denied.*arn:aws:iam::111122223333:role/kafka`),
			},
			{
				Config: probe(`
provider "flinkagents" {
  sasl {
    mechanism     = "OAUTHBEARER"
    client_secret = var.client_secret
  }
}
`),
				ConfigVariables: oauth("right-secret"),
				Check: func(*terraform.State) error {
					if len(tokens.Issued()) == 0 {
						return fmt.Errorf("no token was fetched when the client was built")
					}
					return nil
				},
			},
		},
	})
}
