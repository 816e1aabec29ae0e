package cleanup

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// pausingKafka holds an applier once, until released, either right after
// it opened its transaction (before it reads and validates) or right before
// its first append (after it validated): the two moments another applier
// can slip in.
type pausingKafka struct {
	Kafka
	atAppend bool
	// atCommit holds it right before its first commit instead (after
	// its append and the re-read), its COMMITTED in an open transaction.
	atCommit bool
	once     sync.Once
	begun    chan struct{}
	release  chan struct{}
}

func (p *pausingKafka) pause() {
	p.once.Do(func() {
		close(p.begun)
		<-p.release
	})
}

func (p *pausingKafka) BeginControlTxn(ctx context.Context, topic string) (kafkaops.ControlTxn, error) {
	txn, err := p.Kafka.BeginControlTxn(ctx, topic)
	if err != nil {
		return nil, err
	}
	if !p.atAppend && !p.atCommit {
		p.pause()
	}
	return &pausingTxn{ControlTxn: txn, p: p}, nil
}

type pausingTxn struct {
	kafkaops.ControlTxn
	p *pausingKafka
}

func (t *pausingTxn) Commit(ctx context.Context) error {
	if t.p.atCommit {
		t.p.pause()
	}
	return t.ControlTxn.Commit(ctx)
}

func (t *pausingTxn) Append(ctx context.Context, key, value []byte) error {
	if t.p.atAppend {
		t.p.pause()
	}
	return t.ControlTxn.Append(ctx, key, value)
}

// Two applies of crossing plans (neither advances the other) race on one
// control topic. Whatever the interleaving, the history must stay a chain:
// exactly one plan recorded, its records deleted, the other refused.
func TestConcurrentAppliesCannotCorruptHistory(t *testing.T) {
	for _, atAppend := range []bool{false, true} {
		name := "paused before validating"
		if atAppend {
			name = "paused after validating, before appending"
		}
		t.Run(name, func(t *testing.T) { raceTwoAppliers(t, atAppend) })
	}
}

func raceTwoAppliers(t *testing.T, atAppend bool) {
	e := newEnvAnyBroker(t, 2, 20)
	ctx := context.Background()
	a := e.plan("chk-a", func(p int32) int64 { return []int64{10, 5}[p] })
	b := e.plan("chk-b", func(p int32) int64 { return []int64{5, 10}[p] })

	slow := &pausingKafka{Kafka: e.newClient(), atAppend: atAppend, begun: make(chan struct{}), release: make(chan struct{})}
	var errA error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, errA = Apply(ctx, slow, Request{Plan: a, ControlTopic: e.control})
	}()
	<-slow.begun
	// A has opened its transaction and is about to validate; B runs to
	// completion in between, fencing A.
	if _, err := Apply(ctx, e.newClient(), Request{Plan: b, ControlTopic: e.control}); err != nil {
		t.Fatalf("the newer applier failed: %v", err)
	}
	close(slow.release)
	wg.Wait()

	if errA == nil {
		t.Fatal("the fenced applier succeeded: two crossing plans are recorded")
	}
	// Before validating, A sees B's plan and refuses; after validating, its
	// append is fenced: B's transaction registered after A's.
	want := cleanupplan.ErrBackwardMove
	if atAppend {
		want = kafkaops.ErrFenced
	}
	if !errors.Is(errA, want) {
		t.Fatalf("the slow applier failed with %v, want %v", errA, want)
	}
	t.Logf("fenced applier: %v", errA)
	log := e.history() // fails the test if the history is not a chain
	onlyApplied(t, log.Operations(), b)
	if s := e.startOffsets(); s[0] != 5 || s[1] != 10 {
		t.Fatalf("start offsets = %v", s)
	}
	// The loser, re-run, is refused at once: it does not advance B.
	if _, err := Apply(ctx, e.newClient(), Request{Plan: a, ControlTopic: e.control}); !errors.Is(err, cleanupplan.ErrBackwardMove) {
		t.Fatalf("re-running the crossing plan: %v", err)
	}
}

// Many unsynchronized rounds: with any interleaving the scheduler picks,
// the history stays a chain.
func TestRacingAppliesKeepAChain(t *testing.T) {
	for round := range 8 {
		e := newEnvAnyBroker(t, 2, 20)
		ctx := context.Background()
		plans := []cleanupplan.Plan{
			e.plan("chk-a", func(p int32) int64 { return []int64{10, 5}[p] }),
			e.plan("chk-b", func(p int32) int64 { return []int64{5, 10}[p] }),
			e.plan("chk-c", func(p int32) int64 { return 3 }),
		}
		var wg sync.WaitGroup
		for _, p := range plans {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _ = Apply(ctx, e.newClient(), Request{Plan: p, ControlTopic: e.control})
			}()
		}
		wg.Wait()
		log := e.history()
		if len(log.Operations()) == 0 {
			t.Fatalf("round %d: nothing recorded", round)
		}
		b := log.Boundary()
		for p, s := range e.startOffsets() {
			if s > b[p] {
				t.Fatalf("round %d: partition %d deleted to %d above the boundary %d", round, p, s, b[p])
			}
		}
	}
}

// The same plan applied twice at once (two action_triggers in one apply,
// two workspaces): the applier the other fenced finds its plan finished by
// the other and succeeds, saying so; the records are deleted exactly once.
// The other run either finishes before the fenced one looks, or is still
// between its deletion and its APPLIED, and the fenced one waits for it.
func TestTwoAppliesOfTheSamePlanBothSucceed(t *testing.T) {
	for _, atCommit := range []bool{false, true} {
		for _, otherHeld := range []bool{false, true} {
			name := "fenced at its append/"
			if atCommit {
				name = "fenced at its commit/"
			}
			if otherHeld {
				name += "other run still finishing"
			} else {
				name += "other run done first"
			}
			t.Run(name, func(t *testing.T) { raceSamePlan(t, atCommit, otherHeld) })
		}
	}
}

func raceSamePlan(t *testing.T, atCommit, otherHeld bool) {
	e := newEnvAnyBroker(t, 2, 20)
	ctx := context.Background()
	p := e.plan("s3://ckpt/job/chk-7", func(part int32) int64 { return []int64{10, 6}[part] })

	slowDeletes := &countingDeletes{Kafka: e.newClient()}
	slow := &pausingKafka{Kafka: slowDeletes, atAppend: !atCommit, atCommit: atCommit, begun: make(chan struct{}), release: make(chan struct{})}
	waiting, progress := reaching(StepAwaitingOtherApplier)
	var resA Result
	var errA error
	doneA := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(doneA)
		resA, errA = Apply(ctx, slow, Request{Plan: p, ControlTopic: e.control, Progress: progress})
	}()
	<-slow.begun // A validated the plan as not recorded and is about to append (or commit) COMMITTED

	otherDeletes := &countingDeletes{Kafka: e.newClient()}
	other := &holdingBeforeApplied{Kafka: otherDeletes, held: make(chan struct{}), release: make(chan struct{})}
	if !otherHeld {
		close(other.release)
	}
	var resB Result
	var errB error
	wg.Add(1)
	go func() {
		defer wg.Done()
		resB, errB = Apply(ctx, other, Request{Plan: p, ControlTopic: e.control})
	}()
	if otherHeld {
		<-other.held // B committed and deleted; its APPLIED is not recorded yet
		close(slow.release)
		select { // A was fenced and waits for B (or, failing, returned)
		case <-waiting:
		case <-doneA:
		}
		close(other.release)
	} else {
		for !e.historyHas(p, cleanupplan.StatusApplied) {
			time.Sleep(50 * time.Millisecond)
		}
		close(slow.release)
	}
	wg.Wait()

	if errB != nil {
		t.Fatalf("the other apply failed: %v", errB)
	}
	if errA != nil {
		t.Fatalf("the fenced apply failed although its plan ended APPLIED: %v", errA)
	}
	if !resA.AppliedByAnother || !resA.Committed || len(resA.Deleted) != 0 || resB.AppliedByAnother {
		t.Fatalf("fenced apply = %+v, other apply = %+v; want the fenced one to report the plan applied by the other", resA, resB)
	}
	onlyApplied(t, e.history().Operations(), p)
	if s := e.startOffsets(); s[0] != 10 || s[1] != 6 {
		t.Fatalf("start offsets = %v, want 10 and 6", s)
	}
	if a, b := slowDeletes.n.Load(), otherDeletes.n.Load(); a != 0 || b != 1 {
		t.Fatalf("DeleteRecords requests: fenced apply %d, other apply %d; want 0 and 1", a, b)
	}
}

// countingDeletes counts DeleteRecords calls.
type countingDeletes struct {
	Kafka
	n atomic.Int32
}

func (c *countingDeletes) DeleteRecords(ctx context.Context, topic string, id kafkaops.TopicID, upTo map[int32]int64) (map[int32]int64, error) {
	c.n.Add(1)
	return c.Kafka.DeleteRecords(ctx, topic, id, upTo)
}

// holdingBeforeApplied holds an applier before its second transaction (the
// one recording APPLIED, after its deletion) until released. The second
// transaction goes on the first one's registration (ControlTxn.Again), or
// registers anew when that producer was given up.
type holdingBeforeApplied struct {
	Kafka
	transactions int
	held         chan struct{}
	release      chan struct{}
}

// hold counts transactions and holds the second.
func (h *holdingBeforeApplied) hold() {
	if h.transactions++; h.transactions == 2 {
		close(h.held)
		<-h.release
	}
}

func (h *holdingBeforeApplied) BeginControlTxn(ctx context.Context, topic string) (kafkaops.ControlTxn, error) {
	h.hold()
	txn, err := h.Kafka.BeginControlTxn(ctx, topic)
	if err != nil {
		return nil, err
	}
	return &holdingTxn{ControlTxn: txn, h: h}, nil
}

type holdingTxn struct {
	kafkaops.ControlTxn
	h *holdingBeforeApplied
}

func (t *holdingTxn) Again(ctx context.Context) error {
	t.h.hold()
	return t.ControlTxn.Again(ctx)
}

// historyHas reports whether the control topic records p with status.
func (e *env) historyHas(p cleanupplan.Plan, status cleanupplan.Status) bool {
	op, ok := e.history().Lookup(p.ID())
	return ok && op.Status == status
}
