package resources

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
)

// removedInV1 are the version-0 attributes that repeated per-partition
// numbers already in plan_json and partitions.
var removedInV1 = []string{"offsets", "committed_boundary", "delete_ranges"}

// UpgradeState upgrades states of earlier schema versions: it works on the
// raw JSON, so the earlier schemas need not be kept.
func (r *boundaryResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: {StateUpgrader: upgradeBoundaryFrom(0, boundaryStateV0ToV1, boundaryStateV1ToV2)},
		1: {StateUpgrader: upgradeBoundaryFrom(1, boundaryStateV1ToV2)},
	}
}

// upgradeBoundaryFrom applies steps, in order, to a state of version from.
func upgradeBoundaryFrom(from int64, steps ...func([]byte) ([]byte, error)) func(context.Context, resource.UpgradeStateRequest, *resource.UpgradeStateResponse) {
	return func(_ context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
		upgraded := req.RawState.JSON
		for _, step := range steps {
			var err error
			if upgraded, err = step(upgraded); err != nil {
				resp.Diagnostics.Append(diagnostics.BoundaryStateNotUpgraded(from, err))
				return
			}
		}
		resp.DynamicValue = &tfprotov6.DynamicValue{JSON: upgraded}
	}
}

// boundaryStateV1ToV2 drops recovery_points, write-only since version 2
// (stored only by earlier versions), and adds cleanup_enabled, which the
// next refresh reads from the control topic.
func boundaryStateV1ToV2(raw []byte) ([]byte, error) {
	var state map[string]json.RawMessage
	if err := json.Unmarshal(raw, &state); err != nil {
		return nil, err
	}
	state["recovery_points"] = json.RawMessage("null")
	if _, ok := state["cleanup_enabled"]; !ok {
		state["cleanup_enabled"] = json.RawMessage("null")
	}
	return json.Marshal(state)
}

// boundaryStateV0ToV1 drops the removed attributes, and partitions and
// records_to_delete, whose lines version 0 wrote in another format: the
// next refresh fills them in, as for an imported boundary.
func boundaryStateV0ToV1(raw []byte) ([]byte, error) {
	var state map[string]json.RawMessage
	if err := json.Unmarshal(raw, &state); err != nil {
		return nil, err
	}
	for _, name := range removedInV1 {
		delete(state, name)
	}
	if parts, ok := state["partitions"]; ok && string(parts) != "null" {
		var byKey map[string]string
		if err := json.Unmarshal(parts, &byKey); err != nil {
			return nil, err
		}
		for k := range byKey {
			if _, err := strconv.ParseInt(k, 10, 32); err != nil {
				return nil, err
			}
		}
	}
	state["partitions"] = json.RawMessage("null")
	state["records_to_delete"] = json.RawMessage("null")
	return json.Marshal(state)
}
