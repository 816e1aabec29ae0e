package cleanupplan

import (
	"fmt"
	"slices"
)

// SortByOffsets orders items oldest first by the offsets of their plans
// (each plan derived from one recovery point, whose path is its
// SourceRecoveryPoint), and fails unless that order is total: every plan
// names the same topic, topic ID and partition set, and of any two, one is
// at or below the other on every partition. Equal offsets are ordered by
// tie, which must not look at anything a copy changes (file times).
//
// Offsets are what a restore is checked against (the runtime refuses a
// point whose marker is below the boundary on any partition), so ordering
// by them is the only order under which following the oldest point can
// never make another point unrestorable.
func SortByOffsets[T any](items []T, plan func(T) Plan, tie func(a, b T) int) error {
	sums := make(map[string]offsetSum, len(items))
	for _, it := range items {
		p := plan(it)
		sums[p.SourceRecoveryPoint] = sumOf(p.Offsets)
	}
	slices.SortStableFunc(items, func(a, b T) int {
		sa, sb := sums[plan(a).SourceRecoveryPoint], sums[plan(b).SourceRecoveryPoint]
		switch {
		case sa.less(sb):
			return -1
		case sb.less(sa):
			return 1
		}
		return tie(a, b)
	})
	// Sorted by a total order extending "at or below on every partition",
	// the set is a chain iff each plan dominates its predecessor.
	for k := 1; k < len(items); k++ {
		lo, hi := plan(items[k-1]), plan(items[k])
		if !lo.sameHistory(hi) {
			return fmt.Errorf("%w: %s names topic %q, topic ID %s, partitions %s, but %s names topic %q, topic ID %s, partitions %s; "+
				"recovery points of different topics cannot share one boundary: give the directories of one job only",
				ErrUnorderedRecoveryPoints, lo.SourceRecoveryPoint, lo.Topic, lo.TopicID, partitionList(lo.Offsets),
				hi.SourceRecoveryPoint, hi.Topic, hi.TopicID, partitionList(hi.Offsets))
		}
		if !dominates(hi.Offsets, lo.Offsets) {
			return fmt.Errorf("%w: %s and %s each hold a higher marker than the other on some partition (%s, first point vs second); "+
				"neither is older, and any boundary above the lower marker of each partition makes one of them unrestorable",
				ErrUnorderedRecoveryPoints, lo.SourceRecoveryPoint, hi.SourceRecoveryPoint, crossing(lo.Offsets, hi.Offsets))
		}
	}
	return nil
}
