package agentoperator_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// TestAccAgentOperatorStateMovesIntoFleet applies the module's resources as
// they were addressed before it called agent-fleet (testdata/before-fleet),
// with a cleanup boundary, then plans with the module as it is: the moved
// blocks must carry both topics over with no change, and above all no
// replacement of a topic; the boundary, now an entry of agent-fleet's
// flinkagents_cleanup_boundaries, is let go without a destroy and taken
// over with nothing to delete.
func TestAccAgentOperatorStateMovesIntoFleet(t *testing.T) {
	e := acctest.New(t)
	prefix := e.Name("moved")
	data := prefix + "-orders-action-state"
	w := e.Workdir()
	before, current := w.ModuleSource("testdata/before-fleet"), w.ModuleSource(".")
	config := func(source string, withPlan bool) string {
		bootstrap := "" // the fixture has no such variable
		if source == current {
			bootstrap = fmt.Sprintf("bootstrap_servers = [%s]", e.BrokersHCL())
		}
		return fmt.Sprintf(`
%s
module "operator" {
  source   = %q
  for_each = toset(["orders"])

  prefix              = %q
  operator            = each.key
  partitions          = %d
  deletion_protection = false
  plan_json           = %t ? file("plan.json") : null
  %s
}
`, e.CLIProvider(), source, prefix, partitions, withPlan, bootstrap)
	}
	w.Write("main.tf", config(before, false))
	w.Terraform("init")
	t.Cleanup(func() { w.Terraform("destroy", "-auto-approve") })
	w.Terraform("apply", "-auto-approve")

	e.Produce(data, partitions, 5)
	id, err := e.Admin.DescribeTopic(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	p, err := cleanupplan.New("file:/checkpoints/orders/chk-7", data, id.ID.String(), cleanupplan.Offsets{0: 3, 1: 3, 2: 3})
	if err != nil {
		t.Fatal(err)
	}
	w.Write("plan.json", string(p.File()))
	w.Write("main.tf", config(before, true))
	w.Terraform("apply", "-auto-approve")

	w.Write("main.tf", config(current, true))
	w.Terraform("init")
	out := w.Terraform("plan", "-no-color")
	for _, moved := range []string{
		`module\.operator\["orders"\]\.flinkagents_action_state_topic\.this has moved to module\.operator\["orders"\]\.module\.fleet\.flinkagents_action_state_topic\.this\["this"\]`,
		`module\.operator\["orders"\]\.flinkagents_cleanup_control_topic\.this has moved to module\.operator\["orders"\]\.module\.fleet\.flinkagents_cleanup_control_topic\.this\["this"\]`,
		// Terraform's wording, then OpenTofu's.
		`module\.operator\["orders"\]\.flinkagents_cleanup_boundary\.this\[0\] (will no longer be managed by Terraform|will be removed from the OpenTofu state but will not be destroyed)`,
		`(?s)module\.operator\["orders"\]\.module\.fleet\.flinkagents_cleanup_boundaries\.this will be created.*records_to_delete\s+= 0`,
	} {
		if !regexp.MustCompile(moved).Match(out) {
			t.Errorf("plan does not say %s:\n%s", moved, out)
		}
	}
	if !regexp.MustCompile(`Plan: 1 to add, 0 to change, 0 to destroy`).Match(out) {
		t.Fatalf("moving into agent-fleet plans a change:\n%s", out)
	}
	w.Terraform("apply", "-auto-approve")
	if out := w.Terraform("plan", "-detailed-exitcode"); !regexp.MustCompile(`No changes`).Match(out) {
		t.Errorf("plan after the move is not empty:\n%s", out)
	}
	for part, off := range e.StartOffsets(data) {
		if off != 3 {
			t.Errorf("partition %d starts at %d after the move, want the boundary's 3", part, off)
		}
	}
}
