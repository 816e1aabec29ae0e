package cleanupplan

import (
	"fmt"
	"math/bits"
)

// BackwardMoveError says where a plan falls below a boundary: the first
// such partition in numeric order, and how many partitions do.
type BackwardMoveError struct {
	PlanID     string
	Partition  int32
	Boundary   int64
	Requested  int64
	Partitions int // partitions below the boundary, including Partition
}

func (e *BackwardMoveError) Error() string {
	more := ""
	if e.Partitions > 1 {
		more = fmt.Sprintf(" (and %d more partitions)", e.Partitions-1)
	}
	return fmt.Sprintf("%v: plan %s asks for offset %d on partition %d but the recorded boundary there is %d%s; "+
		"a boundary can only advance. Derive the plan from a newer checkpoint or savepoint",
		ErrBackwardMove, e.PlanID, e.Requested, e.Partition, e.Boundary, more)
}

// Is lets errors.Is(err, ErrBackwardMove) match.
func (e *BackwardMoveError) Is(target error) bool { return target == ErrBackwardMove }

// AdvancesOrEquals returns nil when p advances or equals boundary b: b is
// empty, or both have exactly the same partitions and p[x] >= b[x] for all x.
func (p Plan) AdvancesOrEquals(b Offsets) error {
	if len(b) == 0 {
		return nil
	}
	if !p.Offsets.samePartitions(b) {
		if err := MissingPartitions(p.ID(), p.Topic, p.Offsets, b.Partitions(), "the recorded boundary covers "+partitionList(b)); err != nil {
			return err
		}
		return fmt.Errorf("%w: plan %s covers partitions %s but the recorded boundary covers %s; the topic's partition set must never change under a boundary",
			ErrForeignPlan, p.ID(), partitionList(p.Offsets), partitionList(b))
	}
	var first *BackwardMoveError
	for _, part := range p.Offsets.Partitions() {
		if p.Offsets[part] < b[part] {
			if first == nil {
				first = &BackwardMoveError{PlanID: p.ID(), Partition: part, Boundary: b[part], Requested: p.Offsets[part]}
			}
			first.Partitions++
		}
	}
	if first != nil {
		return first
	}
	return nil
}

// dominates reports whether a[x] >= b[x] for every partition; both must
// hold the same partitions.
func dominates(a, b Offsets) bool {
	for part, off := range b {
		if a[part] < off {
			return false
		}
	}
	return true
}

// offsetSum is the 128-bit sum of all offsets: a total order that extends
// "advances or equals", used to sort a history before checking it is a chain.
// 128 bits because 1024 partitions of int64 offsets overflow 64.
type offsetSum struct{ hi, lo uint64 }

func sumOf(o Offsets) offsetSum {
	var s offsetSum
	for _, off := range o {
		var carry uint64
		s.lo, carry = bits.Add64(s.lo, uint64(off), 0)
		s.hi += carry
	}
	return s
}

func (s offsetSum) less(t offsetSum) bool {
	return s.hi < t.hi || (s.hi == t.hi && s.lo < t.lo)
}

func partitionList(o Offsets) string {
	parts := o.Partitions()
	if len(parts) > 8 {
		return fmt.Sprintf("%v... (%d partitions)", parts[:8], len(parts))
	}
	return fmt.Sprint(parts)
}
