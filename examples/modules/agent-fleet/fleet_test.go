// Package agentfleet_test applies the agent-fleet module with the real
// Terraform CLI against an in-process broker (or KAFKA_BOOTSTRAP_SERVERS)
// and checks what it created through Kafka directly. The agent-operator
// module, which calls it with one operator, has the tests of each way of
// rendering and following; these cover what a fleet adds: many operators in
// one call, each with its own settings, and refusals naming the operator.
package agentfleet_test

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// TestAccAgentFleetModule rolls out four operators from one call: orders
// (later given a plan), pay (named payments, with its own partition count),
// refunds (following a job with no complete checkpoint yet) and audit
// (nothing). Only orders gets a boundary, only its records are deleted, and
// only its job configuration names its control topic.
func TestAccAgentFleetModule(t *testing.T) {
	e := acctest.New(t)
	prefix := e.Name("fleet")
	topic := func(op, kind string) string { return fmt.Sprintf("%s-%s-%s", prefix, op, kind) }
	jobs := t.TempDir()
	// Flink creates chk-N before it completes: no _metadata yet.
	if err := os.MkdirAll(filepath.Join(jobs, "refunds", "chk-1"), 0o755); err != nil {
		t.Fatal(err)
	}
	w := e.Workdir()
	config := func(withPlan bool) string {
		return fmt.Sprintf(`
%s
module "fleet" {
  source = %q

  prefix = %q
  operators = {
    orders  = { plan_json = %t ? file("orders-plan.json") : null }
    pay     = { name = "payments", partitions = 2 }
    refunds = { checkpoint_dir = "file:%s/refunds" }
    audit   = {}
  }
  partitions          = 3
  deletion_protection = false
  bootstrap_servers   = [%s]
}

output "yaml" {
  value = { for k, c in module.fleet.agent_config : k => c.yaml }
}

output "cleanup_enabled" {
  value = { for k, c in module.fleet.agent_config : k => c.cleanup_enabled }
}

output "boundaries" {
  value = { for k, b in module.fleet.boundaries : k => b.status }
}

output "topics" {
  value = { for k, t in module.fleet.topics : k => "${t.action_state} ${t.control}" }
}
`, e.CLIProvider(), w.ModuleSource("."), prefix, withPlan, jobs, e.BrokersHCL())
	}
	w.Write("main.tf", config(false))
	w.Terraform("init")
	t.Cleanup(func() { w.Terraform("destroy", "-auto-approve") })
	w.Terraform("apply", "-auto-approve")

	names := map[string]string{"orders": "orders", "pay": "payments", "refunds": "refunds", "audit": "audit"}
	var topics map[string]string
	w.Output("topics", &topics)
	for k, name := range names {
		if want := topic(name, "action-state") + " " + topic(name, "cleanup-control"); topics[k] != want {
			t.Errorf("operator %s's topics are %q, want %q", k, topics[k], want)
		}
	}
	parts := map[string]int32{"orders": 3, "payments": 2, "refunds": 3, "audit": 3}
	for name, want := range parts {
		d, err := e.Admin.DescribeTopic(context.Background(), topic(name, "action-state"))
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Partitions) != int(want) {
			t.Errorf("%s has %d partitions, want %d", topic(name, "action-state"), len(d.Partitions), want)
		}
	}

	for name, n := range parts {
		e.Produce(topic(name, "action-state"), n, 5)
	}
	data := topic("orders", "action-state")
	id, err := e.Admin.DescribeTopic(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	p, err := cleanupplan.New("file:/checkpoints/orders/chk-7", data, id.ID.String(), cleanupplan.Offsets{0: 3, 1: 3, 2: 3})
	if err != nil {
		t.Fatal(err)
	}
	w.Write("orders-plan.json", string(p.File()))
	w.Write("main.tf", config(true))
	w.Terraform("apply", "-auto-approve")

	var status map[string]string
	if w.Output("boundaries", &status); !maps.Equal(status, map[string]string{"orders": "APPLIED"}) {
		t.Errorf("boundaries %v, want only orders APPLIED", status)
	}
	var enabled map[string]bool
	if w.Output("cleanup_enabled", &enabled); !maps.Equal(enabled, map[string]bool{"orders": true, "pay": false, "refunds": false, "audit": false}) {
		t.Errorf("cleanup_enabled %v, want only orders", enabled)
	}
	var yaml map[string]string
	w.Output("yaml", &yaml)
	for k, name := range names {
		named := strings.Contains(yaml[k], "kafkaActionStateCleanupControlTopic: \""+topic(name, "cleanup-control")+"\"")
		if named != (k == "orders") {
			t.Errorf("operator %s's job configuration names its control topic: %v, want %v:\n%s", k, named, k == "orders", yaml[k])
		}
	}
	for name, want := range map[string]int64{"orders": 3, "payments": 0, "refunds": 0, "audit": 0} {
		for part, off := range e.StartOffsets(topic(name, "action-state")) {
			if off != want {
				t.Errorf("%s partition %d starts at %d, want %d", name, part, off, want)
			}
		}
	}
	if out := w.Terraform("plan", "-detailed-exitcode"); !regexp.MustCompile(`No changes`).Match(out) {
		t.Errorf("plan after apply is not empty:\n%s", out)
	}
}

// TestAccAgentFleetModuleRefusals: an operator given both a plan and a job to
// follow, and two operators of one name, are refused at plan time, naming
// the operator, before anything is created.
func TestAccAgentFleetModuleRefusals(t *testing.T) {
	e := acctest.New(t)
	prefix := e.Name("refused")
	for _, c := range []struct{ name, operators, want string }{
		{"plan and checkpoints", `{ orders = { plan_json = "{}", checkpoint_dir = "file:/nowhere" } }`,
			`Operator orders: set plan_json or checkpoint_dir/savepoint_dir, not both`},
		{"one name twice", `{ orders = {}, other = { name = "orders" } }`, `Two operators have the same name`},
		{"hostile name", `{ "orders;rm" = {} }`, `Every operator's name .* may contain only`},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := e.Workdir()
			w.Write("main.tf", fmt.Sprintf(`
%s
module "fleet" {
  source              = %q
  prefix              = %q
  operators           = %s
  deletion_protection = false
  bootstrap_servers   = [%s]
}
`, e.CLIProvider(), w.ModuleSource("."), prefix, c.operators, e.BrokersHCL()))
			w.Terraform("init")
			out, err := w.TerraformErr("plan")
			if err == nil {
				t.Fatalf("plan succeeded, want a refusal:\n%s", out)
			}
			if flat := strings.Join(strings.Fields(err.Error()), " "); !regexp.MustCompile(c.want).MatchString(flat) {
				t.Errorf("plan failed without %q:\n%s", c.want, err)
			}
		})
	}
}
