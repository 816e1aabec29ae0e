package cleanup

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// TestToolApplyingTheSamePlanMeanwhileLeavesAReadableHistory: found by the
// soak (RELIABILITY.md). The runtime's cleanup tool applies the very plan
// this apply is applying (the same recovery point, so the same plan ID),
// without a transaction, between this apply's last re-read of the history
// and its COMMITTED append: the tool records COMMITTED, deletes, records
// APPLIED. This apply's COMMITTED then lands after the tool's APPLIED, and
// every reader (this provider, the runtime's restore, the tool) refuses the
// history for good ("goes back from APPLIED to COMMITTED"): the job can no
// longer restore until someone repairs the control topic. No record was
// lost, and DESIGN.md warns against running the tool beside Terraform, but
// the outcome is avoidable: the apply's own COMMITTED is still in an open
// transaction when the tool's APPLIED becomes readable below it, so the
// apply can see the plan recorded meanwhile and abort instead of committing.
func TestToolApplyingTheSamePlanMeanwhileLeavesAReadableHistory(t *testing.T) {
	e := newEnvAnyBroker(t, 2, 20)
	ctx := context.Background()
	p := e.plan("s3://ckpt/job/chk-7", func(int32) int64 { return 10 })

	res, errApply := applyWhileTheToolRuns(t, e, p, func() {
		e.toolRecords(cleanupplan.StatusCommitted, p)
		e.toolDeletes(p)
		e.toolRecords(cleanupplan.StatusApplied, p)
	})
	t.Logf("the apply that raced the tool: %v", errApply)

	log, err := History(ctx, e.kafka, e.control)
	if err != nil {
		t.Fatalf("the history is no longer readable: %v", err)
	}
	onlyApplied(t, log.Operations(), p)
	// The apply finds the plan APPLIED with nothing readable below it:
	// done, as an apply started after the tool would be.
	if errApply != nil || !res.AlreadyApplied || !res.Committed {
		t.Fatalf("apply = %+v, %v; want the plan found APPLIED", res, errApply)
	}
}

// The tool stopped after its COMMITTED: the apply aborts its own, resumes
// the tool's and finishes it.
func TestApplyResumesThePlanTheToolCommittedMeanwhile(t *testing.T) {
	e := newEnvAnyBroker(t, 2, 20)
	p := e.plan("s3://ckpt/job/chk-7", func(int32) int64 { return 10 })

	res, err := applyWhileTheToolRuns(t, e, p, func() { e.toolRecords(cleanupplan.StatusCommitted, p) })
	if err != nil || !res.Resumed || !res.Committed {
		t.Fatalf("apply = %+v, %v; want the tool's COMMITTED resumed", res, err)
	}
	if ops := e.history().Operations(); len(ops) != 1 || ops[0].Status != cleanupplan.StatusApplied {
		t.Fatalf("history = %+v, want the plan APPLIED", ops)
	}
	if s := e.startOffsets(); s[0] != 10 || s[1] != 10 {
		t.Fatalf("start offsets = %v, want 10 and 10", s)
	}
}

// The tool records a plan that crosses this one meanwhile: committing would
// leave two incomparable plans, which every reader refuses. The apply
// aborts and refuses the plan as a backward move instead, leaving the
// tool's plan the only one recorded.
func TestApplyRefusesWhenTheToolRecordsACrossingPlanMeanwhile(t *testing.T) {
	e := newEnvAnyBroker(t, 2, 20)
	p := e.plan("s3://ckpt/job/chk-7", func(part int32) int64 { return []int64{10, 5}[part] })
	q := e.plan("s3://ckpt/job/chk-8", func(part int32) int64 { return []int64{5, 10}[part] })

	res, err := applyWhileTheToolRuns(t, e, p, func() { e.toolRecords(cleanupplan.StatusCommitted, q) })
	if !errors.Is(err, cleanupplan.ErrBackwardMove) || res.Committed {
		t.Fatalf("apply = %+v, %v; want a refused backward move, nothing committed", res, err)
	}
	if ops := e.history().Operations(); len(ops) != 1 || ops[0].PlanID != q.ID() {
		t.Fatalf("history = %+v, want the tool's plan alone", ops)
	}
	if s := e.startOffsets(); s[0] != 0 || s[1] != 0 {
		t.Fatalf("start offsets = %v, want nothing deleted", s)
	}
}

// The tool applies an older plan meanwhile: this one still advances it, so
// the apply, having aborted, commits again in a new transaction and
// finishes.
func TestApplyCommitsAnewAfterTheToolAppliedAnOlderPlanMeanwhile(t *testing.T) {
	e := newEnvAnyBroker(t, 2, 20)
	p := e.plan("s3://ckpt/job/chk-8", func(int32) int64 { return 10 })
	older := e.plan("s3://ckpt/job/chk-7", func(int32) int64 { return 4 })

	res, err := applyWhileTheToolRuns(t, e, p, func() {
		e.toolRecords(cleanupplan.StatusCommitted, older)
		e.toolDeletes(older)
		e.toolRecords(cleanupplan.StatusApplied, older)
	})
	if err != nil || res.Resumed || !res.Committed {
		t.Fatalf("apply = %+v, %v; want the plan committed by this apply", res, err)
	}
	ops := e.history().Operations()
	if len(ops) != 2 || ops[0].PlanID != older.ID() || ops[1].PlanID != p.ID() || ops[1].Status != cleanupplan.StatusApplied {
		t.Fatalf("history = %+v, want the older plan, then this one APPLIED", ops)
	}
	if s := e.startOffsets(); s[0] != 10 || s[1] != 10 {
		t.Fatalf("start offsets = %v, want 10 and 10", s)
	}
}

// A tool that records a new plan before every append of the apply: each
// transaction is aborted, and after maxCommitRounds the apply gives up,
// having recorded and deleted nothing.
func TestApplyGivesUpOnAControlTopicThatKeepsChanging(t *testing.T) {
	e := newEnvAnyBroker(t, 2, 20)
	p := e.plan("s3://ckpt/job/chk-99", func(int32) int64 { return 10 })
	busy := &toolBeforeEveryAppend{Kafka: e.newClient(), e: e}

	res, err := Apply(context.Background(), busy, Request{Plan: p, ControlTopic: e.control})
	if !errors.Is(err, ErrControlTopicChanging) || res.Committed {
		t.Fatalf("apply = %+v, %v; want ErrControlTopicChanging, nothing committed", res, err)
	}
	t.Logf("the apply: %v", err)
	ops := e.history().Operations()
	if len(ops) != maxCommitRounds {
		t.Fatalf("history = %+v, want the tool's %d plans", ops, maxCommitRounds)
	}
	if _, ok := e.history().Lookup(p.ID()); ok {
		t.Fatal("the apply's plan is recorded")
	}
	if s := e.startOffsets(); s[0] != 0 || s[1] != 0 {
		t.Fatalf("start offsets = %v, want nothing deleted", s)
	}
}

// applyWhileTheToolRuns applies p, pausing it after it validated in its
// control transaction and before its first append, and runs tool then.
func applyWhileTheToolRuns(t *testing.T, e *env, p cleanupplan.Plan, tool func()) (Result, error) {
	t.Helper()
	slow := &pausingKafka{Kafka: e.newClient(), atAppend: true, begun: make(chan struct{}), release: make(chan struct{})}
	var res Result
	var err error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		res, err = Apply(context.Background(), slow, Request{Plan: p, ControlTopic: e.control})
	}()
	<-slow.begun
	tool()
	close(slow.release)
	wg.Wait()
	return res, err
}

// toolRecords appends one control record the way the Java tool does.
func (e *env) toolRecords(status cleanupplan.Status, p cleanupplan.Plan) {
	e.t.Helper()
	key, value := cleanupplan.EncodeRecord(status, p)
	if _, err := e.appendControl(context.Background(), e.control, key, value); err != nil {
		e.t.Fatal(err)
	}
}

// toolDeletes deletes the data topic's records below p, as the tool does
// between its COMMITTED and its APPLIED.
func (e *env) toolDeletes(p cleanupplan.Plan) {
	e.t.Helper()
	if _, err := e.kafka.DeleteRecords(context.Background(), e.data, kafkaops.TopicID{}, p.Offsets); err != nil {
		e.t.Fatal(err)
	}
}

// toolBeforeEveryAppend has the tool record a new plan, further than the
// last but below any the tests apply, before each control append.
type toolBeforeEveryAppend struct {
	Kafka
	e      *env
	rounds int64
}

func (k *toolBeforeEveryAppend) BeginControlTxn(ctx context.Context, topic string) (kafkaops.ControlTxn, error) {
	txn, err := k.Kafka.BeginControlTxn(ctx, topic)
	return &toolBeforeAppendTxn{ControlTxn: txn, k: k}, err
}

type toolBeforeAppendTxn struct {
	kafkaops.ControlTxn
	k *toolBeforeEveryAppend
}

func (t *toolBeforeAppendTxn) Append(ctx context.Context, key, value []byte) error {
	t.k.rounds++
	n := t.k.rounds
	t.k.e.toolRecords(cleanupplan.StatusCommitted, t.k.e.plan(fmt.Sprintf("s3://ckpt/job/chk-%d", n), func(int32) int64 { return n }))
	return t.ControlTxn.Append(ctx, key, value)
}

// The tool records a plan crossing this one between the apply's last
// re-read and its commit: the re-read saw nothing, so this apply's
// COMMITTED is committed, and the history it reads next is refused. The
// refusal must say that this apply's COMMITTED was written (it was: the
// runtime enforces it), never "nothing was written".
func TestRefusalAfterTheToolRecordedBeforeTheCommitSaysWhatWasWritten(t *testing.T) {
	e := newEnvAnyBroker(t, 2, 20)
	p := e.plan("s3://ckpt/job/chk-7", func(part int32) int64 { return []int64{10, 5}[part] })
	q := e.plan("s3://ckpt/job/chk-8", func(part int32) int64 { return []int64{5, 10}[part] })
	k := &toolBeforeFirstCommit{Kafka: e.newClient(), tool: func() { e.toolRecords(cleanupplan.StatusCommitted, q) }}

	res, err := Apply(context.Background(), k, Request{Plan: p, ControlTopic: e.control})
	t.Logf("the apply: %v", err)
	if err == nil || !res.Committed {
		t.Fatalf("apply = %+v, %v; want a refusal after this apply committed", res, err)
	}
	written, ok := errors.AsType[*WrittenBeforeError](err)
	if !ok || !strings.Contains(err.Error(), "recorded plan "+p.ID()+" as COMMITTED") || !strings.Contains(written.Written, p.ID()) {
		t.Fatalf("the refusal does not say this apply recorded plan %s as COMMITTED: %v", p.ID(), err)
	}
	if s := e.startOffsets(); s[0] != 0 || s[1] != 0 {
		t.Fatalf("start offsets = %v, want nothing deleted", s)
	}
}

// toolBeforeFirstCommit runs tool right before the first control
// transaction commits: after the apply's re-read, before its commit.
type toolBeforeFirstCommit struct {
	Kafka
	tool func()
	once sync.Once
}

func (k *toolBeforeFirstCommit) BeginControlTxn(ctx context.Context, topic string) (kafkaops.ControlTxn, error) {
	txn, err := k.Kafka.BeginControlTxn(ctx, topic)
	return &toolBeforeCommitTxn{ControlTxn: txn, k: k}, err
}

type toolBeforeCommitTxn struct {
	kafkaops.ControlTxn
	k *toolBeforeFirstCommit
}

func (t *toolBeforeCommitTxn) Commit(ctx context.Context) error {
	t.k.once.Do(t.k.tool)
	return t.ControlTxn.Commit(ctx)
}
