// Package tfconv converts core values (offsets, delete ranges) to Terraform
// values, shared by resources and data sources.
package tfconv

import (
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// Offsets renders partition offsets as a Terraform map keyed by the
// partition's decimal string (Terraform map keys are strings).
func Offsets(o cleanupplan.Offsets) types.Map {
	elems := make(map[string]attr.Value, len(o))
	for p, off := range o {
		elems[strconv.FormatInt(int64(p), 10)] = types.Int64Value(off)
	}
	return types.MapValueMust(types.Int64Type, elems)
}

// DeleteRangeType is one partition's deleted range [from, to).
var DeleteRangeType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"partition": types.Int64Type,
	"from":      types.Int64Type,
	"to":        types.Int64Type,
}}

// DeleteRanges renders what an apply deletes.
func DeleteRanges(ranges []cleanup.Range) types.List {
	elems := make([]attr.Value, 0, len(ranges))
	for _, r := range ranges {
		elems = append(elems, types.ObjectValueMust(DeleteRangeType.AttrTypes, map[string]attr.Value{
			"partition": types.Int64Value(int64(r.Partition)),
			"from":      types.Int64Value(r.From),
			"to":        types.Int64Value(r.To),
		}))
	}
	return types.ListValueMust(DeleteRangeType, elems)
}
