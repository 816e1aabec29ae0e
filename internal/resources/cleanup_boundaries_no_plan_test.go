package resources_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// TestAccCleanupBoundariesNoPlanControlTopicCreatedInTheSameApply: at a
// rollout an operator has no plan yet and its control topic is created by
// the same apply. What the topic records can only be read when Terraform
// plans again at apply time, and that read can fail (bench-fleet met a
// broker slow to show 2,000 new topics): the status is planned unknown, so
// whatever that read says cannot make the whole apply an "inconsistent
// final plan". After the apply the entry is NONE, with the new topic's ID,
// and the next plan is empty.
func TestAccCleanupBoundariesNoPlanControlTopicCreatedInTheSameApply(t *testing.T) {
	f := newFleetEnv(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps:                    []resource.TestStep{newOperatorRollout(f.Provider(), f.Name("orders-cleanup-control"), f.Name("orders-action-state"))},
	})
}

// newOperatorRollout is the apply that rolls out operator "orders" with no
// plan: its control topic (named control) created by the same apply, its
// boundary planned with an unknown status and ending NONE, with the new
// topic's ID, and the next plan empty. provider is the provider block.
func newOperatorRollout(provider, control, data string) resource.TestStep {
	return resource.TestStep{
		Config: provider + fmt.Sprintf(`
resource "flinkagents_cleanup_control_topic" "orders" {
  name                = %q
  deletion_protection = false
}

resource "flinkagents_cleanup_boundaries" "fleet" {
  boundaries = {
    "orders" = {
      control_topic      = flinkagents_cleanup_control_topic.orders.name
      action_state_topic = %q
    }
  }
}
`, control, data),
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{
				plancheck.ExpectUnknownValue(fleetAddr, entryAttr("orders", "status")),
				plancheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "plan_json"), knownvalue.Null()),
				plancheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "records_to_delete"), knownvalue.Int64Exact(0)),
			},
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		},
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "status"), knownvalue.StringExact("NONE")),
			statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "control_topic_id"), knownvalue.NotNull()),
			statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "cleanup_enabled"), knownvalue.Bool(false)),
		},
	}
}

// TestAccCleanupBoundariesNoPlanUnreadableAtApply: an operator with no plan
// (NONE in state) whose control topic becomes unreadable between the plan
// and its apply (here a tombstone) stays NONE, with a warning, when
// Terraform plans again at apply; the other operator still advances, and
// nothing is deleted for the first.
func TestAccCleanupBoundariesNoPlanUnreadableAtApply(t *testing.T) {
	f := newFleetEnv(t, "idle", "busy")
	idle := f.ops["idle"]
	entry := func(k string, plan string) string {
		op := f.ops[k]
		s := fmt.Sprintf("    %q = {\n      control_topic = %q\n      action_state_topic = %q\n", k, op.control, op.data)
		if plan != "" {
			s += fmt.Sprintf("      plan_json = %q\n", plan)
		}
		return s + "    }\n"
	}
	config := func(entries ...string) string {
		s := f.Provider() + "resource \"flinkagents_cleanup_boundaries\" \"fleet\" {\n  boundaries = {\n"
		for _, e := range entries {
			s += e
		}
		return s + "  }\n}\n"
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: config(entry("idle", "")),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("idle", "status"), knownvalue.StringExact("NONE")),
				},
			},
			{
				Config: config(entry("idle", ""), entry("busy", string(f.at(t, "busy", 10).File()))),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectKnownValue(fleetAddr, entryAttr("idle", "status"), knownvalue.StringExact("NONE")),
						sideEffect(func() error {
							_, err := f.AppendControl(context.Background(), idle.control, []byte("someone"), nil)
							return err
						}),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("idle", "status"), knownvalue.StringExact("NONE")),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("busy", "status"), knownvalue.StringExact("APPLIED")),
				},
				Check: resource.ComposeTestCheckFunc(f.starts("busy", 10), f.starts("idle", 0)),
			},
		},
	})

}

// sideEffect is a plan check that changes the world between a plan and its
// apply (PreApply checks run after the plan, before the apply).
type sideEffect func() error

func (s sideEffect) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	if err := s(); err != nil {
		resp.Error = err
	}
}
