package cleanup

import (
	"context"
	"errors"
	"sync"
	"testing"

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
	if !p.atAppend {
		p.pause()
	}
	return &pausingTxn{ControlTxn: txn, p: p}, nil
}

type pausingTxn struct {
	kafkaops.ControlTxn
	p *pausingKafka
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
	ops := log.Operations()
	if len(ops) != 1 || ops[0].PlanID != b.ID() || ops[0].Status != cleanupplan.StatusApplied {
		t.Fatalf("history = %+v", ops)
	}
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
