package cleanup

import (
	"context"
	"fmt"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/permissions"
)

// Preview is what an apply of a plan would do, computed without writing.
type Preview struct {
	// Boundary is the effective boundary recorded now (empty if none).
	Boundary cleanupplan.Offsets
	// ControlTopicID is the control topic's ID as read: the one an apply
	// of this preview must find (Request.ControlTopicID).
	ControlTopicID string
	// Status is the plan's recorded status, "" when not recorded.
	Status cleanupplan.Status
	// Latest is the most recently recorded plan at its latest status (zero
	// when none): COMMITTED there means an apply of it was interrupted.
	Latest cleanupplan.Operation
	// Ranges lists, per partition, what the apply would delete.
	Ranges []Range
	// RecordsToDelete is the sum of the ranges.
	RecordsToDelete int64
	// GonePast lists partitions whose records at or above the target were
	// already deleted out of band, [target, start): restores from
	// checkpoints in that range can no longer replay them.
	GonePast []Range
	// Target is the boundary an apply leaves recorded: per partition, the
	// higher of the plan and the recorded boundary.
	Target cleanupplan.Offsets
}

// PreviewApply reads the control topic and the data topic's start offsets
// and says what Apply would delete. It refuses what Apply would refuse
// before writing: a plan that does not advance or equal the recorded
// boundary, one whose topic identity or partition set no longer matches,
// and one with an offset above its partition's end.
func PreviewApply(ctx context.Context, k Kafka, plan cleanupplan.Plan, controlTopic string) (Preview, error) {
	pv, err := preview(ctx, k, plan, controlTopic)
	return pv, explainRefusal(err, permissions.Input{ActionStateTopic: plan.Topic, ControlTopic: controlTopic}, nothingChanged)
}

func preview(ctx context.Context, k Kafka, plan cleanupplan.Plan, controlTopic string) (Preview, error) {
	var pv Preview
	log, control, err := HistoryAndTopic(ctx, k, controlTopic)
	if err != nil {
		return pv, err
	}
	pv.ControlTopicID = control.ID.String()
	if err := log.ValidateFor(plan.Topic, plan.TopicID, plan.Offsets); err != nil {
		return pv, fmt.Errorf("control topic %q: %w", controlTopic, err)
	}
	pv.Boundary = log.Boundary()
	pv.Latest, _ = log.Latest()
	op, recorded := log.Lookup(plan.ID())
	if recorded {
		pv.Status = op.Status
	} else if err := plan.AdvancesOrEquals(pv.Boundary); err != nil {
		return pv, fmt.Errorf("control topic %q: %w", controlTopic, err)
	}
	if _, err := checkIdentity(ctx, k, plan); err != nil {
		return pv, err
	}
	starts, err := k.StartOffsets(ctx, plan.Topic)
	if err != nil {
		return pv, err
	}
	if !recorded {
		// Apply checks these offsets before it commits; so does the plan.
		ends, err := k.EndOffsets(ctx, plan.Topic)
		if err != nil {
			return pv, err
		}
		if err := checkAvailableRange(plan, starts, ends); err != nil {
			return pv, err
		}
	}
	target := cleanupplan.Offsets{}
	for _, p := range plan.Offsets.Partitions() {
		target[p] = max(plan.Offsets[p], pv.Boundary[p])
	}
	pv.Target = target
	pv.Ranges = Remaining(target, starts)
	pv.RecordsToDelete = Records(pv.Ranges)
	pv.GonePast = GonePast(target, starts)
	return pv, nil
}
