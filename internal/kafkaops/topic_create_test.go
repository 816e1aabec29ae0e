package kafkaops_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// TestCoalescedCreatesOnKfake: 60 topics of different sizes and settings
// created side by side, as a rollout's apply does, plus a topic that exists
// already and two creates of one new name. Coalesced, the creates take a
// few CreateTopics requests instead of 63; each topic gets its own
// partitions and configs; only the existing topic's caller and one of the
// two twins are told the topic exists.
func TestCoalescedCreatesOnKfake(t *testing.T) {
	for _, tc := range []struct {
		window  time.Duration
		maxReqs int
	}{{noCoalescing, 63}, {0, 12}, {50 * time.Millisecond, 4}} {
		t.Run(fmt.Sprintf("window=%v", tc.window), func(t *testing.T) {
			c := newCluster(t, 1) // t000 exists
			k := c.client(t, tc.window)
			reference := c.client(t, noCoalescing)
			creates := c.count(kmsg.CreateTopics, nil)
			defer creates.Remove()

			var names []string
			for i := range 60 {
				names = append(names, fmt.Sprintf("new%02d", i))
			}
			names = append(names, "t000", "twin#1", "twin#2")
			partitionsOf := func(name string) int32 { return int32(len(name)%4 + 1) }
			retentionOf := func(name string) string { return fmt.Sprint(1000 * (len(name) + int(name[len(name)-1]))) }
			nameOf := func(name string) string {
				if len(name) > 4 && name[:4] == "twin" {
					return "twin"
				}
				return name
			}
			errs := concurrently(names, func(name string) error {
				created, err := k.CreateTopic(context.Background(), nameOf(name), partitionsOf(name), 1,
					map[string]string{"retention.ms": retentionOf(name)})
				if err != nil {
					return err
				}
				if nameOf(name) == "twin" {
					return nil // the two twins asked for different sizes; one of them won
				}
				if len(created.Topic.Partitions) != int(partitionsOf(name)) || created.Configs["retention.ms"].Value != retentionOf(name) {
					return fmt.Errorf("created %+v, want %d partitions and retention.ms %s", created, partitionsOf(name), retentionOf(name))
				}
				got, err := reference.DescribeTopic(context.Background(), name)
				if err != nil || got.ID != created.Topic.ID || len(got.Partitions) != int(partitionsOf(name)) {
					return fmt.Errorf("the broker has %+v (%v); CreateTopic said %+v", got, err, created.Topic)
				}
				return nil
			})
			for _, name := range names[:60] {
				if errs[name] != nil {
					t.Errorf("CreateTopic(%s): %v", name, errs[name])
				}
			}
			if !errors.Is(errs["t000"], kerr.TopicAlreadyExists) {
				t.Errorf("CreateTopic of an existing topic: %v, want TOPIC_ALREADY_EXISTS", errs["t000"])
			}
			twin1, twin2 := errs["twin#1"], errs["twin#2"]
			if (twin1 == nil) == (twin2 == nil) || !errors.Is(errors.Join(twin1, twin2), kerr.TopicAlreadyExists) {
				t.Errorf("two creates of one name: %v and %v, want one success and one TOPIC_ALREADY_EXISTS", twin1, twin2)
			}
			if n := creates.Hits(); n < 1 || n > tc.maxReqs {
				t.Errorf("%d CreateTopics requests for %d creates, want 1..%d", n, len(names), tc.maxReqs)
			}
		})
	}
}

// TestAbandonedCreateIsNotSent: a caller that stops waiting before its
// create was sent (Terraform cancelled, the resource's timeout passed) takes
// it back; the batch it had joined goes without it, and its topic is never
// created behind its back.
func TestAbandonedCreateIsNotSent(t *testing.T) {
	c := newCluster(t, 0)
	k := c.client(t, 0)
	creates := c.count(kmsg.CreateTopics, nil)
	defer creates.Remove()
	held, release := make(chan struct{}), make(chan struct{})
	var hold sync.Once
	c.ControlKey(int16(kmsg.CreateTopics), func(kmsg.Request) (kmsg.Response, error, bool) {
		hold.Do(func() { // hold the first create in flight
			close(held)
			c.SleepControl(func() { <-release })
		})
		return nil, nil, false
	})

	first := make(chan error, 1)
	go func() { _, err := k.CreateTopic(context.Background(), "first", 1, 1, nil); first <- err }()
	<-held

	ctx, cancel := context.WithCancel(context.Background())
	abandoned := make(chan error, 1)
	go func() { _, err := k.CreateTopic(ctx, "abandoned", 1, 1, nil); abandoned <- err }()
	kafkaops.Eventually(t, `"abandoned" to join the batch waiting for "first"`, func() bool { return k.CoalescedWaiting(kafkaops.OpCreateTopic) == 1 })
	cancel()
	if err := <-abandoned; !errors.Is(err, context.Canceled) {
		t.Fatalf("the abandoned create returned %v, want context.Canceled", err)
	}
	third := make(chan error, 1)
	go func() { _, err := k.CreateTopic(context.Background(), "third", 1, 1, nil); third <- err }()
	// The abandoned caller's place stays in the batch (its create is left
	// out when the batch goes): the third is the second to wait.
	kafkaops.Eventually(t, `"third" to join the batch`, func() bool { return k.CoalescedWaiting(kafkaops.OpCreateTopic) == 2 })
	close(release)

	if err := <-first; err != nil {
		t.Fatalf("first: %v", err)
	}
	if err := <-third; err != nil {
		t.Fatalf("third: %v", err)
	}
	if _, err := c.client(t, noCoalescing).DescribeTopic(context.Background(), "abandoned"); !errors.Is(err, kafkaops.ErrTopicNotFound) {
		t.Errorf("the abandoned topic: %v, want it never created", err)
	}
	if n := creates.Hits(); n != 2 {
		t.Errorf("%d CreateTopics requests, want 2 (first alone, third in the batch it waited in)", n)
	}
}
