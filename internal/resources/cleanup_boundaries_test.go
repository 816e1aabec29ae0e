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
	return f.configWith(t, offsets, "")
}

// noPlan, as an operator's offset in config, gives its entry no plan_json:
// an operator rolled out before its job's first checkpoint.
const noPlan = -2

// configWith is config with extra lines in the resource block.
func (f *fleetEnv) configWith(t *testing.T, offsets map[string]int64, extra string) string {
	keys := make([]string, 0, len(offsets))
	for k := range offsets {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(f.Provider() + "resource \"flinkagents_cleanup_boundaries\" \"fleet\" {\n  boundaries = {\n")
	for _, k := range keys {
		op, control, off := f.ops[k], f.ops[k].control, offsets[k]
		if off == noPlan {
			fmt.Fprintf(&b, "    %q = {\n      control_topic = %q\n      action_state_topic = %q\n    }\n", k, control, op.data)
			continue
		}
		if off < 0 {
			control, off = f.Name("missing-control"), 5
		}
		fmt.Fprintf(&b, "    %q = {\n      control_topic = %q\n      action_state_topic = %q\n      plan_json = %q\n    }\n", k, control, op.data, f.at(t, k, off).File())
	}
	b.WriteString("  }\n" + extra + "\n}\n")
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
// empty before its first plan. Each entry is applied with the protocol, an
// unchanged entry is left alone (and plans no change), and the review of
// each change stays in state as applied, so the plan after every apply is
// empty. A backward move of one entry is held at plan time (REFUSED, with a
// warning) while the other advances, and plans nothing more while it stays
// refused; an entry that fails at apply records where it stands while the
// other advances; a removed entry is only forgotten, and import adopts what
// the control topics record.
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
				// New entries: their review is read by their apply (no refresh
				// read them yet), and shown from the next plan on.
				Config: f.config(t, map[string]int64{"orders": 10, "payments": 10}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(fleetAddr, entryAttr("orders", "status")),
					plancheck.ExpectUnknownValue(fleetAddr, entryAttr("orders", "records_to_delete")),
					plancheck.ExpectUnknownValue(fleetAddr, entryAttr("orders", "partitions")),
					plancheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "plan_id"), knownvalue.StringExact(f.at(t, "orders", 10).ID())),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "status"), knownvalue.StringExact("APPLIED")),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "cleanup_enabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("payments", "plan_id"), knownvalue.StringExact(f.at(t, "payments", 10).ID())),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("payments", "records_to_delete"), knownvalue.Int64Exact(30)),
				},
				Check: resource.ComposeTestCheckFunc(f.starts("orders", 10), f.starts("payments", 10)),
			},
			{
				// Only orders moves; payments keeps the review of its last change.
				Config: f.config(t, map[string]int64{"orders": 20, "payments": 10}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(fleetAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "records_to_delete"), knownvalue.Int64Exact(30)),
					plancheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "partitions"), knownvalue.MapExact(map[string]knownvalue.Check{
						"0": knownvalue.StringExact("deletes 10 records from offset 10"),
						"1": knownvalue.StringExact("deletes 10 records from offset 10"),
						"2": knownvalue.StringExact("deletes 10 records from offset 10"),
					})),
					plancheck.ExpectKnownValue(fleetAddr, entryAttr("payments", "records_to_delete"), knownvalue.Int64Exact(30)),
					plancheck.ExpectKnownValue(fleetAddr, entryAttr("payments", "status"), knownvalue.StringExact("APPLIED")),
				}},
				Check: resource.ComposeTestCheckFunc(f.starts("orders", 20), f.starts("payments", 10)),
			},
			{
				// A backward move of orders is held; payments advances.
				Config: f.config(t, map[string]int64{"orders": 15, "payments": 30}),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "status"), knownvalue.StringExact("REFUSED")),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "records_to_delete"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "cleanup_enabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("payments", "status"), knownvalue.StringExact("APPLIED")),
				},
				Check: resource.ComposeTestCheckFunc(f.starts("orders", 20), f.starts("payments", 30)),
			},
			{
				// Still refused: nothing more to plan.
				Config: f.config(t, map[string]int64{"orders": 15, "payments": 30}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
			{
				// A control topic that does not exist fails its entry at
				// apply (it may have been created in the same run, so the
				// plan cannot refuse it); the apply records where it stands,
				// warns, and the resource stays as planned for the rest.
				Config:             f.config(t, map[string]int64{"orders": -1, "payments": 30}),
				ExpectNonEmptyPlan: true,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "status"), knownvalue.StringExact("NOT_RECORDED")),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("payments", "status"), knownvalue.StringExact("APPLIED")),
				},
				Check: resource.ComposeTestCheckFunc(f.starts("orders", 20), f.starts("payments", 30)),
			},
			{
				// orders back on its control topic, at the recorded plan.
				Config: f.config(t, map[string]int64{"orders": 20, "payments": 30}),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "status"), knownvalue.StringExact("APPLIED")),
				},
				Check: resource.ComposeTestCheckFunc(f.starts("orders", 20), f.starts("payments", 30)),
			},
			{
				ResourceName:                         fleetAddr,
				ImportState:                          true,
				ImportStateId:                        fmt.Sprintf("orders=%s,payments=%s", f.ops["orders"].control, f.ops["payments"].control),
				ImportStateVerify:                    true,
				ImportStateVerifyIdentifierAttribute: "id",
				ImportStateVerifyIgnore:              []string{"timeouts", "boundaries.orders.records_to_delete", "boundaries.orders.partitions", "boundaries.payments.records_to_delete", "boundaries.payments.partitions"},
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

// TestAccCleanupBoundariesFirstApplyFailsOneEntry: a first apply in which
// one entry fails creates the resource untainted, with the entry that
// succeeded recorded; the next plan updates in place, never replaces.
func TestAccCleanupBoundariesFirstApplyFailsOneEntry(t *testing.T) {
	f := newFleetEnv(t, "orders", "payments")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config:             f.config(t, map[string]int64{"orders": -1, "payments": 10}),
				ExpectNonEmptyPlan: true,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("payments", "status"), knownvalue.StringExact("APPLIED")),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "status"), knownvalue.StringExact("NOT_RECORDED")),
					statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "cleanup_enabled"), knownvalue.Bool(false)),
				},
				Check: resource.ComposeTestCheckFunc(f.starts("orders", 0), f.starts("payments", 10)),
			},
			{
				Config: f.config(t, map[string]int64{"orders": 10, "payments": 10}),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(fleetAddr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeTestCheckFunc(f.starts("orders", 10), f.starts("payments", 10)),
			},
		},
	})
}

// TestAccCleanupBoundariesRefusals: with on_refusal = "fail", what is
// refused at plan time fails the plan naming the entry and changes
// nothing: a malformed plan, a plan for another topic, two entries sharing
// a control topic, a backward move, and a bad import ID. With the default,
// each holds only its entry (REFUSED) and the other advances.
func TestAccCleanupBoundariesRefusals(t *testing.T) {
	f := newFleetEnv(t, "orders", "payments")
	const fail = `  on_refusal = "fail"`
	good := f.configWith(t, map[string]int64{"orders": 10, "payments": 10}, fail)
	malformed := strings.Replace(good, `\"offsets\"`, `\"offs\"`, 1)
	otherTopic := strings.Replace(good, fmt.Sprintf("action_state_topic = %q", f.ops["payments"].data), fmt.Sprintf("action_state_topic = %q", f.ops["orders"].data), 1)
	shared := strings.Replace(good, fmt.Sprintf("control_topic = %q", f.ops["payments"].control), fmt.Sprintf("control_topic = %q", f.ops["orders"].control), 1)
	held := func(cfg, key string, advanced string) resource.TestStep {
		return resource.TestStep{
			Config: strings.Replace(cfg, fail, "", 1),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(fleetAddr, entryAttr(key, "status"), knownvalue.StringExact("REFUSED")),
				statecheck.ExpectKnownValue(fleetAddr, entryAttr(advanced, "status"), knownvalue.StringExact("APPLIED")),
			},
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: malformed, ExpectError: regexp.MustCompile(`(?s)Malformed Cleanup Plan.*boundaries\["orders"\]\.plan_json`)},
			{Config: otherTopic, ExpectError: regexp.MustCompile(`(?s)Plan Cleans Another Topic`)},
			{Config: shared, ExpectError: regexp.MustCompile(`Boundary "(orders|payments)": Two Cleanup Boundaries Share A Control Topic`)},
			{Config: good},
			{Config: f.configWith(t, map[string]int64{"orders": 5, "payments": 10}, fail), ExpectError: regexp.MustCompile(`Boundary "orders": Cleanup Boundary Would Move Backward`)},
			{ResourceName: fleetAddr, ImportState: true, ImportStateId: "orders", ExpectError: regexp.MustCompile(`Invalid Import ID`)},
			held(strings.Replace(f.configWith(t, map[string]int64{"orders": 10, "payments": 20}, fail), `\"offsets\"`, `\"offs\"`, 1), "orders", "payments"),
			held(f.configWith(t, map[string]int64{"orders": 5, "payments": 25}, fail), "orders", "payments"),
		},
	})
	if err := f.starts("orders", 10)(nil); err != nil {
		t.Error(err)
	}
	if err := f.starts("payments", 25)(nil); err != nil {
		t.Error(err)
	}
}

// TestAccCleanupBoundariesTopicGoneAtPlanTime: an operator whose
// action-state topic was deleted is held with a warning saying the topic
// is gone (not "recreated"), and the other operators advance.
func TestAccCleanupBoundariesTopicGoneAtPlanTime(t *testing.T) {
	f := newFleetEnv(t, "orders", "payments")
	w := f.Workdir()
	w.Write("main.tf", requiredProviders+f.config(t, map[string]int64{"orders": 10, "payments": 10}))
	w.Terraform("apply", "-auto-approve")
	f.DeleteTopic(f.ops["orders"].data)
	w.Write("main.tf", requiredProviders+f.config(t, map[string]int64{"orders": 20, "payments": 20}))
	out := strings.Join(strings.Fields(string(w.Terraform("apply", "-auto-approve"))), " ")
	want := fmt.Sprintf(`Warning: Boundary "orders" Held: Action-State Topic Is Gone .* action-state topic %q does not exist`, f.ops["orders"].data)
	if !regexp.MustCompile(want).MatchString(out) || strings.Contains(out, "Recreated") {
		t.Errorf("no warning saying orders' topic is gone:\n%s", out)
	}
	if err := f.starts("payments", 20)(nil); err != nil {
		t.Error(err)
	}
}
