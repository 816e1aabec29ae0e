package agentoperator_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// TestAccAgentOperatorStateMovesIntoFleet applies the module's resources as
// they were addressed before it called agent-fleet (testdata/before-fleet),
// with a cleanup boundary, then plans with the module as it is: the moved
// blocks carry both topics to agent-fleet's old per-topic addresses, where
// its removed blocks let them go without a destroy; the first plan refuses
// to create the topics and prints the import block, and with it in the root
// module flinkagents_action_state_topics adopts them. No topic is replaced
// (its ID is the same after); the boundary, now an entry of agent-fleet's
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
	// The topics exist, so the fleet resource that now holds them refuses
	// to create them and prints the import block that adopts them (a child
	// module cannot hold one).
	control := prefix + "-orders-cleanup-control"
	importID := fmt.Sprintf("this=%s:%s", data, control)
	refused, err := w.TerraformErr("plan", "-no-color")
	if flat := strings.Join(strings.Fields(string(refused)+fmt.Sprint(err)), " "); err == nil || !strings.Contains(flat, "Fleet Topics Exist Already") || !strings.Contains(flat, fmt.Sprintf("id = %q", importID)) {
		t.Fatalf("plan without the import block: %v, want the refusal printing id %q:\n%s", err, importID, refused)
	}
	w.Write("main.tf", config(current, true)+fmt.Sprintf(`
import {
  to = module.operator["orders"].module.fleet.flinkagents_action_state_topics.this
  id = %q
}
`, importID))
	out := w.Terraform("plan", "-no-color")
	for _, moved := range []string{
		// Moved into agent-fleet's old address, then let go there.
		// Terraform's wording, then OpenTofu's.
		`(?s)module\.operator\["orders"\]\.module\.fleet\.flinkagents_action_state_topic\.this\["this"\] (will no longer be managed by Terraform|will be removed from the OpenTofu state but will not be destroyed).{0,200}moved from module\.operator\["orders"\]\.flinkagents_action_state_topic\.this`,
		`(?s)module\.operator\["orders"\]\.module\.fleet\.flinkagents_cleanup_control_topic\.this\["this"\] (will no longer be managed by Terraform|will be removed from the OpenTofu state but will not be destroyed).{0,200}moved from module\.operator\["orders"\]\.flinkagents_cleanup_control_topic\.this`,
		`module\.operator\["orders"\]\.flinkagents_cleanup_boundary\.this\[0\] (will no longer be managed by Terraform|will be removed from the OpenTofu state but will not be destroyed)`,
		// Adopted by the fleet resource: imported, and changed only where
		// the configuration differs from an import's defaults.
		`(?s)module\.operator\["orders"\]\.module\.fleet\.flinkagents_action_state_topics\.this will be updated in-place\s+# \(imported from "this=[^"]+"\)\s+~ resource "flinkagents_action_state_topics" "this" \{\s+~ deletion_protection = true -> false\s+id `,
		`(?s)module\.operator\["orders"\]\.module\.fleet\.flinkagents_cleanup_boundaries\.this will be created.*records_to_delete\s+= 0`,
	} {
		if !regexp.MustCompile(moved).Match(out) {
			t.Errorf("plan does not say %s:\n%s", moved, out)
		}
	}
	if !regexp.MustCompile(`Plan: 1 to import, 1 to add, 1 to change, 0 to destroy`).Match(out) {
		t.Fatalf("moving into agent-fleet plans a change:\n%s", out)
	}
	topicID := liveID(t, e, data)
	w.Terraform("apply", "-auto-approve")
	w.Write("main.tf", config(current, true)) // the import block has done its work
	if out := w.Terraform("plan", "-detailed-exitcode"); !regexp.MustCompile(`No changes`).Match(out) {
		t.Errorf("plan after the move is not empty:\n%s", out)
	}
	for part, off := range e.StartOffsets(data) {
		if off != 3 {
			t.Errorf("partition %d starts at %d after the move, want the boundary's 3", part, off)
		}
	}
	if now := liveID(t, e, data); now != topicID {
		t.Errorf("the action-state topic was recreated by the move: topic ID %s, was %s", now, topicID)
	}
}

// liveID is topic's ID in Kafka.
func liveID(t *testing.T, e *acctest.Env, topic string) string {
	t.Helper()
	d, err := e.Admin.DescribeTopic(context.Background(), topic)
	if err != nil {
		t.Fatal(err)
	}
	return d.ID.String()
}
