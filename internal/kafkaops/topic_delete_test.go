package kafkaops_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// TestCoalescedDeletesOnKfake: 40 topics deleted side by side, as a
// destroy does, plus one already gone. Coalesced, they take a few
// DeleteTopics requests instead of 41; every topic is gone and the one
// already gone is no error.
func TestCoalescedDeletesOnKfake(t *testing.T) {
	for _, tc := range []struct {
		window  time.Duration
		maxReqs int
	}{{noCoalescing, 41}, {0, 12}, {50 * time.Millisecond, 4}} {
		t.Run(fmt.Sprintf("window=%v", tc.window), func(t *testing.T) {
			c := newCluster(t, 41)
			k := c.client(t, tc.window)
			reference := c.client(t, noCoalescing)
			ctx := context.Background()
			ids := map[string]kafkaops.TopicID{}
			for _, name := range c.topics {
				d, err := reference.DescribeTopic(ctx, name)
				if err != nil {
					t.Fatal(err)
				}
				ids[name] = d.ID
			}
			gone := c.topics[40]
			if err := c.DeleteTopic(gone); err != nil {
				t.Fatal(err)
			}
			deletes := c.count(kmsg.DeleteTopics, nil)
			defer deletes.Remove()

			errs := concurrently(c.topics, func(name string) error { return k.DeleteTopic(ctx, name, ids[name]) })
			if n := deletes.Hits(); n < 1 || n > tc.maxReqs {
				t.Errorf("%d DeleteTopics requests for %d deletes, want 1..%d", n, len(c.topics), tc.maxReqs)
			}
			// A missing topic takes the missing-topic rule's paced rounds
			// to confirm: ask for all of them at once.
			left := concurrently(c.topics, func(name string) error {
				if _, err := reference.DescribeTopic(ctx, name); !errors.Is(err, kafkaops.ErrTopicNotFound) {
					return fmt.Errorf("%s after its delete: %v, want it gone", name, err)
				}
				return nil
			})
			for _, name := range c.topics {
				if errs[name] != nil {
					t.Errorf("DeleteTopic(%s): %v", name, errs[name])
				}
				if left[name] != nil {
					t.Error(left[name])
				}
			}
		})
	}
}

// TestDeleteSparesATopicRecreatedUnderItsName: the topic a destroy checked
// is deleted and another created under its name (by an operator, or a job
// starting up) before the delete is sent. The delete names the checked ID,
// so the new topic, and every record in it, is left alone. A delete by name
// took it.
func TestDeleteSparesATopicRecreatedUnderItsName(t *testing.T) {
	for _, window := range []time.Duration{noCoalescing, 0} {
		t.Run(fmt.Sprintf("window=%v", window), func(t *testing.T) {
			c := newCluster(t, 1)
			k := c.client(t, window)
			ctx := context.Background()
			checked, err := k.DescribeTopic(ctx, "t000")
			if err != nil {
				t.Fatal(err)
			}
			if err := c.DeleteTopic("t000"); err != nil {
				t.Fatal(err)
			}
			if err := c.CreateTopic("t000", 3, nil); err != nil {
				t.Fatal(err)
			}

			if err := k.DeleteTopic(ctx, "t000", checked.ID); err != nil {
				t.Fatalf("deleting the checked topic, already gone: %v, want no error (the goal state)", err)
			}
			now, err := k.DescribeTopic(ctx, "t000")
			if err != nil {
				t.Fatalf("the topic recreated under the name was deleted: %v", err)
			}
			if now.ID == checked.ID {
				t.Fatalf("t000 still has the checked ID %s", now.ID)
			}
		})
	}
}

// TestDeleteTopicUnansweredIsSettledByTheTopic: Kafka 3.6 in ZooKeeper mode
// was seen to finish a deletion at once and hold the DeleteTopics answer
// for the request's whole timeout, failing a destroy whose topic was gone.
// A deletion the broker does not answer in time is now settled by the
// topic: gone is success; still there, the timeout stands (nothing is
// claimed deleted that is not).
func TestDeleteTopicUnansweredIsSettledByTheTopic(t *testing.T) {
	ctx := context.Background()
	// oneTopic is a broker with one topic, a client whose requests end
	// after timeout, and the topic's ID as a caller checked it.
	oneTopic := func(t *testing.T, timeout time.Duration) (*cluster, *kafkaops.Client, string, kafkaops.TopicID) {
		c := newCluster(t, 1)
		k := c.clientWithTimeout(t, timeout)
		d, err := k.DescribeTopic(ctx, c.topics[0])
		if err != nil {
			t.Fatal(err)
		}
		return c, k, c.topics[0], d.ID
	}
	t.Run("deleted, then no answer within the timeout", func(t *testing.T) {
		c, k, name, id := oneTopic(t, 500*time.Millisecond)
		var held atomic.Bool
		c.ControlKey(int16(kmsg.DeleteTopics), func(kmsg.Request) (kmsg.Response, error, bool) {
			if held.Swap(true) {
				c.KeepControl()
				return nil, nil, false
			}
			// The deletion happens, and the answer comes after the
			// client stopped waiting for it.
			c.SleepControl(func() {
				if err := c.DeleteTopic(name); err != nil {
					t.Error(err)
				}
				time.Sleep(time.Second)
			})
			return nil, nil, false
		})
		if err := k.DeleteTopic(ctx, name, id); err != nil {
			t.Fatalf("DeleteTopic of a topic deleted but not answered for: %v, want nil", err)
		}
		if !held.Load() {
			t.Fatal("the DeleteTopics request never reached the broker")
		}
	})
	t.Run("REQUEST_TIMED_OUT after the deletion", func(t *testing.T) {
		// kfake, as Kafka, answers REQUEST_TIMED_OUT after applying it.
		c, k, name, id := oneTopic(t, 10*time.Second)
		timedOut := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.DeleteTopics}, Err: kerr.RequestTimedOut})
		if err := k.DeleteTopic(ctx, name, id); err != nil {
			t.Fatalf("DeleteTopic answered REQUEST_TIMED_OUT with the topic gone: %v, want nil", err)
		}
		if timedOut.Hits() != 1 {
			t.Fatalf("REQUEST_TIMED_OUT answered %d times, want 1", timedOut.Hits())
		}
	})
	t.Run("no answer, nothing deleted", func(t *testing.T) {
		c, k, name, id := oneTopic(t, 500*time.Millisecond)
		var seen atomic.Int32
		c.ControlKey(int16(kmsg.DeleteTopics), func(kmsg.Request) (kmsg.Response, error, bool) {
			c.KeepControl()
			seen.Add(1)
			c.SleepControl(func() { time.Sleep(time.Second) })
			return nil, errors.New("injected: the broker never answered"), true
		})
		err := k.DeleteTopic(ctx, name, id)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("DeleteTopic with no answer and the topic still there: %v, want %v", err, context.DeadlineExceeded)
		}
		if seen.Load() == 0 {
			t.Fatal("the DeleteTopics request never reached the broker")
		}
		if _, err := k.DescribeTopic(ctx, name); err != nil {
			t.Fatalf("the topic: %v, want it still there", err)
		}
	})
}
