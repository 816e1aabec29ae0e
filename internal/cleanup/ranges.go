package cleanup

import "github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"

// Range is the part of one partition an apply deleted: [From, To).
type Range struct {
	Partition int32
	From, To  int64
}

// Records is how many records ranges hold together.
func Records(ranges []Range) int64 {
	var n int64
	for _, r := range ranges {
		n += r.To - r.From
	}
	return n
}

// Remaining lists, per partition, the records below boundary that the
// topic still holds: [start, boundary) where start < boundary.
func Remaining(boundary cleanupplan.Offsets, starts map[int32]int64) []Range {
	var out []Range
	for _, p := range boundary.Partitions() {
		if s, ok := starts[p]; ok && s < boundary[p] {
			out = append(out, Range{Partition: p, From: s, To: boundary[p]})
		}
	}
	return out
}

// GonePast lists, per partition, records at or above boundary that were
// deleted without a boundary covering them: [boundary, start) where
// start > boundary. A restore from a checkpoint whose marker lies in that
// range cannot replay them.
func GonePast(boundary cleanupplan.Offsets, starts map[int32]int64) []Range {
	var out []Range
	for _, p := range boundary.Partitions() {
		if s, ok := starts[p]; ok && s > boundary[p] {
			out = append(out, Range{Partition: p, From: boundary[p], To: s})
		}
	}
	return out
}
