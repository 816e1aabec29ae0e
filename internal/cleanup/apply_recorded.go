package cleanup

import (
	"context"
	"fmt"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// readHistory is step 4: the recorded history belongs to this topic and is
// a chain.
func (a *applier) readHistory(ctx context.Context) (*cleanupplan.Log, error) {
	log, err := readHistory(ctx, a.k, a.req.ControlTopic)
	if err != nil {
		return nil, err
	}
	if err := log.ValidateFor(a.plan.Topic, a.plan.TopicID, a.plan.Offsets); err != nil {
		return nil, fmt.Errorf("control topic %q: %w", a.req.ControlTopic, err)
	}
	a.lastRead = log
	return log, nil
}

// resumeOrCommit is step 5: a plan seen before is finished or resumed,
// never planned again; a plan not recorded yet is committed (step 6), or
// resumed when another writer recorded it meanwhile. done reports that the
// plan is APPLIED and nothing below it is readable: the apply is over.
func (a *applier) resumeOrCommit(ctx context.Context, log *cleanupplan.Log, res *Result) (done bool, err error) {
	op, recorded := log.Lookup(a.id)
	if !recorded {
		if log, err = a.commitNew(ctx, log); err != nil {
			return false, err
		}
		if log == nil { // this apply committed it
			a.committed = true
			a.committedHere = true
			return false, nil
		}
		op, _ = log.Lookup(a.id)
	}
	a.committed = true
	switch {
	case !op.Plan.Equal(a.plan):
		return false, fmt.Errorf("%w: plan ID %s is recorded with different contents", cleanupplan.ErrCorruptControlLog, a.id)
	case op.Status == cleanupplan.StatusApplied:
		// APPLIED is a claim about the past; the topic says whether it still
		// holds. Kafka persists a log start offset only periodically, so a
		// broker crash soon after DeleteRecords brings deleted records back.
		starts, err := a.k.StartOffsets(ctx, a.plan.Topic)
		if err != nil {
			return false, err
		}
		remain := Remaining(log.Boundary(), starts)
		if len(remain) == 0 {
			res.AlreadyApplied = true
			res.Target = log.Boundary()
			return true, nil
		}
		a.step("records below the APPLIED boundary are readable again: deleting them again", map[string]any{"partitions": len(remain)})
		res.Redeleted = true
	default:
		res.Resumed = true
	}
	return false, nil
}
