package resources_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
)

const requiredProviders = "terraform {\n  required_providers {\n    flinkagents = { source = \"actionstate/flinkagents\" }\n  }\n}\n"

// resourceDiff cuts one resource's block out of `terraform plan` output.
func resourceDiff(out []byte, addr string) []string {
	var lines []string
	in := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(l), "# "+addr+" ") {
			in = true
		}
		if in {
			lines = append(lines, l)
			if l == "    }" {
				break
			}
		}
	}
	return lines
}

// TestCleanupBoundaryPlanIsReviewable measures what a reviewer reads: the
// terraform plan of one boundary advance. Each changed partition must be
// one line, in numeric order, with at most 16 lines around them.
func TestCleanupBoundaryPlanIsReviewable(t *testing.T) {
	for _, parts := range []int32{8, 64, 1024} {
		t.Run(fmt.Sprint(parts), func(t *testing.T) {
			b := newBoundaryEnv(t, parts, 0)
			b.Produce(b.data, parts, 3)
			w := b.Workdir()
			write := func(off int64) {
				pl := b.plan(t, fmt.Sprintf("file:/checkpoints/orders/chk-%d", off), func(int32) int64 { return off })
				w.Write("main.tf", requiredProviders+b.config(pl))
			}
			write(1)
			w.Terraform("apply", "-auto-approve")
			write(2)
			diff := resourceDiff(w.Terraform("plan"), "flinkagents_cleanup_boundary.orders")
			limit := int(parts) + 16
			t.Logf("%d partitions: %d lines (limit %d)", parts, len(diff), limit)
			if len(diff) == 0 || len(diff) > limit {
				t.Fatalf("the boundary's plan takes %d lines for %d partitions (limit %d):\n%s", len(diff), parts, limit, strings.Join(diff, "\n"))
			}
			// One line per partition, in numeric order, nothing repeated.
			prev := -1
			seen := 0
			for _, l := range diff {
				var p int
				if _, err := fmt.Sscanf(strings.TrimSpace(l), "~ %q", new(string)); err != nil {
					continue
				}
				key := strings.Trim(strings.Fields(strings.TrimSpace(l))[1], `"`)
				if _, err := fmt.Sscanf(key, "%d", &p); err != nil {
					continue
				}
				if p <= prev {
					t.Fatalf("partition %d listed after %d:\n%s", p, prev, strings.Join(diff, "\n"))
				}
				prev = p
				seen++
			}
			if seen != int(parts) {
				t.Fatalf("%d partition lines for %d changed partitions:\n%s", seen, parts, strings.Join(diff, "\n"))
			}
		})
	}
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
