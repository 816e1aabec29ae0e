package resources_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// TestCleanupBoundaryControlTopicRecreated: a saved boundary plan whose
// control topic is deleted and recreated before the apply writes nothing
// into the new, empty topic and says why. The next refresh warns and learns
// the new ID; its plan records the boundary in the new topic.
func TestCleanupBoundaryControlTopicRecreated(t *testing.T) {
	b := newBoundaryEnv(t, 3, 30)
	addr := "flinkagents_cleanup_boundary.orders"
	first := b.plan(t, "file:/checkpoints/orders/chk-10", func(int32) int64 { return 5 })
	second := b.plan(t, "file:/checkpoints/orders/chk-20", func(int32) int64 { return 10 })
	ctx := context.Background()
	controlID := func() string {
		topic, err := b.Admin.DescribeTopic(ctx, b.control)
		if err != nil {
			t.Fatal(err)
		}
		return topic.ID.String()
	}
	originalID := controlID()
	var newID string
	isNewID := knownvalue.StringFunc(func(v string) error {
		if v != newID {
			return fmt.Errorf("control_topic_id %s, want the recreated topic's %s", v, newID)
		}
		return nil
	})
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: b.config(first),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("control_topic_id"), knownvalue.StringExact(originalID)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: b.config(second),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("control_topic_id"), knownvalue.StringExact(originalID)),
					betweenPlanAndApply(func() { newID = recreate(t, b.Env, b.control, 1, map[string]string{"cleanup.policy": "compact"}) }),
				}},
				ExpectError: regexp.MustCompile(`(?s)Cleanup Control Topic Was Recreated.*Nothing\s+was\s+written\s+or\s+deleted`),
			},
			{
				PreConfig: func() {
					if ends, err := b.Admin.EndOffsets(ctx, b.control); err != nil || ends[0] != 0 {
						t.Fatalf("the recreated control topic ends at %v (%v) after the refused apply, want 0: it was written to", ends, err)
					}
					for p, s := range b.StartOffsets(b.data) {
						if s != 5 {
							t.Fatalf("partition %d starts at %d after the refused apply, want 5: records were deleted", p, s)
						}
					}
				},
				Config: b.config(second),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("control_topic_id"), isNewID),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("control_topic_id"), isNewID),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("APPLIED")),
				},
			},
		},
	})
}
