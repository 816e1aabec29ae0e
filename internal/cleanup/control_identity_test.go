package cleanup

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// recreateControl deletes the env's control topic and creates it again,
// empty, returning the new ID.
func (e *env) recreateControl() string {
	e.t.Helper()
	return e.recreate(e.control, 1, map[string]string{ConfigCleanupPolicy: "compact"})
}

func (e *env) controlID() string {
	e.t.Helper()
	t, err := e.kafka.DescribeTopic(context.Background(), e.control)
	must(e.t, err)
	return t.ID.String()
}

// TestApplyRefusesRecreatedControlTopic: the caller recorded the control
// topic's ID; after a deletion and recreation, the apply writes nothing to
// the new topic and deletes nothing.
func TestApplyRefusesRecreatedControlTopic(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, 3, 10)
	recorded := e.controlID()
	e.recreateControl()
	spy := newSpy(e)
	_, err := Apply(ctx, spy, Request{Plan: e.plan("c", func(int32) int64 { return 5 }), ControlTopic: e.control, ControlTopicID: recorded})
	if !errors.Is(err, ErrControlTopicIDChanged) {
		t.Fatalf("err = %v, want %v", err, ErrControlTopicIDChanged)
	}
	if spy.deletes != 0 {
		t.Fatal("a refused apply called DeleteRecords")
	}
	if end := e.controlEnd(); end != 0 {
		t.Fatalf("the recreated control topic holds %d records after a refused apply, want none", end)
	}
}

// TestApplyLearnsControlTopicID: without a recorded ID (a boundary created
// in the same run as its control topic), the apply reports the one it used.
func TestApplyLearnsControlTopicID(t *testing.T) {
	e := newEnv(t, 3, 10)
	res, err := Apply(context.Background(), e.kafka, Request{Plan: e.plan("c", func(int32) int64 { return 5 }), ControlTopic: e.control})
	must(t, err)
	if want := e.controlID(); res.ControlTopicID != want {
		t.Fatalf("ControlTopicID = %q, want %q", res.ControlTopicID, want)
	}
}

// recreateOnDelete recreates the control topic just before the apply's
// DeleteRecords, that is after COMMITTED and before APPLIED is appended.
type recreateOnDelete struct {
	Kafka
	e    *env
	done bool
}

func (r *recreateOnDelete) DeleteRecords(ctx context.Context, topic string, id kafkaops.TopicID, upTo map[int32]int64) (map[int32]int64, error) {
	if !r.done {
		r.done = true
		r.e.recreateControl()
	}
	return r.Kafka.DeleteRecords(ctx, topic, id, upTo)
}

// TestApplyStopsWhenControlTopicRecreatedMidway: a control topic recreated
// between the COMMITTED and the APPLIED appends gets no APPLIED record
// without a word; the apply fails naming the recreation.
func TestApplyStopsWhenControlTopicRecreatedMidway(t *testing.T) {
	e := newEnv(t, 3, 10)
	k := &recreateOnDelete{Kafka: e.kafka, e: e}
	_, err := Apply(context.Background(), k, Request{Plan: e.plan("c", func(int32) int64 { return 5 }), ControlTopic: e.control})
	if !errors.Is(err, ErrControlTopicIDChanged) {
		t.Fatalf("err = %v, want %v", err, ErrControlTopicIDChanged)
	}
	if !k.done {
		t.Fatal("the apply never deleted records: the test did not recreate the control topic")
	}
	if end := e.controlEnd(); end != 0 {
		t.Fatalf("the recreated control topic holds %d records, want none", end)
	}
	// The COMMITTED went to the old topic and records were deleted: the
	// error says so instead of "nothing was written".
	for _, want := range []string{"Nothing was appended to the control topic with ID", "recorded plan", "as COMMITTED in the control topic with ID", "deleted records of"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v\nwant it to mention %q", err, want)
		}
	}
}

// TestApplyAbortsCOMMITTEDAppendedToARecreatedControlTopic: the control
// topic is recreated inside the commit's transaction, after its ID check
// and before the COMMITTED append (the offset, settings and permission
// checks run in between). The append goes by name into the new topic; the
// ID is checked again before the commit, the transaction is aborted, and
// nothing is deleted.
func TestApplyAbortsCOMMITTEDAppendedToARecreatedControlTopic(t *testing.T) {
	e := newEnvAnyBroker(t, 2, 10)
	var newID string
	spy := newSpy(e)
	_, err := Apply(context.Background(), spy, Request{Plan: e.plan("c", func(int32) int64 { return 5 }), ControlTopic: e.control,
		Progress: func(step string, _ map[string]any) {
			if step == "check offsets are available" && newID == "" {
				newID = e.recreateControl()
			}
		}})
	if newID == "" {
		t.Fatal("the apply never checked offsets: the test did not recreate the control topic")
	}
	e.requireCOMMITTEDAborted(spy, err, newID)
}

// requireCOMMITTEDAborted checks an apply whose COMMITTED went by name to
// the control topic recreated with ID newID: the recreation reported,
// the transaction aborted (no plan for read_committed readers), nothing
// deleted, and a message that says the record was sent and aborted.
func (e *env) requireCOMMITTEDAborted(spy *invariantSpy, err error, newID string) {
	e.t.Helper()
	if !errors.Is(err, ErrControlTopicIDChanged) {
		e.t.Fatalf("err = %v, want %v", err, ErrControlTopicIDChanged)
	}
	if ops := e.history().Operations(); len(ops) != 0 {
		e.t.Fatalf("the recreated control topic records %d plans for read_committed readers, want none: %+v", len(ops), ops)
	}
	e.requireNothingDeleted("the action-state topic")
	spy.check()
	for _, want := range []string{newID, "had sent COMMITTED for plan", "the transaction was aborted", "wrote and deleted nothing"} {
		if !strings.Contains(err.Error(), want) {
			e.t.Errorf("err = %v\nwant it to mention %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "Nothing was appended") {
		e.t.Errorf("err = %v\nsays nothing was appended after an append", err)
	}
}

// TestApplyAbortsCOMMITTEDWhoseAppendMeetsARecreatedControlTopic: the
// control topic is recreated just as the COMMITTED append is sent, and its
// leader answers NOT_LEADER_FOR_PARTITION, so the append retries, sees the
// new ID and stops (what a real broker did in CI). The apply reports the
// recreation as the ID check before the commit does, aborts the
// transaction and deletes nothing.
func TestApplyAbortsCOMMITTEDWhoseAppendMeetsARecreatedControlTopic(t *testing.T) {
	e := newEnv(t, 2, 10)
	var newID string
	var refusal *kfake.FaultHandle
	spy := newSpy(e)
	_, err := Apply(context.Background(), spy, Request{Plan: e.plan("c", func(int32) int64 { return 5 }), ControlTopic: e.control,
		Progress: func(step string, _ map[string]any) {
			if step == "append COMMITTED" && newID == "" {
				newID = e.recreateControl()
				refusal = e.cluster.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Produce}, Topic: e.control, Err: kerr.NotLeaderForPartition})
			}
		}})
	if newID == "" {
		t.Fatal("the apply never appended COMMITTED: the test did not recreate the control topic")
	}
	if refusal.Hits() != 1 {
		t.Fatalf("the append met the NOT_LEADER_FOR_PARTITION refusal %d times, want 1", refusal.Hits())
	}
	e.requireCOMMITTEDAborted(spy, err, newID)
}

// TestApplyNamesAControlTopicRecreatedWhileItsCommitWaits: the control
// topic is recreated while the broker handles the commit (EndTxn), so the
// wait for readers to see COMMITTED could never end. The apply says the
// control topic was recreated, deletes nothing, and does not wait out its
// timeout.
func TestApplyNamesAControlTopicRecreatedWhileItsCommitWaits(t *testing.T) {
	e := newEnv(t, 2, 10)
	var newID string
	e.cluster.ControlKey(int16(kmsg.EndTxn), func(kmsg.Request) (kmsg.Response, error, bool) {
		e.cluster.SleepControl(func() {
			k := e.newClient()
			ctx := context.Background()
			must(t, deleteTopic(ctx, k, e.control))
			created, err := k.CreateTopic(ctx, e.control, 1, 1, map[string]string{ConfigCleanupPolicy: "compact"})
			must(t, err)
			newID = created.Topic.ID.String()
		})
		return nil, nil, false
	})
	_, err := Apply(context.Background(), e.kafka, Request{Plan: e.plan("c", func(int32) int64 { return 5 }), ControlTopic: e.control})
	if newID == "" {
		t.Fatal("no transaction was committed: the test did not recreate the control topic")
	}
	if !errors.Is(err, ErrControlTopicIDChanged) {
		t.Fatalf("err = %v, want %v", err, ErrControlTopicIDChanged)
	}
	for _, want := range []string{newID, "while this apply committed COMMITTED for plan"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v\nwant it to mention %q", err, want)
		}
	}
	e.requireNothingDeleted("the action-state topic")
}
