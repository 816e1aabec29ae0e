package functions_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// The documented examples that call the functions are valid
// configurations (terraform validate, with the provider's function
// signatures), and decode_plan's example runs: its check passes for a plan
// of the topic it names and its output holds the plan's fields.
func TestFunctionExamples(t *testing.T) {
	e := acctest.New(t)
	for _, example := range []string{
		"../../examples/functions/decode_plan/function.tf",
		"../../examples/functions/plan_id/function.tf",
		"../../examples/policies/terraform/checks.tf",
		"../../examples/resources/flinkagents_cleanup_boundary/resource.tf",
	} {
		t.Run(filepath.Base(filepath.Dir(example)), func(t *testing.T) {
			b, err := os.ReadFile(example)
			if err != nil {
				t.Fatal(err)
			}
			w := e.Workdir()
			w.Write("main.tf", e.CLIProvider()+string(b)+declaredElsewhere(string(b)))
			w.Terraform("init")
			w.Terraform("validate")
		})
	}
	t.Run("decode_plan runs", func(t *testing.T) {
		p, err := cleanupplan.New("s3://ckpt/orders-agent/chk-42", "orders-agent-action-state", "T777oZ3_S3770WxeCDOv8A", cleanupplan.Offsets{0: 1200, 1: 1105, 2: 1290})
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile("../../examples/functions/decode_plan/function.tf")
		if err != nil {
			t.Fatal(err)
		}
		w := e.Workdir()
		w.Write("main.tf", e.CLIProvider()+string(b))
		w.Write("plan.json", string(p.File()))
		w.Write("terraform.tfvars", "action_state_topic_id = \"T777oZ3_S3770WxeCDOv8A\"\n")
		w.Terraform("init")
		out := string(w.Terraform("apply", "-auto-approve", "-no-color", `-var=plan_json=`+string(p.File())))
		if strings.Contains(out, "Check block assertion failed") {
			t.Fatalf("the example's check failed for a plan of its topic:\n%s", out)
		}
		var boundary struct {
			PlanID string           `json:"plan_id"`
			From   string           `json:"from"`
			Lowest int64            `json:"lowest"`
			Offs   map[string]int64 `json:"offsets"`
		}
		w.Output("boundary", &boundary)
		if boundary.PlanID != p.ID() || boundary.From != p.SourceRecoveryPoint || boundary.Lowest != 1105 || boundary.Offs["2"] != 1290 {
			t.Fatalf("boundary output %+v", boundary)
		}
	})
}

// declaredElsewhere declares what the resource example refers to and
// defines in sibling examples, so it validates on its own.
func declaredElsewhere(example string) string {
	if !strings.Contains(example, "flinkagents_cleanup_control_topic.orders") {
		return ""
	}
	return `
resource "flinkagents_action_state_topic" "orders" {
  name       = "orders-agent-action-state"
  partitions = 12
}

resource "flinkagents_cleanup_control_topic" "orders" {
  name               = "orders-agent-cleanup-control"
  action_state_topic = flinkagents_action_state_topic.orders.name
}
`
}
