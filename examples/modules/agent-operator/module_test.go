// Package agentoperator_test applies the agent-operator module with the real
// Terraform CLI against an in-process broker (or KAFKA_BOOTSTRAP_SERVERS)
// and checks what it created through Kafka directly.
package agentoperator_test

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

var operators = []string{"orders", "payments", "refunds"}

const partitions = 3

// TestAccAgentOperatorModule rolls out three operators with for_each, checks
// their topics out of band, then gives two of them a cleanup boundary
// through the module's plan_json and checks only their records were
// deleted. The job configuration names the control topic only once it holds
// a boundary, in both renderings (the module's and the data source's).
//
// It drives the CLI through acctest.Workdir rather than
// terraform-plugin-testing, whose state shim refuses module instances.
func TestAccAgentOperatorModule(t *testing.T) {
	e := acctest.New(t)
	prefix := e.Name("rollout")
	topic := func(op, kind string) string { return fmt.Sprintf("%s-%s-%s", prefix, op, kind) }
	w := e.Workdir()
	config := func(withPlans bool) string {
		return fmt.Sprintf(`
%s
module "operator" {
  source   = %q
  for_each = toset(["orders", "payments", "refunds"])

  prefix              = %q
  operator            = each.key
  partitions          = %d
  deletion_protection = false
  plan_json           = %t && each.key != "refunds" ? file("${each.key}-plan.json") : null
  # orders renders its job configuration in the module, the others through
  # the agent_config data source: both must give what the data source does.
  bootstrap_servers = each.key == "orders" ? [%s] : null
}

data "flinkagents_agent_config" "reference" {
  for_each           = module.operator
  action_state_topic = each.value.topics.action_state
  control_topic      = each.value.topics.control
  partitions         = %d
}

output "yaml" {
  value = { for name, op in module.operator : name => op.agent_config.yaml }
}

output "rendered_like_data_source" {
  value = { for name, op in module.operator : name =>
    op.agent_config.yaml == data.flinkagents_agent_config.reference[name].yaml &&
    op.agent_config.settings == data.flinkagents_agent_config.reference[name].settings
  }
}

output "boundary_status" {
  value = { for name, op in module.operator : name => try(op.boundary.status, "none") }
}

output "cleanup_enabled" {
  value = { for name, op in module.operator : name => op.agent_config.cleanup_enabled }
}

output "payments_topics" {
  value = module.operator["payments"].topics
}

output "payments_boundary_partitions" {
  value = try(module.operator["payments"].boundary.partitions, {})
}

`, e.CLIProvider(), w.ModuleSource("."), prefix, partitions, withPlans, e.BrokersHCL(), partitions)
	}

	w.Write("main.tf", config(false))
	w.Terraform("init")
	t.Cleanup(func() { w.Terraform("destroy", "-auto-approve") })
	w.Terraform("apply", "-auto-approve")
	checkTopics(t, e, topic)
	checkRendering(t, w, topic, map[string]bool{})
	var status map[string]string
	if w.Output("boundary_status", &status); !maps.Equal(status, map[string]string{"orders": "none", "payments": "none", "refunds": "none"}) {
		t.Errorf("boundary status %v without a plan, want none", status)
	}

	// Records the jobs wrote, and plans keeping the last two per partition.
	// orders renders its configuration in the module, payments through the
	// data source: both get a boundary.
	ids := map[string]string{}
	for _, op := range []string{"orders", "payments"} {
		data := topic(op, "action-state")
		e.Produce(data, partitions, 5)
		id, err := e.Admin.DescribeTopic(context.Background(), data)
		if err != nil {
			t.Fatal(err)
		}
		ids[op] = id.ID.String()
		p, err := cleanupplan.New("file:/checkpoints/"+op+"/chk-7", data, id.ID.String(), cleanupplan.Offsets{0: 3, 1: 3, 2: 3})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(op+"-plan.json", string(p.File()))
	}
	w.Write("main.tf", config(true))
	w.Terraform("apply", "-auto-approve")
	if w.Output("boundary_status", &status); !maps.Equal(status, map[string]string{"orders": "APPLIED", "payments": "APPLIED", "refunds": "none"}) {
		t.Errorf("boundary status %v, want APPLIED for orders and payments", status)
	}
	// The reference data source was read at plan time, before the boundary;
	// the next run (the redeploy) reads it again.
	w.Terraform("apply", "-auto-approve")
	checkRendering(t, w, topic, map[string]bool{"orders": true, "payments": true})
	data := topic("payments", "action-state")
	var topics map[string]string
	w.Output("payments_topics", &topics)
	if want := map[string]string{"action_state": data, "action_state_id": ids["payments"], "control": topic("payments", "cleanup-control")}; !maps.Equal(topics, want) {
		t.Errorf("topics output %v, want %v", topics, want)
	}
	// The review of the change that recorded it, kept as applied: a
	// refresh does not rewrite it (no drift after an apply). Keys are the
	// partitions in decimal, as in the plan's offsets.
	var summary map[string]string
	w.Output("payments_boundary_partitions", &summary)
	if want := map[string]string{"0": "deletes 3 records from offset 0", "1": "deletes 3 records from offset 0", "2": "deletes 3 records from offset 0"}; !maps.Equal(summary, want) {
		t.Errorf("boundary partitions output %v, want %v", summary, want)
	}
	for _, op := range []string{"orders", "payments"} {
		for p, off := range e.StartOffsets(topic(op, "action-state")) {
			if off != 3 {
				t.Errorf("%s partition %d starts at %d after the boundary, want 3", op, p, off)
			}
		}
	}
	for _, op := range []string{"refunds"} {
		for p, off := range e.StartOffsets(topic(op, "action-state")) {
			if off != 0 {
				t.Errorf("another operator's topic was cleaned: %s partition %d starts at %d", op, p, off)
			}
		}
	}
	// A second plan after the apply changes nothing: refresh of six topics
	// and a boundary agrees with what was applied.
	if out := w.Terraform("plan", "-detailed-exitcode"); !regexp.MustCompile(`No changes`).Match(out) {
		t.Errorf("plan after apply is not empty:\n%s", out)
	}
}

// checkRendering asserts each operator's job configuration names its
// control topic exactly when enabled says so, agrees with the agent_config
// data source, and says so in cleanup_enabled.
func checkRendering(t *testing.T, w *acctest.Workdir, topic func(op, kind string) string, enabled map[string]bool) {
	t.Helper()
	var yaml map[string]string
	w.Output("yaml", &yaml)
	var cleanupEnabled map[string]bool
	w.Output("cleanup_enabled", &cleanupEnabled)
	for _, op := range operators {
		want := regexp.MustCompile(`(?m)^  kafkaActionStateTopic: "` + regexp.QuoteMeta(topic(op, "action-state")) + `"$` +
			`[\s\S]*^  kafkaActionStateTombstoneEnabled: false\n\z`)
		if enabled[op] {
			want = regexp.MustCompile(`(?m)^  kafkaActionStateTopic: "` + regexp.QuoteMeta(topic(op, "action-state")) + `"$` +
				`[\s\S]*^  kafkaActionStateTombstoneEnabled: false\n  kafkaActionStateCleanupControlTopic: "` +
				regexp.QuoteMeta(topic(op, "cleanup-control")) + `"\n\z`)
		}
		if !want.MatchString(yaml[op]) {
			t.Errorf("%s's agent configuration:\n%s\ndoes not match %s", op, yaml[op], want)
		}
		if cleanupEnabled[op] != enabled[op] {
			t.Errorf("%s's cleanup_enabled is %v, want %v", op, cleanupEnabled[op], enabled[op])
		}
	}
	var same map[string]bool
	w.Output("rendered_like_data_source", &same)
	for _, op := range operators {
		if !same[op] {
			t.Errorf("%s's module outputs differ from the agent_config data source's: %v\n%q", op, same, yaml[op])
		}
	}
}

// checkTopics asserts, through Kafka, each operator's two topics with the
// shapes and settings the runtime and the cleanup protocol require.
func checkTopics(t *testing.T, e *acctest.Env, topic func(op, kind string) string) {
	t.Helper()
	ctx := context.Background()
	for _, op := range operators {
		for _, want := range []struct {
			kind       string
			partitions int
			policy     string
		}{{"action-state", partitions, "compact,delete"}, {"cleanup-control", 1, "compact"}} {
			name := topic(op, want.kind)
			d, err := e.Admin.DescribeTopic(ctx, name)
			if err != nil {
				t.Error(err)
				continue
			}
			if len(d.Partitions) != want.partitions {
				t.Errorf("%s has %d partitions, want %d", name, len(d.Partitions), want.partitions)
			}
			if got := e.TopicConfig(name, "cleanup.policy"); got != want.policy {
				t.Errorf("%s has cleanup.policy=%q, want %q", name, got, want.policy)
			}
		}
	}
}
