package cleanup

import (
	"context"
	"errors"
	"fmt"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// recordedTarget opens step 7: the deletion goes up to the effective
// boundary as recorded now, never up to anything merely in memory, and only
// once this plan is found recorded.
func (a *applier) recordedTarget(ctx context.Context) (cleanupplan.Offsets, error) {
	log, err := a.readHistory(ctx)
	if err != nil {
		return nil, err
	}
	if op, ok := log.Lookup(a.id); !ok || !op.Plan.Equal(a.plan) {
		// A control topic recreated after the commit holds none of it:
		// say that, rather than call the history corrupt.
		if err := a.checkControlTopicID(ctx, nil); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%w: plan %s was acknowledged but is not in control topic %q on re-read; nothing was deleted",
			cleanupplan.ErrCorruptControlLog, a.id, a.req.ControlTopic)
	}
	return log.Boundary(), nil
}

// deleteBelow is step 7's deletion, after identity and settings are checked
// again. Only partitions that start below target have anything to delete
// (records elsewhere may even be gone past the boundary); it returns those
// ranges.
//
// Kafka's DeleteRecords names the topic, not its ID, so nothing a client
// does closes the window between the last identity check and the delete;
// it is kept as short as it can be: kafkaops.DeleteRecords reads the
// topic's ID in the request right before each DeleteRecords request, and
// again right after, and this apply reports what it may have reached
// (deleteRefused).
func (a *applier) deleteBelow(ctx context.Context, target cleanupplan.Offsets) ([]Range, error) {
	t, err := a.checkTopic(ctx)
	if err != nil {
		return nil, err
	}
	before, err := a.k.StartOffsets(ctx, a.plan.Topic)
	if err != nil {
		return nil, err
	}
	pending := Remaining(target, before)
	upTo := cleanupplan.Offsets{}
	for _, r := range pending {
		upTo[r.Partition] = r.To
	}
	a.step("delete records", map[string]any{"partitions": len(upTo)})
	if len(upTo) == 0 {
		return pending, nil
	}
	_, err = a.k.DeleteRecords(ctx, a.plan.Topic, t.ID, upTo)
	var changed *kafkaops.DeleteRecordsIdentityError
	switch {
	case errors.As(err, &changed):
		return nil, a.deleteRefused(changed)
	case err != nil:
		return nil, fmt.Errorf("deleting records of %q below the COMMITTED boundary (the boundary stands; re-run apply to finish): %w", a.plan.Topic, err)
	}
	a.deleted = upTo
	return pending, nil
}

// verifyDeleted closes step 7: every partition now starts at or above
// target, whatever DeleteRecords answered.
func (a *applier) verifyDeleted(ctx context.Context, target cleanupplan.Offsets) error {
	after, err := a.k.StartOffsets(ctx, a.plan.Topic)
	if err != nil {
		return err
	}
	for _, p := range target.Partitions() {
		if after[p] < target[p] {
			return fmt.Errorf("%w: partition %d of %q starts at %d after DeleteRecords up to %d; re-run apply",
				ErrDeleteNotEffective, p, a.plan.Topic, after[p], target[p])
		}
	}
	return nil
}
