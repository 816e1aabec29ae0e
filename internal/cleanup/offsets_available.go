package cleanup

import (
	"context"
	"fmt"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// checkOffsetsAvailable requires start <= plan[p] <= end for every
// partition, with the topic's identity checked on both sides of the lookup
// so the offsets are known to belong to the plan's topic incarnation. It
// returns the topic as the second identity check described it.
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
	_, err = offsetsAvailable(a.plan, starts, ends)
	return t, err
}

// offsetsAvailable checks each plan offset against its partition: above
// the end (the high watermark) it cannot come from this topic's history,
// and the plan is refused. Below the start it can: records were deleted
// past it out of band (retention set by hand, a manual DeleteRecords);
// recording the boundary is still right, and those partitions are
// returned as gone, [plan offset, start), for the caller to warn about.
func offsetsAvailable(plan cleanupplan.Plan, starts, ends map[int32]int64) (gone []Range, err error) {
	for _, p := range plan.Offsets.Partitions() {
		off := plan.Offsets[p]
		start, okS := starts[p]
		end, okE := ends[p]
		if !okS || !okE {
			return nil, fmt.Errorf("%w: partition %d of %q was not answered when listing offsets", ErrOffsetOutOfRange, p, plan.Topic)
		}
		if off > end {
			return nil, fmt.Errorf("%w: plan %s asks for offset %d on partition %d of %q, but the partition's records end at offset %d; "+
				"the plan does not come from this topic's history. Nothing was written or deleted",
				ErrOffsetOutOfRange, plan.ID(), off, p, plan.Topic, end)
		}
		if off < start {
			gone = append(gone, Range{Partition: p, From: off, To: start})
		}
	}
	return gone, nil
}
