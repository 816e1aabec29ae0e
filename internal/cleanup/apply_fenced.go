package cleanup

import (
	"context"
	"fmt"
	"time"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// otherApplierWait bounds how long an apply fenced by another applier of
// the same control topic waits for the history to show that applier's
// outcome: long enough for a whole apply (commit, DeleteRecords, verify,
// APPLIED), which takes seconds; the caller's deadline wins when shorter.
const otherApplierWait = 30 * time.Second

// otherApplierPoll spaces the re-reads of the history while waiting.
const otherApplierPoll = 250 * time.Millisecond

// finishedByAnother runs when another applier of the control topic fenced
// this one's transaction (kafkaops.ErrFenced): two invocations of one plan
// at once (two action_triggers, two workspaces) end this way, and the one
// fenced is not at fault. It never writes nor deletes: taking the plan
// over would fence the other applier in turn. It reads the history until
// the plan is APPLIED with nothing readable below it (success: the other
// applier finished it), or until the history shows the other applier
// recorded something else and is done, or otherApplierWait passes: then
// the fencing error stands, with what the history showed last.
func (a *applier) finishedByAnother(ctx context.Context, res Result, fenced error) (Result, error) {
	validated := a.lastRead
	a.step(StepAwaitingOtherApplier, nil)
	wait, cancel := context.WithTimeout(ctx, otherApplierWait)
	defer cancel()
	status := "not recorded"
	for {
		log, err := a.readHistory(wait)
		if err != nil {
			return res, fmt.Errorf("%w. Re-reading control topic %q to learn whether the other applier finished plan %s failed: %v",
				fenced, a.req.ControlTopic, a.id, err)
		}
		op, recorded := log.Lookup(a.id)
		switch {
		case recorded && !op.Plan.Equal(a.plan):
			return res, fmt.Errorf("%w: plan ID %s is recorded with different contents", cleanupplan.ErrCorruptControlLog, a.id)
		case recorded && op.Status == cleanupplan.StatusApplied:
			a.committed = true
			return a.appliedByAnother(wait, res, log, fenced)
		case recorded:
			a.committed = true
			status = "COMMITTED, so the runtime enforces it,"
		case validated != nil && !sameOperations(validated, log) && !pendingCommitted(log):
			// The other applier recorded and finished another plan.
			return res, fenced
		}
		select {
		case <-wait.Done():
			return res, fmt.Errorf("%w. Plan %s is %s and was not recorded APPLIED within %s of this apply being fenced; "+
				"once the other run has ended, re-run: it resumes the plan from the control topic",
				fenced, a.id, status, otherApplierWait)
		case <-time.After(otherApplierPoll):
		}
	}
}

// appliedByAnother ends an apply whose plan another applier recorded
// APPLIED: done when nothing below the boundary is readable, as
// resumeOrCommit decides for a plan found APPLIED.
func (a *applier) appliedByAnother(ctx context.Context, res Result, log *cleanupplan.Log, fenced error) (Result, error) {
	starts, err := a.k.StartOffsets(ctx, a.plan.Topic)
	if err != nil {
		return res, fmt.Errorf("%w. Plan %s was recorded APPLIED by the other applier; reading the start offsets of %q to confirm it failed: %v",
			fenced, a.id, a.plan.Topic, err)
	}
	if remain := Remaining(log.Boundary(), starts); len(remain) > 0 {
		return res, fmt.Errorf("%w. Plan %s was recorded APPLIED by the other applier, but %d partitions of %q still hold records below the boundary; "+
			"re-run apply to delete them", fenced, a.id, len(remain), a.plan.Topic)
	}
	res.AppliedByAnother = true
	res.Target = log.Boundary()
	a.step(StepAppliedByAnother, nil)
	return res, nil
}

// pendingCommitted reports whether some recorded plan is still COMMITTED:
// an applier is (or was, until it stopped) between commit and APPLIED.
func pendingCommitted(log *cleanupplan.Log) bool {
	for _, op := range log.Operations() {
		if op.Status == cleanupplan.StatusCommitted {
			return true
		}
	}
	return false
}
