package cleanup

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// otherApplierWait bounds how long an apply fenced by another applier of
// the same control topic waits for the history to show that applier's
// outcome: long enough for a whole apply (commit, DeleteRecords, verify,
// APPLIED), which takes seconds, and for the coordinator to abort the open
// transaction of an applier killed mid-way (kafkaops.ControlTxnTimeout
// plus the broker's 10 s sweep); the caller's deadline wins when shorter.
const otherApplierWait = 30 * time.Second

// otherApplierPoll spaces the re-reads of the history while waiting.
const otherApplierPoll = 250 * time.Millisecond

// otherApplierQuiet is how long the control topic must show no applier at
// work (the history unchanged, no transaction open, the coordinator's
// registration unchanged) before a fenced apply whose plan is COMMITTED
// resumes it itself. An applier at work shows within it: its whole apply
// takes a few requests between registering and appending. A variable only
// so tests can shorten it.
var otherApplierQuiet = 5 * time.Second

// maxFencedResumes bounds those resumes per apply: a resume fenced in turn
// goes back to waiting, and after this many the fencing error stands.
const maxFencedResumes = 2

// finishedByAnother runs when another applier of the control topic fenced
// this one's transaction (kafkaops.ErrFenced): two invocations of one plan
// at once (two action_triggers, two workspaces), or two crossing plans,
// end this way, and the one fenced is not at fault. It reads the history
// until the plan is APPLIED with nothing readable below it (success: the
// other applier finished it), or until the history shows the other
// applier recorded something else and is done, or otherApplierWait
// passes: then the fencing error stands, with what the history showed
// last.
//
// A plan of this apply that is COMMITTED is in force, so it must not be
// left so: the applier that fenced this one finishes it only if it
// commits the same plan or one beyond it. One whose plan crossed this one
// is refused and writes nothing, and one killed writes nothing more. So
// once the control topic has been quiet for otherApplierQuiet, this apply
// resumes its plan itself (resumeFenced): what the fencing error would
// otherwise ask the operator to do by hand.
func (a *applier) finishedByAnother(ctx context.Context, res Result, fenced error) (Result, error) {
	validated := a.lastRead
	a.step(StepAwaitingOtherApplier, nil)
	wait, cancel := context.WithTimeout(ctx, otherApplierWait)
	defer cancel()
	status := "not recorded"
	quiet := newQuietWatch(validated)
	resumes := 0
	for {
		log, err := a.readHistory(wait)
		if err != nil {
			return res, fmt.Errorf("%w. Re-reading control topic %q to learn whether the other applier finished plan %s failed: %v",
				fenced, a.req.ControlTopic, a.id, err)
		}
		quiet.sawHistory(log)
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
			if resumes < maxFencedResumes && quiet.long(wait, a.k, a.req.ControlTopic) {
				resumes++
				again, err := a.resumeFenced(ctx, res)
				if !errors.Is(err, kafkaops.ErrFenced) {
					return again, err
				}
				res, fenced = again, err
				a.step(StepAwaitingOtherApplier, nil)
				quiet = newQuietWatch(a.lastRead)
			}
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

// resumeFenced resumes this apply's COMMITTED plan after the applier that
// fenced it went quiet without finishing it. It is the re-run the fencing
// error asks for: a new registration (which fences only an applier that
// began during the quiet, and that one fails safely in turn), every check
// again from step 1, the plan resumed from the control topic and finished
// with anything COMMITTED beyond it. Deleted keeps what the fenced attempt
// deleted.
func (a *applier) resumeFenced(ctx context.Context, res Result) (Result, error) {
	a.step(StepResumingFenced, nil)
	a.closeTxn()
	again, err := a.run(ctx)
	again.Deleted = append(res.Deleted, again.Deleted...)
	return again, err
}

// quietWatch tells how long the control topic has shown no applier at work.
type quietWatch struct {
	since   time.Time
	history *cleanupplan.Log
	txn     kafkaops.TxnState
	txnRead bool
}

// newQuietWatch starts a quiet now, history being the last read.
func newQuietWatch(history *cleanupplan.Log) quietWatch {
	return quietWatch{since: time.Now(), history: history}
}

// sawHistory restarts the quiet when the recorded plans or statuses changed.
func (q *quietWatch) sawHistory(log *cleanupplan.Log) {
	if q.history == nil || !sameOperations(q.history, log) {
		q.history, q.since = log, time.Now()
	}
}

// long asks the transaction coordinator about the control topic's
// transactional ID and reports whether the quiet has lasted
// otherApplierQuiet: a transaction open, or a registration or state other
// than the last read, restarts it. A coordinator that cannot answer
// leaves the history alone to decide: waiting on it forever would leave
// the plan COMMITTED, and a resume that fences an applier at work only
// makes that one fail safely.
func (q *quietWatch) long(ctx context.Context, k Kafka, controlTopic string) bool {
	st, err := k.ControlTxnState(ctx, controlTopic)
	if err == nil && (!q.txnRead || st != q.txn || st.Open()) {
		q.txn, q.txnRead, q.since = st, true, time.Now()
	}
	return time.Since(q.since) >= otherApplierQuiet
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
