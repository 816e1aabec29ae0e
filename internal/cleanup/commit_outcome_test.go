package cleanup

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// A commit whose answer is lost (the apply's deadline ends while it waits)
// may have landed or not. The apply re-reads the control topic and says
// which: never "nothing was written" for a COMMITTED that landed.
func TestCommitThatTimedOutSaysWhetherItLanded(t *testing.T) {
	for _, landed := range []bool{true, false} {
		t.Run(fmt.Sprintf("landed=%v", landed), func(t *testing.T) {
			e := newEnv(t, 2, 20)
			p := e.plan("s3://ckpt/job/chk-7", func(int32) int64 { return 10 })
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			k := &commitOutlivesDeadline{Kafka: e.newClient(), land: landed}

			res, err := Apply(ctx, k, Request{Plan: p, ControlTopic: e.control})
			t.Logf("the apply: %v", err)
			if err == nil || !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("apply = %+v, %v; want the commit's timeout", res, err)
			}
			if strings.Contains(strings.ToLower(err.Error()), "nothing was written") {
				t.Errorf("the error claims nothing was written: %v", err)
			}
			_, recorded := e.history().Lookup(p.ID())
			if recorded != landed || res.Committed != landed {
				t.Fatalf("recorded %v, Result.Committed %v; want both %v", recorded, res.Committed, landed)
			}
			want := "does not show it"
			if landed {
				want = "shows it landed"
			}
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the error does not say %q: %v", want, err)
			}
			if _, ok := errors.AsType[*WrittenBeforeError](err); ok != landed {
				t.Errorf("WrittenBeforeError %v, want %v", ok, landed)
			}
			if s := e.startOffsets(); s[0] != 0 || s[1] != 0 {
				t.Fatalf("start offsets = %v, want nothing deleted", s)
			}
			// The next apply converges either way.
			if _, err := Apply(context.Background(), e.newClient(), Request{Plan: p, ControlTopic: e.control}); err != nil {
				t.Fatalf("re-apply: %v", err)
			}
		})
	}
}

// commitOutlivesDeadline commits (land) or aborts the first control
// transaction, then answers only once the apply's context has ended, as a
// commit whose answer never came does.
type commitOutlivesDeadline struct {
	Kafka
	land bool
	// soon: answer at once, as a commit whose own request timed out while
	// the apply's deadline is still ahead.
	soon bool
	done bool
}

func (k *commitOutlivesDeadline) BeginControlTxn(ctx context.Context, topic string) (kafkaops.ControlTxn, error) {
	txn, err := k.Kafka.BeginControlTxn(ctx, topic)
	if err != nil || k.done {
		return txn, err
	}
	k.done = true
	return &lostCommitTxn{ControlTxn: txn, k: k, topic: topic}, nil
}

type lostCommitTxn struct {
	kafkaops.ControlTxn
	k     *commitOutlivesDeadline
	topic string
}

func (t *lostCommitTxn) Commit(ctx context.Context) error {
	if t.k.land {
		if err := t.ControlTxn.Commit(context.WithoutCancel(ctx)); err != nil {
			return err
		}
	} else {
		t.Abort(context.WithoutCancel(ctx))
	}
	cause := context.DeadlineExceeded
	if !t.k.soon {
		<-ctx.Done()
		cause = ctx.Err()
	}
	return &kafkaops.OpError{Op: kafkaops.OpCommitControlTxn, Topic: t.topic, Err: fmt.Errorf("no answer: %w", cause)}
}

// A commit whose request timed out but landed, with the apply's own
// deadline still ahead: the re-read shows the COMMITTED, so the apply goes
// on and finishes.
func TestCommitThatTimedOutButLandedIsFinished(t *testing.T) {
	e := newEnv(t, 2, 20)
	p := e.plan("s3://ckpt/job/chk-7", func(int32) int64 { return 10 })
	res, err := Apply(context.Background(), &commitOutlivesDeadline{Kafka: e.newClient(), land: true, soon: true}, Request{Plan: p, ControlTopic: e.control})
	if err != nil || !res.Committed || len(res.Deleted) != 2 {
		t.Fatalf("apply = %+v, %v; want the plan finished", res, err)
	}
	if op, ok := e.history().Lookup(p.ID()); !ok || op.Status != cleanupplan.StatusApplied {
		t.Fatalf("plan %+v, want APPLIED", op)
	}
	if s := e.startOffsets(); s[0] != 10 || s[1] != 10 {
		t.Fatalf("start offsets = %v, want 10 and 10", s)
	}
}
