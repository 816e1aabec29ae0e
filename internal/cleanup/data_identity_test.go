package cleanup

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// recreateData deletes the env's action-state topic behind the apply's
// back, creates it again under the same name and fills it with n records
// per partition, as a job started against the new topic would; it returns
// the new topic ID. It uses clients of its own, so it can run while the
// apply's client waits on the broker.
func (e *env) recreateData(n int) string {
	e.t.Helper()
	id := e.recreate(e.data, e.parts, DataTopicSettings)
	e.produce(n)
	return id
}

// recreate deletes topic name and creates it again with partitions and
// cfg, through a client of its own, and returns the new ID. A real broker
// finishes a deletion after answering it: the name is free once a create
// stops answering TOPIC_ALREADY_EXISTS (a minute at most).
func (e *env) recreate(name string, partitions int32, cfg map[string]string) string {
	e.t.Helper()
	ctx := context.Background()
	k := e.newClient()
	must(e.t, deleteTopic(ctx, k, name))
	for give := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		created, err := k.CreateTopic(ctx, name, partitions, 1, cfg)
		if err == nil {
			return created.Topic.ID.String()
		}
		if !errors.Is(err, kerr.TopicAlreadyExists) || time.Now().After(give) {
			e.t.Fatalf("recreating %q: %v", name, err)
		}
	}
}

// recreateDataAtStep recreates and refills the action-state topic when the
// apply announces step.
func recreateDataAtStep(e *env, step string, newID *string) func(string, map[string]any) {
	return func(s string, _ map[string]any) {
		if s == step && *newID == "" {
			*newID = e.recreateData(10)
		}
	}
}

// TestApplyDeletesNothingFromATopicRecreatedBeforeTheDelete: the
// action-state topic is deleted, recreated and refilled after every check
// of the apply's step 7 and before its DeleteRecords (at the "delete
// records" step). The topic's ID is read again right before the request,
// so nothing of the new topic is deleted, and the error says that the plan
// is COMMITTED and that no delete was sent.
func TestApplyDeletesNothingFromATopicRecreatedBeforeTheDelete(t *testing.T) {
	e := newEnvAnyBroker(t, 2, 10)
	var newID string
	plan := e.plan("c", func(int32) int64 { return 5 })
	_, err := Apply(context.Background(), e.kafka, Request{Plan: plan, ControlTopic: e.control,
		Progress: recreateDataAtStep(e, "delete records", &newID)})
	if newID == "" {
		t.Fatal("the apply never reached its delete step: the test did not recreate the topic")
	}
	e.requireNothingDeleted("the recreated topic")
	if !errors.Is(err, ErrTopicRecreatedDuringApply) {
		t.Fatalf("err = %v, want %v", err, ErrTopicRecreatedDuringApply)
	}
	for _, want := range []string{newID, plan.TopicID, "COMMITTED", "No DeleteRecords request was sent"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v\nwant it to mention %q", err, want)
		}
	}
}

// TestApplyReportsADeleteThatMayHaveReachedARecreatedTopic: the window
// that remains. The topic is recreated and refilled while the
// DeleteRecords request is on its way (the broker holds the request until
// it is done), so the request, which names the topic and not its ID,
// deletes the new topic's records. The apply cannot prevent that; it must
// say so: which partitions of which topic ID may have lost records below
// which offsets, and never that nothing was deleted.
func TestApplyReportsADeleteThatMayHaveReachedARecreatedTopic(t *testing.T) {
	e := newEnv(t, 2, 10)
	var newID string
	e.cluster.ControlKey(int16(kmsg.DeleteRecords), func(kmsg.Request) (kmsg.Response, error, bool) {
		e.cluster.SleepControl(func() { newID = e.recreateData(10) })
		return nil, nil, false
	})
	plan := e.plan("c", func(p int32) int64 { return 5 + int64(p) })
	_, err := Apply(context.Background(), e.kafka, Request{Plan: plan, ControlTopic: e.control})
	if newID == "" {
		t.Fatal("no DeleteRecords reached the broker: the test did not recreate the topic")
	}
	starts := e.startOffsets()
	if starts[0] != 5 || starts[1] != 6 {
		t.Fatalf("the recreated topic starts at %v; the test expects the delete to have reached it (5, 6)", starts)
	}
	if !errors.Is(err, ErrTopicRecreatedDuringApply) {
		t.Fatalf("err = %v, want %v", err, ErrTopicRecreatedDuringApply)
	}
	msg := err.Error()
	for _, want := range []string{newID, plan.TopicID, "partition 0 up to 5, partition 1 up to 6", "lost its records below those offsets", "COMMITTED"} {
		if !strings.Contains(msg, want) {
			t.Errorf("err = %v\nwant it to mention %q", err, want)
		}
	}
	if strings.Contains(strings.ToLower(msg), "nothing was") {
		t.Errorf("err = %v\nclaims nothing was written or deleted after a DeleteRecords was sent", err)
	}
}

// TestApplyReportsATopicRecreatedAfterItsDelete: recreated once the delete
// is done and its ID read unchanged right after it, the topic lost nothing
// through the apply, and the error says so instead of "nothing was
// deleted".
func TestApplyReportsATopicRecreatedAfterItsDelete(t *testing.T) {
	e := newEnv(t, 2, 10)
	var newID string
	plan := e.plan("c", func(int32) int64 { return 5 })
	// verifyDeleted lists the start offsets; the identity check after it
	// finds the recreated topic.
	k := &recreateAfterDelete{Kafka: e.kafka, e: e, newID: &newID}
	_, err := Apply(context.Background(), k, Request{Plan: plan, ControlTopic: e.control})
	if newID == "" {
		t.Fatal("the apply never deleted: the test did not recreate the topic")
	}
	e.requireNothingDeleted("the recreated topic")
	if !errors.Is(err, ErrTopicRecreatedDuringApply) {
		t.Fatalf("err = %v, want %v", err, ErrTopicRecreatedDuringApply)
	}
	for _, want := range []string{newID, "reached topic ID " + plan.TopicID, "no other topic lost records"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v\nwant it to mention %q", err, want)
		}
	}
}

// recreateAfterDelete recreates the action-state topic once the apply's
// DeleteRecords has returned.
type recreateAfterDelete struct {
	Kafka
	e     *env
	newID *string
}

func (r *recreateAfterDelete) StartOffsets(ctx context.Context, topic string) (map[int32]int64, error) {
	offs, err := r.Kafka.StartOffsets(ctx, topic)
	if err == nil && *r.newID == "" && topic == r.e.data && offs[0] == 5 {
		*r.newID = r.e.recreateData(10)
	}
	return offs, err
}

// requireNothingDeleted fails the test unless every partition of the
// action-state topic (what) still starts at 0.
func (e *env) requireNothingDeleted(what string) {
	e.t.Helper()
	for p, start := range e.startOffsets() {
		if start != 0 {
			e.t.Errorf("partition %d of %s starts at %d: records were deleted", p, what, start)
		}
	}
}
