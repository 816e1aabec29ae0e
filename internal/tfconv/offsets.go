// Package tfconv converts core values (offsets, delete ranges) to Terraform
// values and core rules (topic names) to schema validators, shared by
// resources and data sources.
package tfconv

import (
	"fmt"
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

// PartitionChanges renders, one string per partition, what a boundary
// means for it: the boundary and the records an apply deletes there. It is
// the one place a plan shows each partition, so a 64-partition advance reads
// as 64 lines; keys are zero-padded to one width so that Terraform, which
// sorts map keys as strings, lists partitions in numeric order.
func PartitionChanges(target cleanupplan.Offsets, deleted []cleanup.Range) types.Map {
	parts := target.Partitions()
	width := 1
	if len(parts) > 0 {
		width = len(strconv.FormatInt(int64(parts[len(parts)-1]), 10))
	}
	byPartition := make(map[int32]cleanup.Range, len(deleted))
	for _, r := range deleted {
		byPartition[r.Partition] = r
	}
	elems := make(map[string]attr.Value, len(parts))
	for _, p := range parts {
		line := fmt.Sprintf("boundary %d, nothing to delete", target[p])
		if r, ok := byPartition[p]; ok {
			line = fmt.Sprintf("boundary %d, deletes [%d, %d): %d records", target[p], r.From, r.To, r.To-r.From)
		}
		elems[fmt.Sprintf("%0*d", width, p)] = types.StringValue(line)
	}
	return types.MapValueMust(types.StringType, elems)
}
