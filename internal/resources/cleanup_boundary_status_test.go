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
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// TestCleanupBoundaryAppliedButRecordsRemain: the control topic says
// APPLIED but nothing below the boundary was deleted (the Java tool's
// false APPLIED; a broker that lost its log start offset in a crash looks
// the same). Adopted into Terraform, the boundary reads DELETION_PENDING,
// the plan shows the deletion, and apply performs it.
func TestCleanupBoundaryAppliedButRecordsRemain(t *testing.T) {
	b := newBoundaryEnv(t, 4, 10)
	plan := b.plan(t, "file:/checkpoints/orders/chk-3", func(p int32) int64 { return 2 + int64(p) })
	for _, st := range []cleanupplan.Status{cleanupplan.StatusCommitted, cleanupplan.StatusApplied} {
		k, v := cleanupplan.EncodeRecord(st, plan)
		if _, err := b.AppendControl(context.Background(), b.control, k, v); err != nil {
			t.Fatal(err)
		}
	}
	addr := "flinkagents_cleanup_boundary.orders"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config:             b.config(plan),
				ResourceName:       addr,
				ImportState:        true,
				ImportStateId:      b.control,
				ImportStatePersist: true,
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					attrs := states[0].Attributes
					if attrs["status"] != "DELETION_PENDING" || attrs["records_to_delete"] != fmt.Sprint(2+3+4+5) {
						return fmt.Errorf("imported status %q, records_to_delete %q", attrs["status"], attrs["records_to_delete"])
					}
					return nil
				},
			},
			{
				Config: b.config(plan),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("APPLIED")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("records_to_delete"), knownvalue.Int64Exact(2+3+4+5)),
				}, PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("APPLIED")),
				},
				Check: func(*terraformState) error {
					return b.readAbove(map[int32]int64{0: 2, 1: 3, 2: 4, 3: 5}, 10)
				},
			},
		},
	})
}

// TestCleanupBoundaryRecordsGonePastRefused: records deleted out of band
// above a plan's offsets make its recovery point unrestorable, and the
// runtime refuses to commit such a plan; terraform plan refuses it with the
// runtime's message, and nothing is written or deleted.
func TestCleanupBoundaryRecordsGonePastRefused(t *testing.T) {
	b := newBoundaryEnv(t, 2, 10)
	if _, err := b.Admin.DeleteRecords(context.Background(), b.data, kafkaops.TopicID{}, map[int32]int64{0: 7, 1: 7}); err != nil {
		t.Fatal(err)
	}
	plan := b.plan(t, "file:/checkpoints/orders/chk-1", func(int32) int64 { return 4 })
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config:      b.config(plan),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Cannot commit Kafka cleanup boundary for\s+\S+-0\s+at\s+offset\s+4\s+because\s+the\s+available\s+range\s+is\s+\[7,\s+10\]`),
		}},
	})
	if s := b.StartOffsets(b.data); s[0] != 7 || s[1] != 7 {
		t.Fatalf("start offsets after the refusal: %v", s)
	}
}

// TestAFleetEntryAndABoundaryOnOneControlTopicAreRefused: even with the
// same plan, an entry of flinkagents_cleanup_boundaries and a
// flinkagents_cleanup_boundary on one control topic are refused at plan
// time, naming both; nothing is recorded or deleted.
func TestAFleetEntryAndABoundaryOnOneControlTopicAreRefused(t *testing.T) {
	b := newBoundaryEnv(t, 2, 10)
	p := b.plan(t, "file:/checkpoints/orders/chk-4", func(int32) int64 { return 4 })
	config := b.config(p) + fmt.Sprintf(`
resource "flinkagents_cleanup_boundaries" "fleet" {
  on_refusal = "fail" # else a refused entry is held with a warning when the fleet plans second
  boundaries = {
    orders = {
      control_topic = %q
      plan_json     = %q
    }
  }
}
`, b.control, p.File())
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config:      config,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Two Cleanup Boundaries Share A Control Topic.*flinkagents_cleanup_boundar.*flinkagents_cleanup_boundar.*Even with the same plan`),
		}},
	})
	if s := b.StartOffsets(b.data); s[0] != 0 || s[1] != 0 {
		t.Fatalf("records deleted: %v", s)
	}
}

// TestTwoBoundariesOnOneControlTopicAreRefused: the plan names the sibling
// instead of failing at apply with "another apply is running".
func TestTwoBoundariesOnOneControlTopicAreRefused(t *testing.T) {
	b := newBoundaryEnv(t, 2, 10)
	first := b.plan(t, "file:/checkpoints/orders/chk-1", func(int32) int64 { return 4 })
	second := b.plan(t, "file:/checkpoints/orders/chk-9", func(int32) int64 { return 9 })
	config := b.config(first) + fmt.Sprintf(`
resource "flinkagents_cleanup_boundary" "second" {
  control_topic = %q
  plan_json     = %q
}
`, b.control, second.File())
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config:      config,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Two Cleanup Boundaries Share A Control Topic.*chk-[19].*chk-[19]`),
		}},
	})
	if s := b.StartOffsets(b.data); s[0] != 0 || s[1] != 0 {
		t.Fatalf("records deleted: %v", s)
	}
}
