package cleanup

import (
	"context"
	"errors"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// recreateControl deletes the env's control topic and creates it again,
// empty, returning the new ID.
func (e *env) recreateControl() string {
	e.t.Helper()
	ctx := context.Background()
	must(e.t, deleteTopic(ctx, e.kafka, e.control))
	created, err := e.kafka.CreateTopic(ctx, e.control, 1, 1, map[string]string{ConfigCleanupPolicy: "compact"})
	must(e.t, err)
	return created.Topic.ID.String()
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
}
