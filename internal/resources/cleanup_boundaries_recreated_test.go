package resources_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// between is a plan check that acts instead of checking: it runs between
// a step's plan and its apply, where a nightly pipeline has its policy gate.
type between func()

func (b between) CheckPlan(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) {
	b()
}

// TestAccCleanupBoundariesTopicRecreatedBetweenPlanAndApply: found by the
// soak (RELIABILITY.md). One operator's action-state topic is deleted and
// recreated after the nightly plan and before its apply. The saved plan's
// apply must refuse that entry (the plan's offsets describe a topic that no
// longer exists; nothing may be deleted from the new one) and still advance
// the others. It failed the whole apply instead: at apply time the entry's
// preview was computed again against the new topic, and Terraform rejected
// the result ("Provider produced inconsistent final plan ...
// .boundaries["orders"].records_to_delete: was 30, but now 0"), so no
// operator of the fleet advanced that night.
func TestAccCleanupBoundariesTopicRecreatedBetweenPlanAndApply(t *testing.T) {
	f := newFleetEnv(t, "orders", "payments")
	recreate := between(func() {
		f.RecreateTopic(f.ops["orders"].data, f.ops["orders"].parts,
			map[string]string{"cleanup.policy": "compact,delete", "retention.ms": "-1", "retention.bytes": "-1"})
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: f.config(t, map[string]int64{"orders": 10, "payments": 10})},
			{
				Config:             f.config(t, map[string]int64{"orders": 20, "payments": 20}),
				ConfigPlanChecks:   resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{recreate}},
				ExpectNonEmptyPlan: true,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("payments", "status"), knownvalue.StringExact("APPLIED")),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("payments", "plan_id"), knownvalue.StringExact(f.at(t, "payments", 20).ID())),
				},
				Check: resource.ComposeTestCheckFunc(f.starts("payments", 20), f.starts("orders", 0)),
			},
		},
	})
}

// TestAccCleanupBoundariesFirstPlanTopicRecreatedBetweenPlanAndApply: the
// same for an operator's first boundary (rolled out before its job's first
// checkpoint, as agent-fleet does: an entry with no plan): it is held,
// named, and the entry that was already there advances.
func TestAccCleanupBoundariesFirstPlanTopicRecreatedBetweenPlanAndApply(t *testing.T) {
	f := newFleetEnv(t, "orders", "payments")
	recreate := between(func() {
		f.RecreateTopic(f.ops["payments"].data, f.ops["payments"].parts,
			map[string]string{"cleanup.policy": "compact,delete", "retention.ms": "-1", "retention.bytes": "-1"})
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: f.config(t, map[string]int64{"orders": 10, "payments": noPlan})},
			{
				Config:             f.config(t, map[string]int64{"orders": 20, "payments": 10}),
				ConfigPlanChecks:   resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{recreate}},
				ExpectNonEmptyPlan: true,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "status"), knownvalue.StringExact("APPLIED")),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "plan_id"), knownvalue.StringExact(f.at(t, "orders", 20).ID())),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("payments", "status"), knownvalue.StringExact("REFUSED")),
				},
				Check: resource.ComposeTestCheckFunc(f.starts("orders", 20), f.starts("payments", 0)),
			},
		},
	})
}

// TestAccCleanupBoundariesNewEntryTopicRecreatedBetweenPlanAndApply: an
// operator added to the fleet with its first plan (a job adopted with a
// checkpoint already taken) whose action-state topic is deleted and
// recreated after the plan and before its apply. That entry is held, named,
// and nothing is deleted from the new topic; the entry already there
// advances.
func TestAccCleanupBoundariesNewEntryTopicRecreatedBetweenPlanAndApply(t *testing.T) {
	f := newFleetEnv(t, "orders", "payments")
	recreate := between(func() {
		f.RecreateTopic(f.ops["payments"].data, f.ops["payments"].parts,
			map[string]string{"cleanup.policy": "compact,delete", "retention.ms": "-1", "retention.bytes": "-1"})
		f.Produce(f.ops["payments"].data, f.ops["payments"].parts, 40)
	})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: f.config(t, map[string]int64{"orders": 10})},
			{
				Config: f.config(t, map[string]int64{"orders": 20, "payments": 10}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					recreate,
					// The review of a new entry is left to the apply: read now,
					// it would be read again when Terraform plans at apply.
					plancheck.ExpectUnknownValue(fleetAddr, entryAttr("payments", "records_to_delete")),
					plancheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "records_to_delete"), knownvalue.Int64Exact(30)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "status"), knownvalue.StringExact("APPLIED")),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "plan_id"), knownvalue.StringExact(f.at(t, "orders", 20).ID())),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("payments", "status"), knownvalue.StringExact("REFUSED")),
				},
				Check: resource.ComposeTestCheckFunc(f.starts("orders", 20), f.starts("payments", 0)),
			},
		},
	})
}
