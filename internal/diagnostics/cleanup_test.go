package diagnostics

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// readError is what reading a control topic returns when one record is
// refused: the cleanup core's wording around kafkaops' location around the
// log's own error.
func readError(t *testing.T, topic string, offset int64, key, value []byte) error {
	t.Helper()
	var log cleanupplan.Log
	err := log.Add(offset, key, value)
	if err == nil {
		t.Fatal("test bug: the record was accepted")
	}
	return fmt.Errorf("reading control topic %q: %w", topic, &kafkaops.ControlRecordError{Topic: topic, Partition: 0, Offset: offset, Err: err})
}

// Garbage in the control topic is not a malformed plan the operator can
// regenerate: the diagnostic names the record and how to look at it.
func TestUnreadableControlRecord(t *testing.T) {
	cases := map[string]struct {
		key, value []byte
		keyShown   string
	}{
		"non-UTF-8 bytes":     {[]byte("k-1"), []byte("\xff\xfe{}"), `key "k-1"`},
		"garbage text":        {[]byte("k-1"), []byte("hello"), `key "k-1"`},
		"byte-order mark":     {[]byte("k-1"), []byte("\xef\xbb\xbf{}"), `key "k-1"`},
		"blank source":        {[]byte("k-1"), []byte(`{"schemaVersion":1,"status":"APPLIED","plan":{"schemaVersion":1,"planId":"x","sourceRecoveryPoint":"\u0001","topic":"t","topicId":"q1Yw3mZ7QGu3c8m0b7o5Zg","offsets":{"0":1}}}`), `key "k-1"`},
		"binary key":          {[]byte{0xff, 0x00, 0x01}, []byte("hello"), "a key of 3 bytes that is not printable text"},
		"no key":              {nil, []byte("hello"), "no key"},
		"control char in key": {[]byte("a\x1bb"), []byte("hello"), "a key of 3 bytes that is not printable text"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			err := readError(t, "orders-cleanup", 7, c.key, c.value)
			d := FromCleanupErrorVia(op, err, "k1:9092 in plaintext")
			assertShape(t, d, "Unreadable Record In Control Topic",
				"kafka-console-consumer.sh --bootstrap-server BROKERS --topic orders-cleanup --partition 0 --offset 7 --max-messages 1 --isolation-level read_committed", err)
			for _, want := range []string{
				`The control topic "orders-cleanup" holds a record this provider cannot read, at partition 0, offset 7 (` + c.keyShown + fmt.Sprintf(", value of %d bytes)", len(c.value)),
				"Nothing was written or deleted after it was read",
				"kcat -C -b BROKERS -t orders-cleanup -p 0 -o 7 -c 1",
				"do not delete or recreate the control topic",
				"Connection (BROKERS above): k1:9092 in plaintext.",
			} {
				if !strings.Contains(d.Detail(), want) {
					t.Errorf("detail lacks %q:\n%s", want, d.Detail())
				}
			}
			if strings.Contains(d.Detail(), "regenerate") {
				t.Errorf("detail gives plan advice for a record:\n%s", d.Detail())
			}
		})
	}
}

// Records that were read fine but break the history keep their own
// diagnostics, and a malformed plan_json stays a malformed plan.
func TestCleanupRefusalsStayDistinct(t *testing.T) {
	k, v := cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, mustPlan(t))
	_, parseErr := cleanupplan.Parse([]byte("\xff"))
	for name, c := range map[string]struct {
		err     error
		summary string
	}{
		"tombstone":    {readError(t, "orders-cleanup", 3, k, nil), "Tombstone In Control Topic"},
		"key mismatch": {readError(t, "orders-cleanup", 3, []byte("other"), v), "Control Record Key Is Not Its Plan ID"},
		"plan_json":    {parseErr, "Malformed Cleanup Plan"},
	} {
		if d := FromCleanupError(op, c.err); d.Summary() != c.summary {
			t.Errorf("%s: summary %q, want %q (%v)", name, d.Summary(), c.summary, c.err)
		}
	}
}

// A record keyed by something other than its plan's ID is named, with the
// key and the plan ID, instead of "contradicts an earlier one".
func TestControlRecordKeyMismatch(t *testing.T) {
	p := mustPlan(t)
	_, v := cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, p)
	err := readError(t, "orders-cleanup", 12, []byte("other-key"), v)
	d := FromCleanupErrorVia(op, err, "k1:9092 in plaintext")
	assertShape(t, d, "Control Record Key Is Not Its Plan ID", "--topic orders-cleanup --partition 0 --offset 12", err)
	for _, want := range []string{
		`The control topic "orders-cleanup" holds, at partition 0, offset 12, a record with key "other-key", but the plan inside it has plan ID ` + p.ID(),
		"Nothing was written or deleted after it was read",
	} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("detail lacks %q:\n%s", want, d.Detail())
		}
	}
	if strings.Contains(d.Detail(), "contradicts an earlier one") {
		t.Errorf("detail still says the record contradicts an earlier one:\n%s", d.Detail())
	}
}

// Without kafkaops' location (the log replayed by hand), the topic is a
// placeholder rather than a wrong name.
func TestUnreadableControlRecordWithoutTopic(t *testing.T) {
	var log cleanupplan.Log
	err := log.Add(9, []byte("k"), []byte("nope"))
	d := FromCleanupError(op, err)
	assertShape(t, d, "Unreadable Record In Control Topic", "--topic TOPIC --partition 0 --offset 9", err)
	if strings.Contains(d.Detail(), "Connection") {
		t.Errorf("no connection was given:\n%s", d.Detail())
	}
}

func mustPlan(t *testing.T) cleanupplan.Plan {
	t.Helper()
	p, err := cleanupplan.New("file:/cp/chk-1", "orders-agent-action-state", "q1Yw3mZ7QGu3c8m0b7o5Zg", cleanupplan.Offsets{0: 1})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// An action-state topic recreated after the plan was COMMITTED gets its
// own diagnostic: the apply wrote (and may have deleted), so the refusal's
// "Nothing was written or deleted" would be false.
func TestTopicRecreatedDuringApplyIsNotARefusal(t *testing.T) {
	err := fmt.Errorf("%w: plan p is COMMITTED in control topic %q for topic ID A; %w. If the topic was recreated ...",
		cleanup.ErrTopicRecreatedDuringApply, "orders-cleanup",
		&kafkaops.DeleteRecordsIdentityError{Topic: "orders", Sent: true, UpTo: map[int32]int64{0: 5}})
	d := FromCleanupError(op, err)
	assertShape(t, d, "Action-State Topic Was Recreated During The Apply", "DeleteRecords names a topic, not its ID", err)
	if strings.Contains(strings.ToLower(d.Detail()), "nothing was written") {
		t.Errorf("detail says nothing was written after a COMMITTED record and a DeleteRecords:\n%s", d.Detail())
	}
}

// An apply that gave up on a control topic another writer kept changing is
// told apart from a refusal of its plan: nothing is wrong with the plan.
func TestControlTopicKeptChanging(t *testing.T) {
	err := fmt.Errorf("%w: control topic %q changed 3 times while this apply committed plan p", cleanup.ErrControlTopicChanging, "orders-cleanup")
	d := FromCleanupError(op, err)
	assertShape(t, d, "Control Topic Kept Changing During The Apply", "KafkaActionStateCleanupTool", err)
}

// A refusal met after the apply's own COMMITTED (the Java tool recorded a
// crossing plan between the apply's re-read and its commit) says what the
// apply wrote, never "Nothing was written or deleted".
func TestRefusalAfterCommitSaysWhatWasWritten(t *testing.T) {
	refusal := fmt.Errorf("control topic %q: %w: plans a and b cross", "orders-cleanup", cleanupplan.ErrIncomparablePlans)
	written := "Before this, the apply recorded plan abc as COMMITTED in the control topic with ID X"
	d := FromCleanupError(op, &cleanup.WrittenBeforeError{Written: written, Err: refusal})
	if d.Summary() != "Control Topic Holds Incomparable Plans" {
		t.Errorf("summary %q", d.Summary())
	}
	if strings.Contains(d.Detail(), "Nothing was written") || !strings.Contains(d.Detail(), written+"; nothing else was written or deleted.") {
		t.Errorf("detail does not say what was written:\n%s", d.Detail())
	}
	if d := FromCleanupError(op, refusal); !strings.Contains(d.Detail(), "Nothing was written or deleted. Two recorded plans cross") {
		t.Errorf("a refusal before anything was written lost its outcome:\n%s", d.Detail())
	}
}

// A plan missing a partition is named as that, not as a control topic
// belonging to another topic, whichever check found it.
func TestPlanMissingPartitionsIsNamed(t *testing.T) {
	p, err := cleanupplan.New("chk", "orders-agent-action-state", "AAAAAAAAAAAAAAAAAAAAAQ", cleanupplan.Offsets{0: 5, 1: 5})
	if err != nil {
		t.Fatal(err)
	}
	full, err := cleanupplan.New("chk-0", "orders-agent-action-state", "AAAAAAAAAAAAAAAAAAAAAQ", cleanupplan.Offsets{0: 1, 1: 1, 2: 1})
	if err != nil {
		t.Fatal(err)
	}
	var log cleanupplan.Log
	k, v := cleanupplan.EncodeRecord(cleanupplan.StatusApplied, full)
	if err := log.Add(0, k, v); err != nil {
		t.Fatal(err)
	}
	for name, refusal := range map[string]error{
		"against the history":  log.ValidateFor(p.Topic, p.TopicID, p.Offsets),
		"against the boundary": p.AdvancesOrEquals(full.Offsets),
		"against the topic": fmt.Errorf("%w: %w", cleanup.ErrPartitionSetChanged,
			cleanupplan.MissingPartitions(p.ID(), p.Topic, p.Offsets, []int32{0, 1, 2}, "the topic has 3 partitions [0 1 2]")),
	} {
		if !errors.Is(refusal, cleanupplan.ErrPlanMissesPartitions) {
			t.Fatalf("%s: %v", name, refusal)
		}
		d := FromCleanupError(op, refusal)
		assertShape(t, d, "Cleanup Plan Misses Partitions Of orders-agent-action-state", "this one lacks partition 2", refusal)
		if !strings.Contains(d.Detail(), "Nothing was written or deleted.") {
			t.Errorf("%s: detail lacks the outcome:\n%s", name, d.Detail())
		}
	}
}
