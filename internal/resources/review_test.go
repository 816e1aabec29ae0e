package resources_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
)

const requiredProviders = "terraform {\n  required_providers {\n    flinkagents = { source = \"actionstate/flinkagents\" }\n  }\n}\n"

// TestCleanupBoundaryPlanIsReviewable measures what a reviewer reads: the
// `terraform plan` of advancing every partition of a 64-partition boundary.
// The boundary's change must fit in 150 lines (each partition once in
// plan_json's offsets and once in partitions), hide nothing behind
// "(sensitive value)", and key partitions in decimal.
func TestCleanupBoundaryPlanIsReviewable(t *testing.T) {
	const parts, limit = 64, 150
	b := newBoundaryEnv(t, parts, 3)
	w := b.Workdir()
	write := func(off int64) {
		pl := b.plan(t, fmt.Sprintf("file:/checkpoints/orders/chk-%d", off), func(int32) int64 { return off })
		w.Write("main.tf", requiredProviders+b.config(pl))
	}
	write(1)
	w.Terraform("apply", "-auto-approve")
	write(2)
	out := string(w.Terraform("plan"))
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	block := resourceDiff(lines, "flinkagents_cleanup_boundary.orders")
	t.Logf("%d partitions: the boundary's change is %d lines (limit %d), the whole plan %d (limit %d)",
		parts, len(block), limit, len(lines), limit+planFrame)
	if len(block) == 0 || len(block) > limit || len(lines) > limit+planFrame {
		t.Fatalf("the plan takes %d lines, the boundary's change %d, for %d partitions (limits %d and %d):\n%s",
			len(lines), len(block), parts, limit+planFrame, limit, out)
	}
	if strings.Contains(out, "(sensitive value)") {
		t.Fatalf("the plan hides a value:\n%s", out)
	}
	for p := range parts {
		summary := regexp.MustCompile(fmt.Sprintf(`~ "%d" +%s`, p, regexp.QuoteMeta(`= "deletes 1 record from offset 0" -> "deletes 1 record from offset 1"`)))
		if n := len(summary.FindAllString(out, -1)); n != 1 {
			t.Fatalf("partition %d: %d summary lines %s, want 1:\n%s", p, n, summary, out)
		}
	}

	var shown struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				BeforeSensitive any `json:"before_sensitive"`
				AfterSensitive  any `json:"after_sensitive"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	w.Terraform("plan", "-out=tfplan")
	if err := json.Unmarshal(w.Terraform("show", "-json", "tfplan"), &shown); err != nil {
		t.Fatal(err)
	}
	for _, rc := range shown.ResourceChanges {
		if rc.Address != "flinkagents_cleanup_boundary.orders" {
			continue
		}
		for _, marks := range []any{rc.Change.BeforeSensitive, rc.Change.AfterSensitive} {
			if marked := sensitiveMarks(marks); len(marked) > 0 {
				t.Fatalf("terraform show -json marks %v of the boundary sensitive", marked)
			}
		}
		return
	}
	t.Fatal("terraform show -json has no change of flinkagents_cleanup_boundary.orders")
}

// planFrame is what terraform plan prints around the changes: the refresh
// line, the legend and the summary.
const planFrame = 11

// resourceDiff cuts one resource's change out of `terraform plan` output.
func resourceDiff(lines []string, addr string) []string {
	for i, l := range lines {
		if strings.TrimSpace(l) != "# "+addr+" will be updated in-place" {
			continue
		}
		for j := i; j < len(lines); j++ {
			if lines[j] == "    }" {
				return lines[i : j+1]
			}
		}
	}
	return nil
}

// sensitiveMarks lists the paths marked true in a before_sensitive or
// after_sensitive tree.
func sensitiveMarks(tree any) []string {
	switch v := tree.(type) {
	case bool:
		if v {
			return []string{"(value)"}
		}
	case map[string]any:
		var marked []string
		for k, sub := range v {
			for _, m := range sensitiveMarks(sub) {
				marked = append(marked, k+"."+m)
			}
		}
		return marked
	case []any:
		var marked []string
		for i, sub := range v {
			for _, m := range sensitiveMarks(sub) {
				marked = append(marked, fmt.Sprint(i)+"."+m)
			}
		}
		return marked
	}
	return nil
}

// TestAdoptionIsNoiseFree: the topics and a boundary the Java tool
// recorded, adopted with import blocks and -generate-config-out, plan no
// change next; so does a terraform import of all three into a written
// configuration.
func TestAdoptionIsNoiseFree(t *testing.T) {
	b := newBoundaryEnv(t, 4, 10)
	plan := b.plan(t, "file:/checkpoints/orders/chk-4", func(int32) int64 { return 3 })
	if _, err := cleanup.Apply(context.Background(), b.Admin, cleanup.Request{Plan: plan, ControlTopic: b.control}); err != nil {
		t.Fatal(err)
	}

	w := b.Workdir()
	w.Write("main.tf", requiredProviders+b.Provider()+fmt.Sprintf(`
import {
  to = flinkagents_action_state_topic.orders
  id = %q
}
import {
  to = flinkagents_cleanup_control_topic.orders
  id = %q
}
import {
  to = flinkagents_cleanup_boundary.orders
  id = %q
}
`, b.data, b.control, b.control))
	w.Terraform("plan", "-generate-config-out=generated.tf")
	w.Terraform("apply", "-auto-approve")
	if out := string(w.Terraform("plan")); !strings.Contains(out, "No changes.") {
		t.Fatalf("the plan right after adopting with generated configuration is not empty:\n%s", out)
	}

	// terraform import into a hand-written configuration.
	w2 := b.Workdir()
	w2.Write("main.tf", requiredProviders+b.Provider()+fmt.Sprintf(`
resource "flinkagents_action_state_topic" "orders" {
  name       = %q
  partitions = 4
}

resource "flinkagents_cleanup_control_topic" "orders" {
  name               = %q
  action_state_topic = flinkagents_action_state_topic.orders.name
}

resource "flinkagents_cleanup_boundary" "orders" {
  control_topic = flinkagents_cleanup_control_topic.orders.name
  plan_json     = %q
}
`, b.data, b.control, string(plan.File())))
	w2.Terraform("import", "flinkagents_action_state_topic.orders", b.data)
	w2.Terraform("import", "flinkagents_cleanup_control_topic.orders", b.control)
	w2.Terraform("import", "flinkagents_cleanup_boundary.orders", b.control)
	if out := string(w2.Terraform("plan")); !strings.Contains(out, "No changes.") {
		t.Fatalf("the plan right after terraform import is not empty:\n%s", out)
	}
}
