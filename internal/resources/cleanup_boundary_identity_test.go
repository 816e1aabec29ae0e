package resources_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
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

// TestCleanupBoundaryStateWithoutControlTopicID: a state written before
// control_topic_id existed plans no change; the refresh learns the ID.
func TestCleanupBoundaryStateWithoutControlTopicID(t *testing.T) {
	b := newBoundaryEnv(t, 3, 30)
	w := b.Workdir()
	w.Write("main.tf", requiredProviders+b.config(b.plan(t, "file:/checkpoints/orders/chk-10", func(int32) int64 { return 5 })))
	w.Terraform("apply", "-auto-approve")
	stateFile := filepath.Join(w.Dir, "terraform.tfstate")
	raw, err := os.ReadFile(stateFile)
	if err != nil {
		t.Fatal(err)
	}
	var state map[string]any
	if err := json.Unmarshal(raw, &state); err != nil {
		t.Fatal(err)
	}
	attrs := state["resources"].([]any)[0].(map[string]any)["instances"].([]any)[0].(map[string]any)["attributes"].(map[string]any)
	if _, ok := attrs["control_topic_id"]; !ok {
		t.Fatal("test bug: the apply recorded no control_topic_id to remove")
	}
	delete(attrs, "control_topic_id")
	if raw, err = json.Marshal(state); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stateFile, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	if out := string(w.Terraform("plan")); !strings.Contains(out, "No changes.") {
		t.Fatalf("a state without control_topic_id plans a change:\n%s", out)
	}
	w.Terraform("apply", "-refresh-only", "-auto-approve")
	var shown struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Values map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal(w.Terraform("show", "-json"), &shown); err != nil {
		t.Fatal(err)
	}
	topic, err := b.Admin.DescribeTopic(context.Background(), b.control)
	if err != nil {
		t.Fatal(err)
	}
	if got := shown.Values.RootModule.Resources[0].Values["control_topic_id"]; got != topic.ID.String() {
		t.Fatalf("control_topic_id after a refresh: %v, want %s", got, topic.ID)
	}
}
