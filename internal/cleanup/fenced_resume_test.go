package cleanup

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// shortQuiet shortens otherApplierQuiet for one test.
func shortQuiet(t *testing.T, d time.Duration) {
	was := otherApplierQuiet
	otherApplierQuiet = d
	t.Cleanup(func() { otherApplierQuiet = was })
}

// An apply has committed its plan and deleted, and is fenced before
// APPLIED by an applier of a crossing plan, which finds the first plan
// COMMITTED and is refused, writing nothing. Nobody else will record the
// first plan APPLIED: the fenced apply must finish it itself once the
// control topic is quiet, not leave it COMMITTED and fail (CI saw both
// fleets of TestTwoFleetsRaceOnOneEntry end so). On kfake the quiet comes
// about 5 s late: the fenced append still opens a transaction under the
// newer registration (kfake adds the partition before checking the epoch),
// which its timeout then aborts; Apache Kafka refuses it outright (the
// races pass of scripts/testacc-kafka.sh runs this test there too).
func TestFencedApplyResumesThePlanTheOtherLeftCommitted(t *testing.T) {
	shortQuiet(t, time.Second)
	e := newEnvAnyBroker(t, 2, 20)
	ctx := context.Background()
	mine := e.plan("chk-mine", func(p int32) int64 { return []int64{5, 10}[p] })
	crossing := e.plan("chk-crossing", func(p int32) int64 { return []int64{10, 5}[p] })

	deletes := &countingDeletes{Kafka: e.newClient()}
	held := &holdingBeforeApplied{Kafka: deletes, held: make(chan struct{}), release: make(chan struct{})}
	var steps []string
	var res Result
	var err error
	done := make(chan struct{})
	// The crossing applier reads the history before the first plan is
	// committed, so it goes on to register, and finds that plan only in
	// its read inside the transaction.
	gate := &gateBeforeRegistering{Kafka: e.newClient(), arrived: make(chan struct{}), open: make(chan struct{})}
	crossingErr := make(chan error)
	go func() {
		_, err := Apply(ctx, gate, Request{Plan: crossing, ControlTopic: e.control})
		crossingErr <- err
	}()
	<-gate.arrived
	go func() {
		defer close(done)
		res, err = Apply(ctx, held, Request{Plan: mine, ControlTopic: e.control, Progress: func(step string, _ map[string]any) { steps = append(steps, step) }})
	}()
	<-held.held // committed and deleted; APPLIED not recorded yet
	close(gate.open)
	if err := <-crossingErr; !errors.Is(err, cleanupplan.ErrBackwardMove) {
		t.Fatalf("the crossing plan, registered while the first is COMMITTED: %v, want a backward move", err)
	}
	close(held.release)
	<-done

	if err != nil {
		t.Fatalf("the fenced apply failed although nothing else could finish its COMMITTED plan: %v", err)
	}
	if !res.Resumed || !res.Committed || res.AppliedByAnother || Records(res.Deleted) != 15 {
		t.Fatalf("result = %+v; want resumed, committed, and the 15 records its first attempt deleted", res)
	}
	for _, want := range []string{StepAwaitingOtherApplier, StepResumingFenced, StepApplied} {
		if !slices.Contains(steps, want) {
			t.Fatalf("steps %q lack %q", steps, want)
		}
	}
	onlyApplied(t, e.history().Operations(), mine)
	if s := e.startOffsets(); s[0] != 5 || s[1] != 10 {
		t.Fatalf("start offsets = %v, want 5 and 10", s)
	}
	if n := deletes.n.Load(); n != 1 {
		t.Fatalf("the fenced apply sent %d DeleteRecords, want 1: the resume finds nothing left to delete", n)
	}
}

// The quiet that lets a fenced apply resume its plan must not be mistaken:
// an applier holding its COMMITTED in an open transaction is at work, even
// though the history shows nothing of it yet. The fenced apply waits for it
// (resuming would fence it and fail its apply), and that applier, whose
// plan goes beyond, records both plans APPLIED.
func TestFencedApplyWaitsForAnOpenTransaction(t *testing.T) {
	shortQuiet(t, time.Second)
	e := newEnvAnyBroker(t, 2, 20)
	ctx := context.Background()
	mine := e.plan("chk-mine", func(p int32) int64 { return []int64{5, 10}[p] })
	beyond := e.plan("chk-beyond", func(p int32) int64 { return 12 })

	held := &holdingBeforeApplied{Kafka: e.newClient(), held: make(chan struct{}), release: make(chan struct{})}
	waiting, progress := reaching(StepAwaitingOtherApplier)
	var res Result
	var err error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		res, err = Apply(ctx, held, Request{Plan: mine, ControlTopic: e.control, Progress: progress})
	}()
	<-held.held

	other := &pausingKafka{Kafka: e.newClient(), atCommit: true, begun: make(chan struct{}), release: make(chan struct{})}
	var otherErr error
	go func() {
		defer wg.Done()
		_, otherErr = Apply(ctx, other, Request{Plan: beyond, ControlTopic: e.control})
	}()
	<-other.begun // its COMMITTED appended, the transaction open
	close(held.release)
	<-waiting
	// Twice the quiet, and well within the transaction's timeout
	// (kafkaops.ControlTxnTimeout, 5 s from its append), after which the
	// coordinator would abort it.
	time.Sleep(2 * time.Second)
	close(other.release)
	wg.Wait()

	if otherErr != nil {
		t.Fatalf("the applier whose transaction was open failed (the fenced apply resumed over it?): %v", otherErr)
	}
	if err != nil || !res.AppliedByAnother {
		t.Fatalf("the fenced apply = %+v, %v; want its plan applied by the other", res, err)
	}
	for _, p := range []cleanupplan.Plan{mine, beyond} {
		if !e.historyHas(p, cleanupplan.StatusApplied) {
			t.Fatalf("plan %s is not APPLIED: %+v", p.ID(), e.history().Operations())
		}
	}
	if s := e.startOffsets(); s[0] != 12 || s[1] != 12 {
		t.Fatalf("start offsets = %v, want 12 and 12", s)
	}
}

// gateBeforeRegistering holds an applier's first registration until
// opened.
type gateBeforeRegistering struct {
	Kafka
	once    sync.Once
	arrived chan struct{}
	open    chan struct{}
}

func (g *gateBeforeRegistering) BeginControlTxn(ctx context.Context, topic string) (kafkaops.ControlTxn, error) {
	g.once.Do(func() {
		close(g.arrived)
		<-g.open
	})
	return g.Kafka.BeginControlTxn(ctx, topic)
}
