package kafkaops_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// clientWithTimeout connects a kafkaops client whose operations end after
// timeout.
func (c *cluster) clientWithTimeout(t *testing.T, timeout time.Duration) *kafkaops.Client {
	t.Helper()
	k, err := kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	return k
}

// TestOffsetsWaitForAMovingLeader: a partition answering
// LEADER_NOT_AVAILABLE (its broker was just killed; with ZooKeeper that
// lasts until the broker's session expires) is asked again until its new
// leader answers; a re-run apply right after a broker died no longer fails
// on its first offset listing.
func TestOffsetsWaitForAMovingLeader(t *testing.T) {
	c := newCluster(t, 1)
	moving := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.ListOffsets}, Topic: "t000", Partitions: []int32{1}, Err: kerr.LeaderNotAvailable, Count: 3})
	offs, err := c.clientWithTimeout(t, 10*time.Second).StartOffsets(context.Background(), "t000")
	if err != nil {
		t.Fatalf("StartOffsets while a leader moves: %v, want the offsets once it has moved", err)
	}
	if len(offs) != 3 || moving.Hits() != 3 {
		t.Errorf("StartOffsets = %v after %d LEADER_NOT_AVAILABLE answers, want 3 partitions after 3", offs, moving.Hits())
	}
}

// TestOffsetsMovingLeaderBoundedByTimeout: a leader that never comes back
// is reported, as LEADER_NOT_AVAILABLE naming the partition, when the
// operation's timeout ends, not waited for forever.
func TestOffsetsMovingLeaderBoundedByTimeout(t *testing.T) {
	c := newCluster(t, 1)
	c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.ListOffsets}, Topic: "t000", Partitions: []int32{2}, Err: kerr.LeaderNotAvailable, Count: -1})
	start := time.Now()
	_, err := c.clientWithTimeout(t, time.Second).EndOffsets(context.Background(), "t000")
	if !errors.Is(err, kerr.LeaderNotAvailable) {
		t.Fatalf("EndOffsets with a leader that never moves: %v, want LEADER_NOT_AVAILABLE", err)
	}
	// About the 1s timeout on an idle machine; the bound only tells an
	// operation that ended from one that kept asking.
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("EndOffsets gave up after %v with a 1s timeout", took)
	}
}

// TestOtherOffsetErrorsAreNotRepeated: an error that is not a moving
// leader's is reported at once, from the first answer.
func TestOtherOffsetErrorsAreNotRepeated(t *testing.T) {
	c := newCluster(t, 1)
	denied := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.ListOffsets}, Topic: "t000", Err: kerr.TopicAuthorizationFailed, Count: -1})
	_, err := c.clientWithTimeout(t, 10*time.Second).StartOffsets(context.Background(), "t000")
	if !errors.Is(err, kerr.TopicAuthorizationFailed) || denied.Hits() != 1 {
		t.Errorf("StartOffsets denied: %v after %d requests, want TOPIC_AUTHORIZATION_FAILED after 1", err, denied.Hits())
	}
}

// TestDeleteRecordsWaitsForAMovingLeader: DeleteRecords up to an offset is
// safe to send again, so a partition whose leader is moving is asked again
// until it answers, and the boundary's records are deleted.
func TestDeleteRecordsWaitsForAMovingLeader(t *testing.T) {
	c := newCluster(t, 1)
	k := c.clientWithTimeout(t, 10*time.Second)
	produceTo(t, c, "t000", 3, 5)
	moving := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.DeleteRecords}, Topic: "t000", Partitions: []int32{0}, Err: kerr.LeaderNotAvailable, Count: 2})
	low, err := k.DeleteRecords(context.Background(), "t000", kafkaops.TopicID{}, map[int32]int64{0: 3, 1: 2, 2: 0})
	if err != nil {
		t.Fatalf("DeleteRecords while a leader moves: %v", err)
	}
	if low[0] != 3 || low[1] != 2 || low[2] != 0 || moving.Hits() != 2 {
		t.Errorf("low watermarks %v after %d LEADER_NOT_AVAILABLE answers, want 0:3 1:2 2:0 after 2", low, moving.Hits())
	}
}

// produceTo writes n records to each of the topic's first partitions.
func produceTo(t *testing.T, c *cluster, topic string, partitions int32, n int) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	var recs []*kgo.Record
	for p := range partitions {
		for range n {
			recs = append(recs, &kgo.Record{Topic: topic, Partition: p, Value: []byte("v")})
		}
	}
	if err := cl.ProduceSync(context.Background(), recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
}

// TestLeadersNotReady: what a read of a topic created moments ago may wait
// out (a leader not answering, the operation's own timeout while the
// caller's context lives) against what it must report (another error, or
// the caller's own deadline).
func TestLeadersNotReady(t *testing.T) {
	live := context.Background()
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	opTimeout := fmt.Errorf("list start offsets on topic %q: %w", "orders", context.DeadlineExceeded)
	for _, c := range []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"not leader", live, &kafkaops.OpError{Op: "list start offsets", Topic: "orders", Err: kerr.NotLeaderForPartition}, true},
		{"leader not available", live, kerr.LeaderNotAvailable, true},
		{"the operation's timeout", live, opTimeout, true},
		{"the caller's deadline", ended, opTimeout, false},
		{"denied", live, kerr.TopicAuthorizationFailed, false},
		{"missing", live, fmt.Errorf("describe topic: %w", errors.Join(kafkaops.ErrTopicNotFound, kerr.UnknownTopicOrPartition)), false},
		{"a partition not hosted yet", live, &kafkaops.OpError{Op: "list start offsets", Topic: "orders", Err: kerr.UnknownTopicOrPartition}, true},
	} {
		if got := kafkaops.LeadersNotReady(c.ctx, c.err); got != c.want {
			t.Errorf("%s: LeadersNotReady(%v) = %v, want %v", c.name, c.err, got, c.want)
		}
	}
}

// TestCreatedHere: a client knows the topics it created, and only those.
func TestCreatedHere(t *testing.T) {
	c := newCluster(t, 1)
	k := c.clientWithTimeout(t, 10*time.Second)
	if _, err := k.CreateTopic(context.Background(), "orders-cleanup-control", 1, 1, map[string]string{"cleanup.policy": "compact"}); err != nil {
		t.Fatal(err)
	}
	if !k.CreatedHere("orders-cleanup-control") || k.CreatedHere(c.topics[0]) {
		t.Errorf("CreatedHere: created %v, there before %v; want true, false", k.CreatedHere("orders-cleanup-control"), k.CreatedHere(c.topics[0]))
	}
}
