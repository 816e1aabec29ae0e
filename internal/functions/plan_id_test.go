package functions_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// plan_id is the runtime's plan ID: the spec's second vector (checked
// against Java by the interop suite), partitions in numeric order (2
// before 10), and the ID decode_plan reads from the same plan's file.
func TestPlanIDIsTheRuntimes(t *testing.T) {
	p, err := cleanupplan.New("file:/data/Zürich & <ops>/chk-1", "agents.ä-topic", "q1Yw3mZ7QGu3c8m0b7o5Zg", cleanupplan.Offsets{2: 9, 10: 1, 1: 0})
	if err != nil {
		t.Fatal(err)
	}
	run(t, resource.TestStep{
		Config: fmt.Sprintf(`
output "spec_vector" {
  value = provider::flinkagents::plan_id("file:/var/flink/checkpoints/7f3a/chk-42", "orders-agent-action-state", "q1Yw3mZ7QGu3c8m0b7o5Zg", { "0" = 150, "1" = 100, "2" = 0 })
}

output "numeric_order" {
  value = provider::flinkagents::plan_id(%q, %q, %q, { "10" = 1, "2" = 9, "1" = 0 })
}

output "decoded" {
  value = provider::flinkagents::decode_plan(%q).plan_id
}
`, p.SourceRecoveryPoint, p.Topic, p.TopicID, p.File()),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("spec_vector", knownvalue.StringExact("a5440177c24ca86c94163d0a3254bca95d7c4e4d3cc3671b267c8e68797adac4")),
			statecheck.ExpectKnownOutputValue("numeric_order", knownvalue.StringExact(p.ID())),
			statecheck.ExpectKnownOutputValue("decoded", knownvalue.StringExact(p.ID())),
		},
	})
}

// plan_id refuses contents the runtime would refuse as a plan.
func TestPlanIDRefusesWhatTheRuntimeRefuses(t *testing.T) {
	var steps []resource.TestStep
	for _, c := range []struct{ args, want string }{
		{`"chk-1", "t", "q1Yw3mZ7QGu3c8m0b7o5Zg", { "01" = 5 }`, `key "01" is not a canonical decimal partition number`},
		{`"chk-1", " \t", "q1Yw3mZ7QGu3c8m0b7o5Zg", { "0" = 5 }`, `topic must not be blank`},
		{`"chk-1", "t", "AAAAAAAAAAAAAAAAAAAAAA", { "0" = 5 }`, `zero UUID`},
		{`"chk-1", "t", "q1Yw3mZ7QGu3c8m0b7o5Zg", { "0" = -1 }`, `partition 0 has negative offset -1`},
		{`"chk-1", "t", "q1Yw3mZ7QGu3c8m0b7o5Zg", {}`, `offsets must not be empty`},
	} {
		steps = append(steps, resource.TestStep{
			Config:      fmt.Sprintf("output \"id\" {\n  value = provider::flinkagents::plan_id(%s)\n}\n", c.args),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(strings.ReplaceAll(regexp.QuoteMeta(c.want), " ", `\s+`)),
		})
	}
	run(t, steps...)
}

// In a precondition: a plan whose plan_id is not the ID of what it says it
// holds is stopped before anything is planned around it, and one whose ID
// matches passes.
func TestFunctionsInAPrecondition(t *testing.T) {
	p, err := cleanupplan.New("s3://ckpt/orders-agent/chk-42", "orders-agent-action-state", "T777oZ3_S3770WxeCDOv8A", cleanupplan.Offsets{0: 1200, 1: 1105, 2: 1290})
	if err != nil {
		t.Fatal(err)
	}
	config := func(approved string) string {
		return fmt.Sprintf(`
locals {
  plan     = provider::flinkagents::decode_plan(%q)
  approved = %q
}

resource "terraform_data" "boundary" {
  input = local.plan.plan_id

  lifecycle {
    precondition {
      condition     = local.plan.plan_id == local.approved
      error_message = "Plan ${local.plan.plan_id} (${local.plan.source_recovery_point}) is not the approved one."
    }
  }
}
`, p.File(), approved)
	}
	run(t,
		resource.TestStep{Config: config("0000"), PlanOnly: true, ExpectError: regexp.MustCompile(`is not the approved one`)},
		resource.TestStep{Config: config(p.ID())},
	)
}
