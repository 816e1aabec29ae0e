package resources_test

import (
	"context"
	"encoding/json"
	"math/big"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// upgradeBoundaryState runs the provider's UpgradeResourceState on a raw
// state of schema version from, as Terraform does on the first plan after a
// provider upgrade.
func upgradeBoundaryState(t *testing.T, raw []byte, from int64) (*tfprotov6.UpgradeResourceStateResponse, tftypes.Type) {
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
	if schema.Version != 2 {
		t.Fatalf("schema version %d, want 2", schema.Version)
	}
	resp, err := server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
		TypeName: "flinkagents_cleanup_boundary", Version: from, RawState: &tfprotov6.RawState{JSON: raw},
	})
	if err != nil {
		t.Fatal(err)
	}
	return resp, schema.ValueType()
}

// TestCleanupBoundaryStateUpgradeFromV0: a state written by 0.0.x (12
// partitions, testdata/cleanup_boundary_state_v0.json) upgrades to the
// current schema: the removed attributes are gone, partitions and
// records_to_delete (in version 0's format) are left for the next refresh,
// and everything else is kept as it was.
func TestCleanupBoundaryStateUpgradeFromV0(t *testing.T) {
	raw, err := os.ReadFile("testdata/cleanup_boundary_state_v0.json")
	if err != nil {
		t.Fatal(err)
	}
	resp, typ := upgradeBoundaryState(t, raw, 0)
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
	for _, refilled := range []string{"partitions", "records_to_delete"} {
		if !attrs[refilled].IsNull() {
			t.Errorf("%s kept in version 0's format: %v; the next refresh fills it in", refilled, attrs[refilled])
		}
	}
	var v0 map[string]any
	if err := json.Unmarshal(raw, &v0); err != nil {
		t.Fatal(err)
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
	resp, _ := upgradeBoundaryState(t, []byte(`{"id":"c","control_topic":"c","partitions":{"zero":"boundary 5, nothing to delete"}}`), 0)
	if len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Summary != "Cleanup Boundary State Not Upgraded" ||
		!strings.Contains(resp.Diagnostics[0].Detail, `"zero"`) {
		t.Fatalf("diagnostics %+v", resp.Diagnostics)
	}
	if resp.UpgradedState != nil {
		t.Fatalf("a refused upgrade returned a state")
	}
}

// TestCleanupBoundaryStateUpgradeFromV1: a version-1 state that stored
// recovery_points (written by every run that wired them in) upgrades with
// them dropped, as write-only values are never stored, and cleanup_enabled
// null until the next refresh reads the control topic.
func TestCleanupBoundaryStateUpgradeFromV1(t *testing.T) {
	raw := []byte(`{"id":"c","control_topic":"c","control_topic_id":"x","action_state_topic":"t","plan_json":"{}","plan_id":"p",` +
		`"topic":"t","topic_id":"i","source_recovery_point":"s","status":"APPLIED","records_to_delete":3,"partitions":{"0":"deletes 3 records from offset 0"},` +
		`"recovery_points":[{"path":"s","kind":"checkpoint","checkpoint_id":7,"topic":"t","topic_id":"i","offsets":{"0":3}}],` +
		`"keep_restorable":["s"],"unrestorable_points":[],"timeouts":null}`)
	resp, typ := upgradeBoundaryState(t, raw, 1)
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
	if !attrs["recovery_points"].IsNull() {
		t.Errorf("recovery_points kept in state: %v", attrs["recovery_points"])
	}
	if !attrs["cleanup_enabled"].IsNull() {
		t.Errorf("cleanup_enabled %v, want null until the next refresh", attrs["cleanup_enabled"])
	}
	var n big.Float
	if err := attrs["records_to_delete"].As(&n); err != nil || n.String() != "3" {
		t.Errorf("records_to_delete %v, want 3 kept", attrs["records_to_delete"])
	}
}
