package tfconv

import (
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// PartitionSummaries renders, one line per partition, what a boundary means
// there: the records an apply deletes and the offset they start at, or
// nothing to delete (with the start offset when records above the boundary
// are gone too), and the recorded boundary where it differs from the plan's
// offset (a higher plan recorded elsewhere). It is the only per-partition
// attribute of a boundary, and it never repeats the plan's offset, which
// plan_json shows: each number is stored and reviewed once. Keys are the
// partition in decimal, as in the plan JSON's offsets.
//
// planned holds the plan's offsets, target the effective boundary after the
// apply, deleted the ranges deleted (or to delete), gonePast the ranges
// already gone at or above target (their end is the start offset).
func PartitionSummaries(planned, target cleanupplan.Offsets, deleted, gonePast []cleanup.Range) types.Map {
	deletes := byPartition(deleted)
	gone := byPartition(gonePast)
	elems := make(map[string]attr.Value, len(planned))
	for _, p := range planned.Partitions() {
		boundary, ok := target[p]
		if !ok {
			boundary = planned[p]
		}
		line := "nothing to delete"
		if r, ok := gone[p]; ok && r.To != boundary {
			line = fmt.Sprintf("nothing to delete (start offset %d)", r.To)
		}
		if r, ok := deletes[p]; ok {
			line = fmt.Sprintf("deletes %s from offset %d", records(r.To-r.From), r.From)
		}
		if boundary != planned[p] {
			line += fmt.Sprintf("; recorded boundary %d (higher plan recorded elsewhere)", boundary)
		}
		elems[strconv.FormatInt(int64(p), 10)] = types.StringValue(line)
	}
	return types.MapValueMust(types.StringType, elems)
}

func byPartition(ranges []cleanup.Range) map[int32]cleanup.Range {
	m := make(map[int32]cleanup.Range, len(ranges))
	for _, r := range ranges {
		m[r.Partition] = r
	}
	return m
}

func records(n int64) string {
	if n == 1 {
		return "1 record"
	}
	return fmt.Sprintf("%d records", n)
}
