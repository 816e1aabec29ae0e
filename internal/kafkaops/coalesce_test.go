package kafkaops_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// cluster is one in-process broker holding n topics named t000..., each
// with 3 partitions, and a counter of the requests our client sends.
type cluster struct {
	*kfake.Cluster
	topics []string
}

func newCluster(t *testing.T, n int) *cluster {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	cl := &cluster{Cluster: c}
	for i := range n {
		name := fmt.Sprintf("t%03d", i)
		if err := c.CreateTopic(name, 3, map[string]string{"cleanup.policy": "compact,delete"}); err != nil {
			t.Fatal(err)
		}
		cl.topics = append(cl.topics, name)
	}
	return cl
}

// noCoalescing, as client's window, turns coalescing off.
const noCoalescing time.Duration = -1

// client connects a kafkaops client; window is its coalescing window (0:
// batching only while a request is in flight, noCoalescing: off).
func (c *cluster) client(t *testing.T, window time.Duration) *kafkaops.Client {
	t.Helper()
	k, err := kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: 10 * time.Second, Coalesce: window >= 0, CoalesceWindow: max(window, 0)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	return k
}

// count observes the requests of key that when selects (nil: all).
func (c *cluster) count(key kmsg.Key, when func(kmsg.Request) bool) *kfake.FaultHandle {
	return c.Fault(kfake.Fault{Keys: []kmsg.Key{key}, Observe: true, Count: -1, When: when})
}

// identityChecks selects the Metadata requests DescribeTopic sends (the
// only ones asking for authorized operations; kgo's own refreshes do not).
func identityChecks(r kmsg.Request) bool {
	return r.(*kmsg.MetadataRequest).IncludeTopicAuthorizedOperations
}

// concurrently runs fn for every name at once, as Terraform's refresh walk
// does, and returns the errors by name.
func concurrently(names []string, fn func(name string) error) map[string]error {
	var mu sync.Mutex
	errs := map[string]error{}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, name := range names {
		wg.Go(func() {
			<-start
			err := fn(name)
			mu.Lock()
			errs[name] = err
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return errs
}

// TestCoalescedReadsOnKfake: 100 topics plus one missing one, read side by
// side. With coalescing on, each kind of read takes a few requests (the
// first caller's alone; with a window the rest in one, two if the
// scheduler splits them across windows; without, in as many as arrive
// while one is in flight) instead of 101, every topic gets its own answer,
// and only the missing topic's callers fail.
func TestCoalescedReadsOnKfake(t *testing.T) {
	c := newCluster(t, 100)
	names := append(c.topics, "missing")
	reference := c.client(t, noCoalescing)
	ctx := context.Background()

	for _, tc := range []struct {
		window  time.Duration
		maxReqs int
	}{{noCoalescing, len(names)}, {0, 10}, {50 * time.Millisecond, 3}} {
		t.Run(fmt.Sprintf("window=%v", tc.window), func(t *testing.T) {
			k := c.client(t, tc.window)
			describes := c.count(kmsg.Metadata, identityChecks)
			configs := c.count(kmsg.DescribeConfigs, nil)
			defer describes.Remove()
			defer configs.Remove()
			errs := concurrently(names, func(name string) error {
				got, err := k.DescribeTopic(ctx, name)
				if err != nil {
					return err
				}
				want, err := reference.DescribeTopic(ctx, name)
				if err != nil {
					return err
				}
				if got.ID != want.ID || len(got.Partitions) != 3 || got.Name != name {
					return fmt.Errorf("got %+v, want %+v", got, want)
				}
				return nil
			})
			checkOnlyMissingFails(t, "DescribeTopic", errs, kafkaops.ErrTopicNotFound)
			// The reference client's checks are its own, one per topic; the
			// missing topic's rechecks (topic_missing.go) go alone, one per
			// round on this one broker.
			const metadataRechecks, configsRechecks = 3, 2
			if n := describes.Hits() - (len(names) - 1) - metadataRechecks; n < 1 || n > tc.maxReqs {
				t.Errorf("DescribeTopic: %d Metadata requests for %d callers, want 1..%d", n, len(names), tc.maxReqs)
			}

			errs = concurrently(names, func(name string) error {
				cfg, err := k.TopicConfigs(ctx, name)
				if err == nil && cfg["cleanup.policy"].Value != "compact,delete" {
					return fmt.Errorf("cleanup.policy is %q", cfg["cleanup.policy"].Value)
				}
				return err
			})
			checkOnlyMissingFails(t, "TopicConfigs", errs, kerr.UnknownTopicOrPartition)
			if n := configs.Hits() - configsRechecks; n < 1 || n > tc.maxReqs {
				t.Errorf("TopicConfigs: %d DescribeConfigs requests for %d callers, want 1..%d", n, len(names), tc.maxReqs)
			}

			offsets := c.count(kmsg.ListOffsets, nil)
			defer offsets.Remove()
			errs = concurrently(names, func(name string) error {
				start, err := k.StartOffsets(ctx, name)
				if err != nil {
					return err
				}
				end, err := k.EndOffsets(ctx, name)
				if err == nil && (len(start) != 3 || len(end) != 3) {
					return fmt.Errorf("start %v, end %v", start, end)
				}
				return err
			})
			checkOnlyMissingFails(t, "StartOffsets/EndOffsets", errs, kerr.UnknownTopicOrPartition)
			if n := offsets.Hits(); n < 2 || n > 2*tc.maxReqs {
				t.Errorf("offsets: %d ListOffsets requests for %d callers of two kinds, want 2..%d", n, len(names), 2*tc.maxReqs)
			}
		})
	}
}

func checkOnlyMissingFails(t *testing.T, op string, errs map[string]error, want error) {
	t.Helper()
	for name, err := range errs {
		if name == "missing" {
			var oe *kafkaops.OpError
			if !errors.Is(err, want) || !errors.As(err, &oe) || oe.Topic != "missing" {
				t.Errorf("%s(missing): got %v, want its own %v naming the topic", op, err, want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s(%s): %v", op, name, err)
		}
	}
}

// TestCoalescedAuthorizationFailureStaysWithItsTopic: the broker refuses
// one topic; kadm reports that as an error of the whole batch, so the
// coalescer asks again topic by topic and only that topic's caller fails.
func TestCoalescedAuthorizationFailureStaysWithItsTopic(t *testing.T) {
	c := newCluster(t, 20)
	c.Fault(
		kfake.Fault{Keys: []kmsg.Key{kmsg.Metadata}, Topic: "t005", Err: kerr.TopicAuthorizationFailed, Count: -1},
		kfake.Fault{Keys: []kmsg.Key{kmsg.DescribeConfigs}, Resource: "t005", Err: kerr.TopicAuthorizationFailed, Count: -1},
	)
	k := c.client(t, 50*time.Millisecond)
	ctx := context.Background()
	for op, fn := range map[string]func(string) error{
		"DescribeTopic": func(name string) error { _, err := k.DescribeTopic(ctx, name); return err },
		"TopicConfigs":  func(name string) error { _, err := k.TopicConfigs(ctx, name); return err },
	} {
		errs := concurrently(c.topics, fn)
		for name, err := range errs {
			_, denied := errors.AsType[*kadm.AuthError](err)
			if (name == "t005") != denied {
				t.Errorf("%s(%s): %v", op, name, err)
			}
		}
	}
}

// TestCoalescedDescribeIsNeverStale: a topic deleted and created again
// between two checks shows its new ID on the second check, with
// coalescing on: nothing is cached between batches.
func TestCoalescedDescribeIsNeverStale(t *testing.T) {
	c := newCluster(t, 1)
	k := c.client(t, 20*time.Millisecond)
	ctx := context.Background()
	before, err := k.DescribeTopic(ctx, "t000")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteTopic("t000"); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateTopic("t000", 3, nil); err != nil {
		t.Fatal(err)
	}
	after, err := k.DescribeTopic(ctx, "t000")
	if err != nil {
		t.Fatal(err)
	}
	if after.ID == before.ID {
		t.Fatalf("topic ID %s unchanged after the topic was recreated: a stale identity", after.ID)
	}
}

// TestCreateTopicWaitsUntilVisible: Apache Kafka answers CreateTopics before
// every broker's metadata cache shows the topic. CreateTopic itself reads
// nothing (the response is the state), and the first read of the topic
// through the same client waits until a fresh Metadata request shows it,
// so a read that follows a create never reports the new topic missing.
func TestCreateTopicWaitsUntilVisible(t *testing.T) {
	c := newCluster(t, 0)
	lag := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Metadata}, Topic: "fresh", Err: kerr.UnknownTopicOrPartition, Count: 3, When: identityChecks})
	metadata, configs := c.count(kmsg.Metadata, identityChecks), c.count(kmsg.DescribeConfigs, nil)
	k := c.client(t, noCoalescing)
	ctx := context.Background()
	created, err := k.CreateTopic(ctx, "fresh", 2, 1, map[string]string{"cleanup.policy": "compact"})
	if err != nil {
		t.Fatal(err)
	}
	if lag.Hits() != 0 || metadata.Hits() != 0 || configs.Hits() != 0 {
		t.Errorf("CreateTopic read the topic back (%d metadata, %d describe-configs requests); its response has everything",
			metadata.Hits()+lag.Hits(), configs.Hits())
	}
	if created.Topic.ID.IsZero() || !slices.Equal(created.Topic.Partitions, []int32{0, 1}) || created.Topic.ReplicationFactor != 1 ||
		created.Configs["cleanup.policy"] != (kafkaops.ConfigValue{Value: "compact"}) {
		t.Errorf("CreateTopic returned %+v", created)
	}
	got, err := k.DescribeTopic(ctx, "fresh")
	if err != nil || got.ID != created.Topic.ID {
		t.Fatalf("DescribeTopic after CreateTopic: %+v, %v (created %s)", got, err, created.Topic.ID)
	}
	if lag.Hits() != 3 {
		t.Errorf("the first read returned after %d of the 3 lagging metadata answers", lag.Hits())
	}
}

// TestMissingTopicNotAwaited: only topics this client created wait (up to
// the timeout) to become visible; any other missing topic is reported
// after the rechecks of topic_missing.go, about a second.
func TestMissingTopicNotAwaited(t *testing.T) {
	c := newCluster(t, 0)
	metadata := c.count(kmsg.Metadata, identityChecks)
	k := c.client(t, noCoalescing)
	start := time.Now()
	_, err := k.DescribeTopic(context.Background(), "never-created")
	if !errors.Is(err, kafkaops.ErrTopicNotFound) {
		t.Fatalf("DescribeTopic of a missing topic: %v, want ErrTopicNotFound", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("a missing topic was reported after %v, want about a second (the client's timeout is 10s)", took)
	}
	if metadata.Hits() != 4 {
		t.Errorf("%d metadata requests for one missing topic on one broker, want 4 (the question and three rechecks)", metadata.Hits())
	}
}

// TestFirstReadLongAfterCreate: the first read of a topic this client
// created, coming more than the timeout after the create (a slow apply, a
// loaded machine), reads the topic; it failed with "created, but not
// visible in every broker's metadata" without asking anything.
func TestFirstReadLongAfterCreate(t *testing.T) {
	c := newCluster(t, 0)
	k, err := kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	ctx := context.Background()
	created, err := k.CreateTopic(ctx, "slow", 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	got, err := k.DescribeTopic(ctx, "slow")
	if err != nil || got.ID != created.Topic.ID {
		t.Fatalf("first read %v after the create: %+v, %v", 500*time.Millisecond, got, err)
	}
}
