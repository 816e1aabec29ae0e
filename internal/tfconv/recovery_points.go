package tfconv

import (
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/recoveryplan"
)

// RecoveryPointType is one recovery point and its merged markers, as
// flinkagents_cleanup_plan lists them and flinkagents_cleanup_boundary
// takes them (recovery_points): one type, so the list passes unchanged.
var RecoveryPointType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"path":          types.StringType,
	"kind":          types.StringType,
	"checkpoint_id": types.Int64Type,
	"topic":         types.StringType,
	"topic_id":      types.StringType,
	"offsets":       types.MapType{ElemType: types.Int64Type},
}}

// RecoveryPoints renders points in their order.
func RecoveryPoints(points []recoveryplan.Point) types.List {
	elems := make([]attr.Value, 0, len(points))
	for _, p := range points {
		elems = append(elems, types.ObjectValueMust(RecoveryPointType.AttrTypes, map[string]attr.Value{
			"path":          types.StringValue(p.Path),
			"kind":          types.StringValue(string(p.Kind)),
			"checkpoint_id": types.Int64Value(p.Read.CheckpointID),
			"topic":         types.StringValue(p.Plan.Topic),
			"topic_id":      types.StringValue(p.Plan.TopicID),
			"offsets":       Offsets(p.Plan.Offsets),
		}))
	}
	return types.ListValueMust(RecoveryPointType, elems)
}

// ParseOffsets reads a map rendered by Offsets (or written by hand): keys
// are partitions as decimal strings.
func ParseOffsets(m map[string]int64) (cleanupplan.Offsets, error) {
	out := make(cleanupplan.Offsets, len(m))
	for k, off := range m {
		p, err := strconv.ParseInt(k, 10, 32)
		if err != nil || strconv.FormatInt(p, 10) != k {
			return nil, fmt.Errorf("offsets key %q is not a partition number", k)
		}
		out[int32(p)] = off
	}
	return out, nil
}
