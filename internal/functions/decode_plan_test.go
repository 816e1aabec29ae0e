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

// specPlan is the worked example of spec/cleanup-protocol.md.
func specPlan(t *testing.T) cleanupplan.Plan {
	t.Helper()
	p, err := cleanupplan.New("s3://ckpt/orders-agent/chk-42", "orders-agent-action-state", "T777oZ3_S3770WxeCDOv8A",
		cleanupplan.Offsets{0: 1200, 1: 1105, 2: 1290})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// decode_plan returns every field of the plan as typed values, the same
// for the Java tool's pretty file and for compact JSON.
func TestDecodePlanReturnsTheFields(t *testing.T) {
	p := specPlan(t)
	want := knownvalue.ObjectExact(map[string]knownvalue.Check{
		"schema_version":        knownvalue.Int64Exact(1),
		"plan_id":               knownvalue.StringExact("cb46aded392f6ae672e1bac6936a720420ffca1ae5d683a6698a3e55185d501b"),
		"source_recovery_point": knownvalue.StringExact("s3://ckpt/orders-agent/chk-42"),
		"topic":                 knownvalue.StringExact("orders-agent-action-state"),
		"topic_id":              knownvalue.StringExact("T777oZ3_S3770WxeCDOv8A"),
		"offsets": knownvalue.MapExact(map[string]knownvalue.Check{
			"0": knownvalue.Int64Exact(1200), "1": knownvalue.Int64Exact(1105), "2": knownvalue.Int64Exact(1290),
		}),
	})
	run(t, resource.TestStep{
		Config: fmt.Sprintf(`
output "file" {
  value = provider::flinkagents::decode_plan(%q)
}

output "compact" {
  value = provider::flinkagents::decode_plan(%q)
}

output "lowest_offset" {
  value = min(values(provider::flinkagents::decode_plan(%[1]q).offsets)...)
}
`, p.File(), p.CompactJSON()),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("file", want),
			statecheck.ExpectKnownOutputValue("compact", want),
			statecheck.ExpectKnownOutputValue("lowest_offset", knownvalue.Int64Exact(1105)),
		},
	})
}

// decode_plan refuses what the runtime's plan reader refuses, with the
// parser's own words.
func TestDecodePlanRefusesWhatTheRuntimeRefuses(t *testing.T) {
	file := string(specPlan(t).File())
	var steps []resource.TestStep
	for _, c := range []struct{ json, want string }{
		{file + "{}", `after the JSON object`},
		{strings.Replace(file, `"0" : 1200`, `"0" : 1201`, 1), `does not match`},
		{strings.Replace(file, `"1" : 1105`, `"01" : 1105`, 1), `not a canonical decimal partition number`},
		{strings.Replace(file, `"topic" : "orders-agent-action-state"`, `"topic" : "orders-agent-action-state", "topic" : "x"`, 1), `duplicate field "topic"`},
		{strings.Replace(file, `"T777oZ3_S3770WxeCDOv8A"`, `"AAAAAAAAAAAAAAAAAAAAAA"`, 1), `zero UUID`},
		{`[]`, `expected a JSON object`},
	} {
		steps = append(steps, resource.TestStep{
			Config:      fmt.Sprintf("output \"plan\" {\n  value = provider::flinkagents::decode_plan(%q)\n}\n", c.json),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)The plan cannot be read:.*` + strings.ReplaceAll(regexp.QuoteMeta(c.want), " ", `\s+`)),
		})
	}
	run(t, steps...)
}
