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

// coalescedRead is one kind of topic read: the request it sends, and which
// of those requests are the read's own (kgo's metadata refreshes are not),
// with the topics they name.
type coalescedRead struct {
	op     string
	key    kmsg.Key
	topics func(kmsg.Request) (names []string, own bool)
	// read reads name through k and checks the answer; ids are the topics'
	// IDs as a client without coalescing saw them.
	read func(ctx context.Context, k *kafkaops.Client, name string, ids map[string]kafkaops.TopicID) error
	// missingErr is what the read of a missing topic wraps.
	missingErr error
}

var coalescedReads = []coalescedRead{
	{kafkaops.OpDescribeTopic, kmsg.Metadata, func(r kmsg.Request) ([]string, bool) {
		req := r.(*kmsg.MetadataRequest)
		var names []string
		for _, t := range req.Topics {
			if t.Topic != nil {
				names = append(names, *t.Topic)
			}
		}
		return names, req.IncludeTopicAuthorizedOperations // kgo's own refreshes do not ask for them
	}, func(ctx context.Context, k *kafkaops.Client, name string, ids map[string]kafkaops.TopicID) error {
		got, err := k.DescribeTopic(ctx, name)
		if err == nil && (got.ID != ids[name] || len(got.Partitions) != 3 || got.Name != name) {
			return fmt.Errorf("got %+v, want ID %s and 3 partitions", got, ids[name])
		}
		return err
	}, kafkaops.ErrTopicNotFound},
	{kafkaops.OpDescribeConfigs, kmsg.DescribeConfigs, func(r kmsg.Request) ([]string, bool) {
		var names []string
		for _, res := range r.(*kmsg.DescribeConfigsRequest).Resources {
			names = append(names, res.ResourceName)
		}
		return names, true
	}, func(ctx context.Context, k *kafkaops.Client, name string, _ map[string]kafkaops.TopicID) error {
		cfg, err := k.TopicConfigs(ctx, name)
		if err == nil && cfg["cleanup.policy"].Value != "compact,delete" {
			return fmt.Errorf("cleanup.policy is %q", cfg["cleanup.policy"].Value)
		}
		return err
	}, kerr.UnknownTopicOrPartition},
	{kafkaops.OpListStartOffsets, kmsg.ListOffsets, listedTopics, func(ctx context.Context, k *kafkaops.Client, name string, _ map[string]kafkaops.TopicID) error {
		offs, err := k.StartOffsets(ctx, name)
		if err == nil && len(offs) != 3 {
			return fmt.Errorf("start offsets %v", offs)
		}
		return err
	}, kerr.UnknownTopicOrPartition},
	{kafkaops.OpListEndOffsets, kmsg.ListOffsets, listedTopics, func(ctx context.Context, k *kafkaops.Client, name string, _ map[string]kafkaops.TopicID) error {
		offs, err := k.EndOffsets(ctx, name)
		if err == nil && len(offs) != 3 {
			return fmt.Errorf("end offsets %v", offs)
		}
		return err
	}, kerr.UnknownTopicOrPartition},
}

func listedTopics(r kmsg.Request) ([]string, bool) {
	var names []string
	for _, t := range r.(*kmsg.ListOffsetsRequest).Topics {
		names = append(names, t.Topic)
	}
	return names, true
}

// TestCoalescedReadsOnKfake: 100 topics plus one missing one, read side by
// side, each kind of read on its own. The broker holds the first request of
// the kind until every other caller waits for the next one, so what the
// test sees does not depend on how the scheduler interleaves the callers:
// with coalescing on (with or without a window), the first caller's request
// goes alone and every other caller's topic goes in the one request after
// it; with coalescing off, each caller sends its own. Every topic gets its
// own answer, and only the missing topic's callers fail.
func TestCoalescedReadsOnKfake(t *testing.T) {
	ctx := context.Background()
	for _, read := range coalescedReads {
		for _, window := range []time.Duration{noCoalescing, 0, 50 * time.Millisecond} {
			t.Run(fmt.Sprintf("%s/window=%v", read.op, window), func(t *testing.T) {
				c := newCluster(t, 100)
				names := append(slices.Clone(c.topics), "missing")
				ids := map[string]kafkaops.TopicID{}
				reference := c.client(t, noCoalescing)
				for _, name := range c.topics {
					d, err := reference.DescribeTopic(ctx, name)
					if err != nil {
						t.Fatal(err)
					}
					ids[name] = d.ID
				}
				k := c.client(t, window)
				var mu sync.Mutex
				var requests [][]string
				c.ControlKey(int16(read.key), func(r kmsg.Request) (kmsg.Response, error, bool) {
					topics, own := read.topics(r)
					if !own {
						return nil, nil, false
					}
					mu.Lock()
					requests = append(requests, topics)
					first := len(requests) == 1
					mu.Unlock()
					if first && window != noCoalescing {
						// Until every other caller waits (a minute at most).
						c.SleepControl(func() {
							kafkaops.Eventually(t, "every other caller to wait", func() bool { return k.CoalescedWaiting(read.op) == len(names)-1 })
						})
					}
					return nil, nil, false
				})
				errs := concurrently(names, func(name string) error { return read.read(ctx, k, name, ids) })
				checkOnlyMissingFails(t, read.op, errs, read.missingErr)

				mu.Lock()
				defer mu.Unlock()
				// The missing topic's rechecks (topic_missing.go) go alone,
				// and ListOffsets leaves out a topic the metadata does not
				// list: what is left are the callers' batches, by the real
				// topics they name.
				var batches [][]string
				asked := map[string]int{}
				for _, r := range requests {
					real := slices.DeleteFunc(slices.Clone(r), func(name string) bool { return name == "missing" })
					for _, name := range real {
						asked[name]++
					}
					if len(real) > 0 {
						batches = append(batches, real)
					}
				}
				for _, name := range c.topics {
					if asked[name] == 0 {
						t.Errorf("%s was never asked", name)
					}
				}
				if window == noCoalescing {
					return // each caller alone: nothing to check beyond the answers
				}
				// The first caller's request went alone; when it was not the
				// missing topic's, it named one real topic.
				want := []int{len(c.topics)}
				if len(batches) > 1 {
					want = []int{1, len(c.topics) - 1}
				}
				if got := shortBatches(batches); !slices.Equal(got, want) {
					t.Errorf("requests of %v real topics; want the first caller's alone, then every other caller's together (%v)", got, want)
				}
			})
		}
	}
}

// shortBatches describes batches by their sizes.
func shortBatches(batches [][]string) []int {
	sizes := make([]int, len(batches))
	for i, b := range batches {
		sizes[i] = len(b)
	}
	return sizes
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
	const timeout = time.Minute
	k, err := kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	start := time.Now()
	_, err = k.DescribeTopic(context.Background(), "never-created")
	if !errors.Is(err, kafkaops.ErrTopicNotFound) || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("DescribeTopic of a missing topic: %v, want ErrTopicNotFound, not a timeout", err)
	}
	// About a second on an idle machine; the bound is the client's timeout,
	// which a topic that were awaited would reach.
	if took := time.Since(start); took >= timeout {
		t.Errorf("a missing topic was reported after %v: it was awaited until the timeout", took)
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
	// The timeout must outlast a create on a loaded machine; the sleep only
	// has to exceed it.
	const timeout = 2 * time.Second
	k, err := kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	ctx := context.Background()
	created, err := k.CreateTopic(ctx, "slow", 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(timeout + 200*time.Millisecond)
	got, err := k.DescribeTopic(ctx, "slow")
	if err != nil || got.ID != created.Topic.ID {
		t.Fatalf("first read more than the timeout after the create: %+v, %v", got, err)
	}
}
