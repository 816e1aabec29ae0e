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

// UpgradeState upgrades a 0.0.x state: it works on the raw JSON, so the
// version-0 schema need not be kept; the next refresh rewrites partitions.
func (r *boundaryResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: {StateUpgrader: upgradeBoundaryFromV0},
	}
}

func upgradeBoundaryFromV0(_ context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	upgraded, err := boundaryStateV0ToV1(req.RawState.JSON)
	if err != nil {
		resp.Diagnostics.Append(diagnostics.BoundaryStateNotUpgraded(0, err))
		return
	}
	resp.DynamicValue = &tfprotov6.DynamicValue{JSON: upgraded}
}

// boundaryStateV0ToV1 drops the removed attributes and re-keys partitions
// from zero-padded ("07") to decimal ("7").
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
		decimal := make(map[string]string, len(byKey))
		for k, line := range byKey {
			p, err := strconv.ParseInt(k, 10, 32)
			if err != nil {
				return nil, err
			}
			decimal[strconv.FormatInt(p, 10)] = line
		}
		rekeyed, err := json.Marshal(decimal)
		if err != nil {
			return nil, err
		}
		state["partitions"] = rekeyed
	}
	return json.Marshal(state)
}
