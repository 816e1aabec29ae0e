package cleanup

import (
	"context"
	"errors"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/permissions"
)

// Request is one apply.
type Request struct {
	Plan         cleanupplan.Plan
	ControlTopic string
	// ExpectedTopic, when set, must equal the plan's topic (spec step 1).
	ExpectedTopic string
	// ControlTopicID, when set, must be the control topic's ID: a control
	// topic recreated since the caller last read it holds none of the
	// recorded boundaries, and is refused before anything is written.
	ControlTopicID string
	// Progress, when set, is told each step as it starts (for logs).
	Progress func(step string, fields map[string]any)
}

// Result of a successful Apply: the plan is APPLIED.
type Result struct {
	PlanID string
	// AlreadyApplied: the plan was found APPLIED (before this call, or by
	// another writer during it) with nothing readable below it; this call
	// recorded and deleted nothing.
	AlreadyApplied bool
	// AppliedByAnother: another applier of the same control topic fenced
	// this one's transaction and recorded the plan APPLIED (or finished it
	// meanwhile), with nothing readable below it; this call found it so
	// and wrote nothing more. Deleted lists what this call itself deleted
	// before it was fenced, if anything.
	AppliedByAnother bool
	// Resumed: the plan was found COMMITTED (an earlier apply stopped
	// between commit and APPLIED, or another writer recorded it during this
	// call, or another applier fenced this one and left it COMMITTED) and
	// this call finished it.
	Resumed bool
	// Redeleted: the plan was APPLIED, but records below the recorded
	// boundary were readable again (a broker that crashed before persisting
	// its log start offset, or an APPLIED record written without a
	// deletion), so this call deleted them again.
	Redeleted bool
	// Target is the effective boundary deleted up to (it can exceed the
	// plan where an earlier, further plan is COMMITTED).
	Target cleanupplan.Offsets
	// Deleted lists partitions whose start offset moved, with the range.
	Deleted []Range
	// ControlTopicID is the ID of the control topic the plan is recorded in.
	ControlTopicID string
	// Committed: the plan is recorded in the control topic (found there, or
	// appended by this call), so the runtime enforces it on restore. Set on
	// failure too; false when a failure left it unknown whether an append
	// landed (nothing was deleted then).
	Committed bool
}

// Apply runs the commit-then-delete protocol of the spec, steps 1 to 8, and
// returns once the plan is APPLIED. Any failure leaves a state from which
// calling Apply again with the same plan converges; no DeleteRecords ever
// asks for an offset that is not already durably COMMITTED.
func Apply(ctx context.Context, k Kafka, req Request) (Result, error) {
	a := applier{k: k, req: req, plan: req.Plan, id: req.Plan.ID()}
	defer a.closeTxn()
	res, err := a.run(ctx)
	if errors.Is(err, kafkaops.ErrFenced) {
		res, err = a.finishedByAnother(ctx, res, err)
	}
	res.Committed = a.committed
	outcome := nothingChanged
	switch {
	case a.committed:
		outcome = "The plan is COMMITTED, so the runtime already enforces it; grant the permission and re-run apply to finish"
	case a.appending:
		outcome = "The COMMITTED record may have landed; once the permission is granted, the next apply resumes from it or commits anew"
	}
	return res, a.sayWritten(explainRefusal(err, permissions.Input{ActionStateTopic: a.plan.Topic, ControlTopic: req.ControlTopic}, outcome))
}

type applier struct {
	k    Kafka
	req  Request
	plan cleanupplan.Plan
	id   string
	// committed: the plan is recorded in the control topic (found there,
	// or appended by this apply), so a later failure leaves it in force.
	committed bool
	// appending: this apply began appending COMMITTED; until the commit
	// returns, whether it landed is unknown.
	appending bool
	// committedHere: this apply's own transaction committed COMMITTED (the
	// plan was not found recorded).
	committedHere bool
	// controlID is the control topic's ID every append must still find.
	controlID string
	// lastRead is the history as this apply last read and validated it.
	lastRead *cleanupplan.Log
	// txn is the apply's control-topic producer once its first
	// transaction began (beginTxn); nil before, and after closeTxn.
	txn kafkaops.ControlTxn
	// deleted is what this apply's DeleteRecords asked for, once the
	// topic's ID was read unchanged right after it; nil before.
	deleted cleanupplan.Offsets
}

// step tells Request.Progress, if set, that a step starts.
func (a *applier) step(name string, fields map[string]any) {
	if a.req.Progress != nil {
		if fields == nil {
			fields = map[string]any{}
		}
		fields["plan_id"] = a.id
		fields["topic"] = a.plan.Topic
		fields["control_topic"] = a.req.ControlTopic
		a.req.Progress(name, fields)
	}
}

// run is the apply, step by step as spec/cleanup-protocol.md section 7
// numbers them:
//
//	1     checkBinding                the bound topic; the control topic's shape and ID
//	2, 3  checkTopic                  the data topic's identity and settings
//	4     readHistory                 the control log, validated for this topic
//	5, 6  resumeOrCommit              a plan seen before is resumed or done; a new one is committed
//	7     recordedTarget, deleteBelow, verifyDeleted, checkTopic
//	8     markApplied
//
// Nothing is written before step 6; from then on the plan is COMMITTED and
// the next apply finishes what a failure here left.
func (a *applier) run(ctx context.Context) (Result, error) {
	res := Result{PlanID: a.id}
	if err := a.checkBinding(ctx); err != nil {
		return res, err
	}
	res.ControlTopicID = a.controlID
	a.step("check action-state topic", nil)
	if _, err := a.checkTopic(ctx); err != nil {
		return res, err
	}
	a.step("read control topic", nil)
	log, err := a.readHistory(ctx)
	if err != nil {
		return res, err
	}
	done, err := a.resumeOrCommit(ctx, log, &res)
	switch {
	case err != nil:
		return res, err
	case done:
		a.step(StepAlreadyApplied, nil)
		return res, nil
	case res.Resumed: // first: a resume after fencing (resumeFenced) may follow this apply's own commit
		a.step(StepResumed, nil)
	case a.committedHere:
		a.step(StepCommitted, nil)
	}
	if res.Target, err = a.recordedTarget(ctx); err != nil {
		return res, err
	}
	pending, err := a.deleteBelow(ctx, res.Target)
	if err != nil {
		return res, err
	}
	a.step(StepDeleted, map[string]any{"partitions": len(pending), "records": Records(pending)})
	if err := a.verifyDeleted(ctx, res.Target); err != nil {
		return res, err
	}
	res.Deleted = pending
	if _, err := a.checkTopic(ctx); err != nil {
		return res, err
	}
	a.step(StepVerified, nil)
	if err := a.markApplied(ctx, res.Target); err != nil {
		return res, err
	}
	a.step(StepApplied, nil)
	return res, nil
}
