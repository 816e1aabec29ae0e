package cleanupplan

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrPlanMissesPartitions: a plan covers only some of the partitions its
// topic has, or the recorded boundary covers. Matched by a
// *MissingPartitionsError.
var ErrPlanMissesPartitions = errors.New("cleanup plan misses partitions of its topic")

// MissingPartitionsError is a plan whose partitions are a strict subset of
// those it is checked against: its topic's (the topic has more partitions
// than the plan names) or a recorded boundary's.
type MissingPartitionsError struct {
	PlanID string
	Topic  string
	// Covers are the plan's partitions; Missing those it lacks.
	Covers, Missing []int32
	// Against names what has the missing partitions: "the topic has
	// partitions [0 1 2]", "the recorded boundary covers [0 1 2]".
	Against string
}

func (e *MissingPartitionsError) Error() string {
	noun := "partition"
	if len(e.Missing) > 1 {
		noun = "partitions"
	}
	plan := "the plan"
	if e.PlanID != "" {
		plan = "plan " + e.PlanID
	}
	return fmt.Sprintf("%v: %s covers partitions %s of topic %q, but %s: it misses %s %s. "+
		"A plan names every partition of its topic; nothing was deleted for any partition",
		ErrPlanMissesPartitions, plan, shortInts(e.Covers), e.Topic, e.Against, noun, shortInts(e.Missing))
}

// Is lets errors.Is(err, ErrPlanMissesPartitions) match.
func (e *MissingPartitionsError) Is(target error) bool { return target == ErrPlanMissesPartitions }

// MissingPartitions returns a *MissingPartitionsError when every partition
// of a plan (planID, "" when not known; its topic; its offsets) is in want
// and want has more; nil otherwise (the same set, or sets that differ some
// other way, which callers report as they did). against describes want for
// the message.
func MissingPartitions(planID, topic string, offsets Offsets, want []int32, against string) error {
	covers := offsets.Partitions()
	if len(covers) >= len(want) {
		return nil
	}
	var missing []int32
	for _, w := range want {
		if _, ok := offsets[w]; !ok {
			missing = append(missing, w)
		}
	}
	if len(covers)+len(missing) != len(want) {
		return nil // p has a partition want lacks
	}
	return &MissingPartitionsError{PlanID: planID, Topic: topic, Covers: covers, Missing: missing, Against: against}
}

func shortInts(ps []int32) string {
	s := slices.Clone(ps)
	slices.Sort(s)
	if len(s) > 8 {
		return fmt.Sprintf("%v... (%d in all)", s[:8], len(s))
	}
	parts := make([]string, len(s))
	for i, p := range s {
		parts[i] = fmt.Sprint(p)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
