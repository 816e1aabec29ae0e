package resources_test

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

const fleetAddr = "flinkagents_cleanup_boundaries.fleet"

// fleetEnv is one boundaryEnv per operator on one broker.
type fleetEnv struct {
	*acctest.Env
	ops map[string]*boundaryEnv
}

func newFleetEnv(t *testing.T, keys ...string) *fleetEnv {
	e := acctest.New(t)
	f := &fleetEnv{Env: e, ops: map[string]*boundaryEnv{}}
	for _, k := range keys {
		b := &boundaryEnv{Env: e, data: e.Name(k + "-action-state"), control: e.Name(k + "-cleanup-control"), parts: 3}
		b.topicID = e.CreateTopic(b.data, b.parts, map[string]string{"cleanup.policy": "compact,delete", "retention.ms": "-1", "retention.bytes": "-1"})
		e.CreateTopic(b.control, 1, map[string]string{"cleanup.policy": "compact"})
		e.Produce(b.data, b.parts, 40)
		f.ops[k] = b
	}
	return f
}

// at is the plan of operator k with every partition at offset.
func (f *fleetEnv) at(t *testing.T, k string, offset int64) cleanupplan.Plan {
	return f.ops[k].plan(t, fmt.Sprintf("file:/checkpoints/%s/chk-%d", k, offset), func(int32) int64 { return offset })
}

// config is the resource with an entry per operator of offsets; an offset
// of -1 names a control topic that does not exist.
func (f *fleetEnv) config(t *testing.T, offsets map[string]int64) string {
	keys := make([]string, 0, len(offsets))
	for k := range offsets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(f.Provider() + "resource \"flinkagents_cleanup_boundaries\" \"fleet\" {\n  boundaries = {\n")
	for _, k := range keys {
		op, control, off := f.ops[k], f.ops[k].control, offsets[k]
		if off < 0 {
			control, off = f.Name("missing-control"), 5
		}
		fmt.Fprintf(&b, "    %q = {\n      control_topic = %q\n      action_state_topic = %q\n      plan_json = %q\n    }\n", k, control, op.data, f.at(t, k, off).File())
	}
	b.WriteString("  }\n}\n")
	return b.String()
}

// starts checks that every partition of operator k starts at want.
func (f *fleetEnv) starts(k string, want int64) resource.TestCheckFunc {
	return func(*terraform.State) error {
		for p, s := range f.StartOffsets(f.ops[k].data) {
			if s != want {
				return fmt.Errorf("operator %s partition %d starts at %d, want %d", k, p, s, want)
			}
		}
		return nil
	}
}

func entryAttr(key, attr string) tfjsonpath.Path {
	return tfjsonpath.New("boundaries").AtMapKey(key).AtMapKey(attr)
}

// TestAccCleanupBoundaries: a fleet advances in one resource, created
// empty before its first plan. Each entry
// is applied with the protocol, an unchanged entry is left alone (and
// plans no change), a backward move of one entry is refused at plan time
// naming it, an entry that fails at apply keeps its previous state while
// the others advance, a removed entry is only forgotten, and import adopts
// what the control topics record.
func TestAccCleanupBoundaries(t *testing.T) {
	f := newFleetEnv(t, "orders", "payments")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				// A fleet before its first plan: nothing to read or apply.
				Config: f.config(t, map[string]int64{}),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(fleetAddr, tfjsonpath.New("boundaries"), knownvalue.MapSizeExact(0)),
				},
				Check: resource.ComposeTestCheckFunc(f.starts("orders", 0), f.starts("payments", 0)),
			},
			{
				Config: f.config(t, map[string]int64{"orders": 10, "payments": 10}),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "status"), knownvalue.StringExact("APPLIED")),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("payments", "plan_id"), knownvalue.StringExact(f.at(t, "payments", 10).ID())),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("payments", "records_to_delete"), knownvalue.Int64Exact(30)),
				},
				Check: resource.ComposeTestCheckFunc(f.starts("orders", 10), f.starts("payments", 10)),
			},
			{
				// Only orders moves; payments keeps what was read.
				Config: f.config(t, map[string]int64{"orders": 20, "payments": 10}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(fleetAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "records_to_delete"), knownvalue.Int64Exact(30)),
					plancheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "partitions"), knownvalue.MapExact(map[string]knownvalue.Check{
						"0": knownvalue.StringExact("deletes 10 records from offset 10"),
						"1": knownvalue.StringExact("deletes 10 records from offset 10"),
						"2": knownvalue.StringExact("deletes 10 records from offset 10"),
					})),
					plancheck.ExpectKnownValue(fleetAddr, entryAttr("payments", "records_to_delete"), knownvalue.Int64Exact(0)),
				}},
				Check: resource.ComposeTestCheckFunc(f.starts("orders", 20), f.starts("payments", 10)),
			},
			{
				Config:      f.config(t, map[string]int64{"orders": 15, "payments": 30}),
				ExpectError: regexp.MustCompile(`Boundary "orders": Cleanup Boundary Would Move Backward`),
			},
			{
				// The refusal above changed nothing; a control topic that
				// does not exist fails its entry at apply, and the other
				// entry advances all the same.
				Config:      f.config(t, map[string]int64{"orders": -1, "payments": 30}),
				ExpectError: regexp.MustCompile(`(?s)Boundary\s+"orders"`),
			},
			{
				// payments' advance was kept; orders kept its old entry.
				Config: f.config(t, map[string]int64{"orders": 20, "payments": 30}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: resource.ComposeTestCheckFunc(f.starts("orders", 20), f.starts("payments", 30)),
			},
			{
				ResourceName:                         fleetAddr,
				ImportState:                          true,
				ImportStateId:                        fmt.Sprintf("orders=%s,payments=%s", f.ops["orders"].control, f.ops["payments"].control),
				ImportStateVerify:                    true,
				ImportStateVerifyIdentifierAttribute: "id",
				ImportStateVerifyIgnore:              []string{"timeouts"},
			},
			{
				Config: f.config(t, map[string]int64{"orders": 20}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(fleetAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(fleetAddr, tfjsonpath.New("boundaries"), knownvalue.MapSizeExact(1)),
				},
				Check: resource.ComposeTestCheckFunc(f.starts("orders", 20), f.starts("payments", 30)),
			},
		},
	})
}

// TestAccCleanupBoundariesRefusals: what is refused at plan time names the
// entry and changes nothing: a malformed plan, a plan for another topic,
// two entries sharing a control topic, and a bad import ID.
func TestAccCleanupBoundariesRefusals(t *testing.T) {
	f := newFleetEnv(t, "orders", "payments")
	good := f.config(t, map[string]int64{"orders": 10, "payments": 10})
	malformed := strings.Replace(good, `\"offsets\"`, `\"offs\"`, 1)
	otherTopic := strings.Replace(good, fmt.Sprintf("action_state_topic = %q", f.ops["payments"].data), fmt.Sprintf("action_state_topic = %q", f.ops["orders"].data), 1)
	shared := strings.Replace(good, fmt.Sprintf("control_topic = %q", f.ops["payments"].control), fmt.Sprintf("control_topic = %q", f.ops["orders"].control), 1)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: malformed, ExpectError: regexp.MustCompile(`(?s)Malformed Cleanup Plan.*boundaries\["orders"\]\.plan_json`)},
			{Config: otherTopic, ExpectError: regexp.MustCompile(`(?s)Plan Cleans Another Topic`)},
			{Config: shared, ExpectError: regexp.MustCompile(`Boundary "(orders|payments)": Two Cleanup Boundaries Share A Control Topic`)},
			{Config: good},
			{ResourceName: fleetAddr, ImportState: true, ImportStateId: "orders", ExpectError: regexp.MustCompile(`Invalid Import ID`)},
		},
	})
	for _, k := range []string{"orders", "payments"} {
		if err := f.starts(k, 10)(nil); err != nil {
			t.Error(err)
		}
	}
}
