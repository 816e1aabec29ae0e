package resources_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// controlRecords writes to topic what a team's control topic holds after
// a first cleanup, behind a first record that is not a control record
// (garbage): a reader of the first record alone would take the topic for
// an action-state topic.
func controlRecords(t *testing.T, e *acctest.Env, topic, dataTopic string) {
	t.Helper()
	ctx := context.Background()
	if _, err := e.AppendControl(ctx, topic, []byte("k"), []byte{0xde, 0xad, 0xbe, 0xef}); err != nil {
		t.Fatal(err)
	}
	p, err := cleanupplan.New("s3://ckpt/chk-4", dataTopic, "AAAAAAAAAAAAAAAAAAAAAQ", cleanupplan.Offsets{0: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, status := range []cleanupplan.Status{cleanupplan.StatusCommitted, cleanupplan.StatusApplied} {
		k, v := cleanupplan.EncodeRecord(status, p)
		if _, err := e.AppendControl(ctx, topic, k, v); err != nil {
			t.Fatal(err)
		}
	}
}

// TestActionStateTopicRefusesAControlTopic: flinkagents_action_state_topic
// never takes over a topic holding control records, wherever they sit:
// neither by import (where it would plan compact -> compact,delete) nor by
// a plan that would change the policy of a topic it manages. The control
// topic keeps cleanup.policy=compact, which the runtime requires.
func TestActionStateTopicRefusesAControlTopic(t *testing.T) {
	e := acctest.New(t)
	control := e.Name("orders-control")
	e.CreateTopic(control, 1, map[string]string{"cleanup.policy": "compact"})
	controlRecords(t, e, control, e.Name("orders"))
	managed := e.Name("single-action-state")
	addr := "flinkagents_action_state_topic.orders"
	config := func(name string) string {
		return e.Provider() + fmt.Sprintf(`
resource "flinkagents_action_state_topic" "orders" {
  name                = %q
  partitions          = 1
  deletion_protection = false
}
`, name)
	}
	importBlock := fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", addr, control)
	refused := regexp.MustCompile(`(?s)Topic Is A Cleanup Control Topic.*flinkagents_cleanup_control_topic`)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: config(control), ResourceName: addr, ImportState: true, ImportStateId: control, ExpectError: refused},
			{Config: importBlock + config(control), PlanOnly: true, ExpectError: refused},
			{Config: config(managed)},
			{
				// The topic it manages becomes a control topic behind its back.
				PreConfig: func() {
					e.SetTopicConfigs(managed, map[string]string{"cleanup.policy": "compact"})
					controlRecords(t, e, managed, e.Name("orders"))
				},
				Config: config(managed), PlanOnly: true, ExpectError: refused,
			},
			{
				PreConfig: func() {
					for _, name := range []string{control, managed} {
						if got := e.TopicConfig(name, "cleanup.policy"); got != "compact" {
							t.Errorf("%s: cleanup.policy is %q, want compact", name, got)
						}
					}
				},
				Config: e.Provider(),
			},
		},
	})
}

// TestActionStateTopicAdoptsPolicyInAnotherOrder: a topic with
// cleanup.policy=delete,compact (the set the runtime accepts, in another
// order) and drifted retention imports and applies: the retention is
// restored, the policy stays as it is, and the plan after is empty.
func TestActionStateTopicAdoptsPolicyInAnotherOrder(t *testing.T) {
	e := acctest.New(t)
	name := e.Name("ordered-action-state")
	e.CreateTopic(name, 3, map[string]string{"cleanup.policy": "delete,compact", "retention.ms": "86400000"})
	addr := "flinkagents_action_state_topic.orders"
	config := e.Provider() + fmt.Sprintf(`
import {
  to = %s
  id = %q
}

resource "flinkagents_action_state_topic" "orders" {
  name                = %q
  deletion_protection = false
}
`, addr, name, name)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config:           config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			Check: func(*terraformState) error {
				if got := e.TopicConfig(name, "retention.ms"); got != "-1" {
					return fmt.Errorf("retention.ms is %q, want -1", got)
				}
				if got := e.TopicConfig(name, "cleanup.policy"); got != "delete,compact" && got != "compact,delete" {
					return fmt.Errorf("cleanup.policy is %q", got)
				}
				return nil
			},
		}},
	})
}
