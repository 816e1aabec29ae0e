package resources_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// TestCleanupControlTopicImportIsZeroDiff imports a control topic whose
// history was written transactionally, beside its action-state topic and
// boundary, 20 times with and 20 times without action_state_topic in the
// configuration, each plan by a fresh provider on a three-broker cluster:
// every plan must be empty. Before action_state_topic was computed, every
// plan without it proposed changing it to null.
func TestCleanupControlTopicImportIsZeroDiff(t *testing.T) {
	b := newBoundaryEnvOn(t, acctest.NewInProcessCluster(t, 3), 2, 10)
	plan := b.plan(t, "file:/checkpoints/orders/chk-3", func(int32) int64 { return 2 })
	ctx := context.Background()
	txn, err := b.Admin.BeginControlTxn(ctx, b.control)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []cleanupplan.Status{cleanupplan.StatusCommitted, cleanupplan.StatusApplied} {
		k, v := cleanupplan.EncodeRecord(st, plan)
		if err := txn.Append(ctx, k, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Admin.DeleteRecords(ctx, b.data, kafkaops.TopicID{}, plan.Offsets); err != nil {
		t.Fatal(err)
	}
	config := func(pairing bool) string {
		line := ""
		if pairing {
			line = fmt.Sprintf("action_state_topic = %q", b.data)
		}
		return b.config(plan) + controlTopicImport(b.control, line) + fmt.Sprintf(`
import {
  to = flinkagents_action_state_topic.orders
  id = %[1]q
}
resource "flinkagents_action_state_topic" "orders" {
  name = %[1]q
}
import {
  to = flinkagents_cleanup_boundary.orders
  id = %[2]q
}
`, b.data, b.control)
	}
	var steps []resource.TestStep
	for range 20 {
		steps = append(steps,
			resource.TestStep{Config: config(true), PlanOnly: true},
			resource.TestStep{Config: config(false), PlanOnly: true})
	}
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.Factories, Steps: steps})
}

// TestCleanupControlTopicImportOfAMissingTopic: the import fails naming
// the topic, rather than going on with the pairing unlearned (what a
// broker not yet aware of a new topic would otherwise cause on some runs).
func TestCleanupControlTopicImportOfAMissingTopic(t *testing.T) {
	e := acctest.New(t)
	name := e.Name("orders-cleanup-control")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config:      e.Provider() + controlTopicImport(name, ""),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Cleanup Control Topic Not Found.*importing\s+cleanup\s+control\s+topic\s+"` + regexp.QuoteMeta(name) + `"`),
		}},
	})
}

// controlTopicImport imports the topic name as
// flinkagents_cleanup_control_topic.orders, with attrs in its block.
func controlTopicImport(name, attrs string) string {
	return fmt.Sprintf(`
import {
  to = flinkagents_cleanup_control_topic.orders
  id = %[1]q
}
resource "flinkagents_cleanup_control_topic" "orders" {
  name = %[1]q
  %[2]s
}
`, name, attrs)
}

// TestCleanupControlTopicImportWithUntrustedHistory: a history that fails
// closed (a tombstone) does not stop the import of the topic itself: the
// pairing stays unlearned (a warning says why) and a configuration without
// it plans nothing.
func TestCleanupControlTopicImportWithUntrustedHistory(t *testing.T) {
	e := acctest.New(t)
	name := e.Name("orders-cleanup-control")
	e.CreateTopic(name, 1, map[string]string{"cleanup.policy": "compact"})
	if _, err := e.AppendControl(context.Background(), name, []byte("someone"), nil); err != nil {
		t.Fatal(err)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps:                    []resource.TestStep{{Config: e.Provider() + controlTopicImport(name, ""), PlanOnly: true}},
	})
}
