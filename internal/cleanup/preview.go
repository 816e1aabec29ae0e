package cleanup

import (
	"context"
	"fmt"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// Preview is what an apply of a plan would do, computed without writing.
type Preview struct {
	// Boundary is the effective boundary recorded now (empty if none).
	Boundary cleanupplan.Offsets
	// Status is the plan's recorded status, "" when not recorded.
	Status cleanupplan.Status
	// Ranges lists, per partition, what the apply would delete.
	Ranges []Range
	// RecordsToDelete is the sum of the ranges.
	RecordsToDelete int64
}

// PreviewApply reads the control topic and the data topic's start offsets
// and says what Apply would delete. It refuses, like Apply, a plan that does
// not advance or equal the recorded boundary, and one whose topic identity
// or partition set no longer matches.
func PreviewApply(ctx context.Context, k Kafka, plan cleanupplan.Plan, controlTopic string) (Preview, error) {
	var pv Preview
	log, err := History(ctx, k, controlTopic)
	if err != nil {
		return pv, err
	}
	if err := log.ValidateFor(plan.Topic, plan.TopicID, plan.Offsets); err != nil {
		return pv, fmt.Errorf("control topic %q: %w", controlTopic, err)
	}
	pv.Boundary = log.Boundary()
	if op, ok := log.Lookup(plan.ID()); ok {
		pv.Status = op.Status
	} else if err := plan.AdvancesOrEquals(pv.Boundary); err != nil {
		return pv, fmt.Errorf("control topic %q: %w", controlTopic, err)
	}
	if _, err := CheckIdentity(ctx, k, plan); err != nil {
		return pv, err
	}
	starts, err := k.StartOffsets(ctx, plan.Topic)
	if err != nil {
		return pv, err
	}
	for _, p := range plan.Offsets.Partitions() {
		target := max(plan.Offsets[p], pv.Boundary[p])
		if starts[p] < target {
			pv.Ranges = append(pv.Ranges, Range{Partition: p, From: starts[p], To: target})
			pv.RecordsToDelete += target - starts[p]
		}
	}
	return pv, nil
}
