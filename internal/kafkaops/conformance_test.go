package kafkaops_test

import (
	"context"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// The control log is read as the runtime reads it, read_committed: a
// record of an aborted transaction is never seen, one committed after it
// is, and the read stops at the end it measured.
func TestReadControlLogSkipsAbortedTransactions(t *testing.T) {
	ctx := context.Background()
	const topic = "orders-cleanup"
	k, appendAsTool := newControlTopic(t, topic)
	if _, err := appendAsTool([]byte("k"), []byte("before")); err != nil {
		t.Fatal(err)
	}
	aborted, err := k.BeginControlTxn(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	if err := aborted.Append(ctx, []byte("k"), []byte("aborted")); err != nil {
		t.Fatal(err)
	}
	aborted.Abort(ctx)
	aborted.Close()
	committed, err := k.BeginControlTxn(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	if err := committed.Append(ctx, []byte("k"), []byte("committed")); err != nil {
		t.Fatal(err)
	}
	if err := committed.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	committed.Close()
	if seen := committedValues(t, k, topic); len(seen) != 2 || seen[0] != "before" || seen[1] != "committed" {
		t.Fatalf("read %q, want the records outside the aborted transaction", seen)
	}
}

// A topic ID is printed as Kafka's Java Uuid.toString prints it: URL-safe
// base64 without padding (the spec's example), never kadm's padded form.
func TestTopicIDPrintsAsJavaUuid(t *testing.T) {
	id := kafkaops.TopicID{0x4f, 0xbe, 0xfb, 0xa1, 0x9d, 0xff, 0x4b, 0x7e, 0xfb, 0xd1, 0x6c, 0x5e, 0x08, 0x33, 0xaf, 0xf0}
	if got := id.String(); got != "T777oZ3_S3770WxeCDOv8A" {
		t.Fatalf("topic ID prints as %q, want T777oZ3_S3770WxeCDOv8A", got)
	}
}
