package cleanup

import (
	"context"
	"fmt"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// checkOffsetsAvailable is checkAvailableRange on offsets listed now, with
// the topic's identity checked on both sides of the lookup so the offsets
// are known to belong to the plan's topic incarnation (the runtime's
// validateOffsetsAvailable does the same). It returns the topic as the
// second identity check described it.
func (a *applier) checkOffsetsAvailable(ctx context.Context) (kafkaops.Topic, error) {
	if _, err := checkIdentity(ctx, a.k, a.plan); err != nil {
		return kafkaops.Topic{}, err
	}
	starts, err := a.k.StartOffsets(ctx, a.plan.Topic)
	if err != nil {
		return kafkaops.Topic{}, err
	}
	ends, err := a.k.EndOffsets(ctx, a.plan.Topic)
	if err != nil {
		return kafkaops.Topic{}, err
	}
	t, err := checkIdentity(ctx, a.k, a.plan)
	if err != nil {
		return t, err
	}
	return t, checkAvailableRange(a.plan, starts, ends)
}

// checkAvailableRange is the runtime's rule for a plan about to be
// committed: on every partition, start <= offset <= end, where start is the
// log start offset and end the high watermark. The preview applies it at
// plan time and the commit step again inside the control transaction,
// before the COMMITTED append.
//
// It is asked only of a plan not recorded yet, as the runtime asks it. Such
// a plan advances or equals the recorded boundary, and the protocol deletes
// only up to that boundary, so an offset below the start always means
// records above the boundary were deleted out of band (retention, a manual
// DeleteRecords): the recovery point the plan comes from can no longer be
// restored in full, and the runtime refuses to record it. A plan already
// recorded is not asked: its offsets are legitimately below the start once
// its own or a further plan's deletion ran, which is how re-applying an
// APPLIED plan, resuming a COMMITTED one and a plan equal to the recorded
// boundary keep working.
func checkAvailableRange(plan cleanupplan.Plan, starts, ends map[int32]int64) error {
	for _, p := range plan.Offsets.Partitions() {
		start, okS := starts[p]
		end, okE := ends[p]
		if !okS || !okE {
			return fmt.Errorf("%w: partition %d of %q was not answered when listing offsets; nothing was written or deleted, re-run",
				ErrOffsetOutOfRange, p, plan.Topic)
		}
		if off := plan.Offsets[p]; off < start || off > end {
			return &UnavailableOffsetError{PlanID: plan.ID(), Topic: plan.Topic, Partition: p, Offset: off, Start: start, End: end}
		}
	}
	return nil
}

// UnavailableOffsetError is a plan offset outside its partition's available
// range [Start, End]. Its text begins with the runtime's own message for the
// same refusal, then says what it means and what to do.
type UnavailableOffsetError struct {
	PlanID     string
	Topic      string
	Partition  int32
	Offset     int64
	Start, End int64
}

func (e *UnavailableOffsetError) Error() string {
	msg := fmt.Sprintf("Cannot commit Kafka cleanup boundary for %s-%d at offset %d because the available range is [%d, %d]. ",
		e.Topic, e.Partition, e.Offset, e.Start, e.End)
	if e.Offset < e.Start {
		return msg + fmt.Sprintf("Records %d to %d of partition %d of %q were deleted outside this protocol (retention, a manual DeleteRecords), "+
			"so the recovery point plan %s comes from can no longer be restored in full. Nothing was written or deleted. "+
			"Find out what deleted them (retention.ms and retention.bytes must be -1), then derive a plan from a newer checkpoint or savepoint, "+
			"whose offsets are at or above each partition's start", e.Offset, e.Start-1, e.Partition, e.Topic, e.PlanID)
	}
	return msg + fmt.Sprintf("There is no record at that offset of partition %d of %q yet, so plan %s does not come from this topic's history "+
		"(another incarnation of the topic, another cluster, an edited plan). Nothing was written or deleted. "+
		"Check the checkpoint path and the topic", e.Partition, e.Topic, e.PlanID)
}

// Unwrap makes errors.Is(err, ErrOffsetOutOfRange) true.
func (e *UnavailableOffsetError) Unwrap() error { return ErrOffsetOutOfRange }
