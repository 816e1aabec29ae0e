package agentfleet_test

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// TestAccAgentFleetMigratesToFleetTopics is docs/guides/migrating.md, run:
// a fleet rolled out by agent-fleet as it was (two topic resources per
// operator, testdata/before-fleet-topics) with boundaries applied, then the
// module as it is. Its first plan refuses to create topics that exist and
// prints the import block; with it in the root module the plan lets the
// old resources go without destroying anything, imports every topic into
// flinkagents_action_state_topics, and changes no boundary. After the
// apply no topic was recreated (same topic IDs), every boundary is still
// recorded and in force, the plan is empty, and the next advance works.
func TestAccAgentFleetMigratesToFleetTopics(t *testing.T) {
	e := acctest.New(t)
	prefix := e.Name("migrate")
	ops := []string{"orders", "payments", "refunds"}
	topic := func(op, kind string) string { return fmt.Sprintf("%s-%s-%s", prefix, op, kind) }
	w := e.Workdir()
	before, current := w.ModuleSource("testdata/before-fleet-topics"), w.ModuleSource(".")
	config := func(source string, withPlans bool, extra string) string {
		var entries []string
		for _, op := range ops {
			plan := "null"
			if withPlans {
				plan = fmt.Sprintf("file(%q)", op+"-plan.json")
			}
			entries = append(entries, fmt.Sprintf("    %s = { plan_json = %s }", op, plan))
		}
		return fmt.Sprintf(`
%s
module "fleet" {
  source = %q

  prefix              = %q
  operators = {
%s
  }
  partitions          = 3
  deletion_protection = true
  bootstrap_servers   = [%s]
}
%s`, e.CLIProvider(), source, prefix, strings.Join(entries, "\n"), e.BrokersHCL(), extra)
	}
	w.Write("main.tf", config(before, false, ""))
	w.Terraform("init")
	w.Terraform("apply", "-auto-approve")

	ids := map[string]string{}
	plans := func(offset int64) {
		for _, op := range ops {
			data := topic(op, "action-state")
			ids[op] = liveTopicID(t, e, data)
			p, err := cleanupplan.New(fmt.Sprintf("file:/checkpoints/%s/chk-%d", op, offset), data, ids[op], cleanupplan.Offsets{0: offset, 1: offset, 2: offset})
			if err != nil {
				t.Fatal(err)
			}
			w.Write(op+"-plan.json", string(p.File()))
		}
	}
	for _, op := range ops {
		e.Produce(topic(op, "action-state"), 3, 10)
	}
	plans(4)
	w.Write("main.tf", config(before, true, ""))
	w.Terraform("apply", "-auto-approve")
	controlIDs := map[string]string{}
	for _, op := range ops {
		controlIDs[op] = liveTopicID(t, e, topic(op, "cleanup-control"))
	}

	// The module as it is: refused, with the import block's id.
	w.Write("main.tf", config(current, true, ""))
	w.Terraform("init")
	refused, err := w.TerraformErr("plan", "-no-color")
	flat := strings.Join(strings.Fields(string(refused)+fmt.Sprint(err)), " ")
	var parts []string
	for _, op := range ops {
		parts = append(parts, fmt.Sprintf("%s=%s:%s", op, topic(op, "action-state"), topic(op, "cleanup-control")))
	}
	sort.Strings(parts)
	importID := strings.Join(parts, ",")
	if err == nil || !strings.Contains(flat, "Fleet Topics Exist Already") || !strings.Contains(flat, fmt.Sprintf("id = %q", importID)) {
		t.Fatalf("first plan of the migration: %v, want the refusal printing id %q:\n%s", err, importID, refused)
	}

	imported := config(current, true, fmt.Sprintf(`
import {
  to = module.fleet.flinkagents_action_state_topics.this
  id = %q
}
`, importID))
	w.Write("main.tf", imported)
	out := w.Terraform("plan", "-no-color")
	for _, want := range []string{
		`module\.fleet\.flinkagents_action_state_topics\.this will be imported`,
		`module\.fleet\.flinkagents_action_state_topic\.this\["orders"\] (will no longer be managed by Terraform|will be removed from the OpenTofu state but will not be destroyed)`,
		`module\.fleet\.flinkagents_cleanup_control_topic\.this\["refunds"\] (will no longer be managed by Terraform|will be removed from the OpenTofu state but will not be destroyed)`,
		`Plan: 1 to import, 0 to add, 0 to change, 0 to destroy`,
	} {
		if !regexp.MustCompile(want).Match(out) {
			t.Errorf("migration plan does not say %s:\n%s", want, out)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	w.Terraform("apply", "-auto-approve")
	w.Write("main.tf", config(current, true, "")) // the import block has done its work
	if out := w.Terraform("plan", "-no-color", "-detailed-exitcode"); !regexp.MustCompile(`No changes`).Match(out) {
		t.Errorf("plan after the migration is not empty:\n%s", out)
	}
	for _, op := range ops {
		if now := liveTopicID(t, e, topic(op, "action-state")); now != ids[op] {
			t.Errorf("%s's action-state topic was recreated: ID %s, was %s", op, now, ids[op])
		}
		if now := liveTopicID(t, e, topic(op, "cleanup-control")); now != controlIDs[op] {
			t.Errorf("%s's control topic was recreated: ID %s, was %s", op, now, controlIDs[op])
		}
		for p, off := range e.StartOffsets(topic(op, "action-state")) {
			if off != 4 {
				t.Errorf("%s partition %d starts at %d, want its applied boundary 4", op, p, off)
			}
		}
	}

	// The next night advances every boundary through the migrated fleet.
	plans(7)
	w.Terraform("apply", "-auto-approve")
	for _, op := range ops {
		for p, off := range e.StartOffsets(topic(op, "action-state")) {
			if off != 7 {
				t.Errorf("after the next advance %s partition %d starts at %d, want 7", op, p, off)
			}
		}
	}

	// The fleet stays protected: removing an operator is refused at plan.
	ops = ops[:2]
	w.Write("main.tf", config(current, true, ""))
	if out, err := w.TerraformErr("plan", "-no-color"); err == nil || !strings.Contains(string(out)+fmt.Sprint(err), `Operator "refunds": Deletion Protection Is On`) {
		t.Errorf("removing an operator of the protected, migrated fleet: %v\n%s", err, out)
	}
}

// liveTopicID is topic's ID in Kafka.
func liveTopicID(t *testing.T, e *acctest.Env, topic string) string {
	t.Helper()
	d, err := e.Admin.DescribeTopic(context.Background(), topic)
	if err != nil {
		t.Fatal(err)
	}
	return d.ID.String()
}
