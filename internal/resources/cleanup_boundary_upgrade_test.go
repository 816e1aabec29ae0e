package resources_test

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// upgradeBoundaryState runs the provider's UpgradeResourceState on a raw
// state of schema version 0, as Terraform does on the first plan after a
// provider upgrade.
func upgradeBoundaryState(t *testing.T, raw []byte) (*tfprotov6.UpgradeResourceStateResponse, tftypes.Type) {
	t.Helper()
	ctx := context.Background()
	server, err := acctest.Factories["flinkagents"]()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	schema := schemas.ResourceSchemas["flinkagents_cleanup_boundary"]
	if schema.Version != 1 {
		t.Fatalf("schema version %d, want 1", schema.Version)
	}
	resp, err := server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
		TypeName: "flinkagents_cleanup_boundary", Version: 0, RawState: &tfprotov6.RawState{JSON: raw},
	})
	if err != nil {
		t.Fatal(err)
	}
	return resp, schema.ValueType()
}

// TestCleanupBoundaryStateUpgradeFromV0: a state written by 0.0.x (12
// partitions, testdata/cleanup_boundary_state_v0.json) upgrades to the
// current schema: the removed attributes are gone, partitions is keyed in
// decimal, and everything else is kept as it was.
func TestCleanupBoundaryStateUpgradeFromV0(t *testing.T) {
	raw, err := os.ReadFile("testdata/cleanup_boundary_state_v0.json")
	if err != nil {
		t.Fatal(err)
	}
	resp, typ := upgradeBoundaryState(t, raw)
	for _, d := range resp.Diagnostics {
		t.Errorf("%s: %s", d.Summary, d.Detail)
	}
	got, err := resp.UpgradedState.Unmarshal(typ)
	if err != nil {
		t.Fatalf("the upgraded state does not fit the current schema: %v", err)
	}
	var attrs map[string]tftypes.Value
	if err := got.As(&attrs); err != nil {
		t.Fatal(err)
	}
	for _, removed := range []string{"offsets", "committed_boundary", "delete_ranges"} {
		if _, ok := attrs[removed]; ok {
			t.Errorf("%s is still in the upgraded state", removed)
		}
	}
	var partitions map[string]tftypes.Value
	if err := attrs["partitions"].As(&partitions); err != nil {
		t.Fatal(err)
	}
	var v0 map[string]any
	if err := json.Unmarshal(raw, &v0); err != nil {
		t.Fatal(err)
	}
	if len(partitions) != 12 {
		t.Fatalf("%d partitions after the upgrade, want 12", len(partitions))
	}
	for key, line := range v0["partitions"].(map[string]any) {
		decimal := strings.TrimPrefix(key, "0")
		if decimal == "" {
			decimal = "0"
		}
		var s string
		if err := partitions[decimal].As(&s); err != nil || s != line {
			t.Errorf("partition %q (was %q): %q, want %q", decimal, key, s, line)
		}
	}
	for _, kept := range []string{"plan_json", "plan_id", "status", "control_topic_id", "source_recovery_point"} {
		var s string
		if err := attrs[kept].As(&s); err != nil || !reflect.DeepEqual(s, v0[kept]) {
			t.Errorf("%s: %q, want %q", kept, s, v0[kept])
		}
	}
}

// TestCleanupBoundaryStateUpgradeRefusesGarbage: a version-0 state whose
// partitions are not keyed by partition numbers is refused with a
// diagnostic, not half-upgraded.
func TestCleanupBoundaryStateUpgradeRefusesGarbage(t *testing.T) {
	resp, _ := upgradeBoundaryState(t, []byte(`{"id":"c","control_topic":"c","partitions":{"zero":"boundary 5, nothing to delete"}}`))
	if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Summary != "Cleanup Boundary State Not Upgraded" ||
		!strings.Contains(resp.Diagnostics[0].Detail, `"zero"`) {
		t.Fatalf("diagnostics %+v", resp.Diagnostics)
	}
	if resp.UpgradedState != nil {
		t.Fatalf("a refused upgrade returned a state")
	}
}
