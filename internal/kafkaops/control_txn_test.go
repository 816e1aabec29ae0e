package kafkaops_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

const hangControl = "hang-control"

// silentProduce makes the broker take every Produce and never answer it,
// as a broker that froze or was cut off mid-request does. The cluster holds
// only the control topic.
func silentProduce(c *kfake.Cluster) {
	c.ControlKey(int16(kmsg.Produce), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		return nil, nil, true // handled, never answered
	})
}

// silentTxn begins a control transaction on a fresh broker, then makes the
// broker stop answering Produce.
func silentTxn(t *testing.T, timeout time.Duration) (*kfake.Cluster, kafkaops.ControlTxn) {
	t.Helper()
	c := newHangCluster(t)
	k, err := kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	txn, err := k.BeginControlTxn(context.Background(), hangControl)
	if err != nil {
		t.Fatal(err)
	}
	silentProduce(c)
	return c, txn
}

func newHangCluster(t *testing.T) *kfake.Cluster {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if err := c.CreateTopic(hangControl, 1, map[string]string{"cleanup.policy": "compact"}); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAppendEndsWhenTheBrokerStopsAnswering: franz-go keeps an idempotent
// batch that was sent and not answered, whatever the context says; the
// append must still end at the per-request timeout with an error that says
// what it waited for, and Commit and Abort must then end at once.
func TestAppendEndsWhenTheBrokerStopsAnswering(t *testing.T) {
	const timeout = 5 * time.Second // also what beginning the transaction may take on a loaded machine
	_, txn := silentTxn(t, timeout)
	ctx := context.Background()
	start := time.Now()
	err := txn.Append(ctx, []byte("k"), []byte("v"))
	took := time.Since(start)
	if err == nil {
		t.Fatal("append succeeded although the broker never answered")
	}
	// About the timeout on an idle machine; the bound only tells an append
	// that ended from one that waited for the broker forever.
	if took > timeout+30*time.Second {
		t.Fatalf("append took %s with a %s timeout", took, timeout)
	}
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no acknowledgement") {
		t.Fatalf("error does not say what it waited for: %v", err)
	}
	t.Logf("append gave up after %s (timeout %s): %v", took, timeout, err)
	if err := txn.Commit(ctx); err == nil {
		t.Fatal("commit of an abandoned transaction succeeded")
	}
	txn.Abort(ctx) // safe after an abandoned append
}

// TestAppendEndsWhenTheBrokerDies: the broker takes the produce, then
// dies; the append ends at the caller's deadline (a resource's timeouts
// block), well before the per-request timeout.
func TestAppendEndsWhenTheBrokerDies(t *testing.T) {
	const requestTimeout = 5 * time.Minute
	c, txn := silentTxn(t, requestTimeout)
	time.AfterFunc(500*time.Millisecond, c.Close)
	const deadline = 3 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	start := time.Now()
	err := txn.Append(ctx, []byte("k"), []byte("v"))
	// Ended by the caller's deadline, long before the per-request timeout.
	if took := time.Since(start); err == nil || took >= requestTimeout {
		t.Fatalf("append returned %v after %s with a %s deadline", err, took, deadline)
	}
}

// TestAppendEndsOnCancel: Ctrl-C (the framework cancels the context) ends
// an unanswered append promptly.
func TestAppendEndsOnCancel(t *testing.T) {
	const requestTimeout = 5 * time.Minute
	_, txn := silentTxn(t, requestTimeout)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	start := time.Now()
	err := txn.Append(ctx, []byte("k"), []byte("v"))
	// Ended by the cancel, long before the per-request timeout.
	if took := time.Since(start); err == nil || took >= requestTimeout {
		t.Fatalf("append returned %v %s after the cancel", err, took)
	}
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("error does not say it was cancelled: %v", err)
	}
}

// TestControlBatchesAreUncompressed: like the Java tool's, so a reader of
// the control topic needs no compression codec.
func TestControlBatchesAreUncompressed(t *testing.T) {
	c := newHangCluster(t)
	k, err := kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	ctx := context.Background()
	txn, err := k.BeginControlTxn(ctx, hangControl)
	if err != nil {
		t.Fatal(err)
	}
	defer txn.Close()
	// Compressible on purpose: snappy would shrink it.
	value := []byte(strings.Repeat(`{"schemaVersion":1,"status":"COMMITTED"}`, 50))
	if err := txn.Append(ctx, []byte("k"), value); err != nil {
		t.Fatal(err)
	}
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	codecs := batchCodecs{}
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.WithHooks(codecs),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{hangControl: {0: kgo.NewOffset().AtStart()}}),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if fs := cl.PollRecords(pctx, 1); fs.Err() != nil || fs.NumRecords() != 1 {
		t.Fatalf("reading the control record back: %v (%d records)", fs.Err(), fs.NumRecords())
	}
	if len(codecs) == 0 {
		t.Fatal("no batch was read")
	}
	for codec := range codecs {
		if codec != 0 {
			t.Errorf("a control batch has compression codec %d; the Java tool writes uncompressed batches", codec)
		}
	}
}

// batchCodecs records the compression codec of every batch fetched.
type batchCodecs map[uint8]bool

func (b batchCodecs) OnFetchBatchRead(_ kgo.BrokerMetadata, _ string, _ int32, m kgo.FetchBatchMetrics) {
	b[m.CompressionType] = true
}
