package kafkaops

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
)

// AwaitTopicDeleted returns once the topic with ID id no longer answers to
// name: gone, or recreated as another topic. Kafka answers DeleteTopics
// before every broker has dropped the topic, and a create of the same name
// in between would fail with TOPIC_ALREADY_EXISTS. Partitions reported
// without a leader meanwhile are part of the deletion, so retriable errors
// are waited out. It waits as long as ctx allows (each read is bounded by
// the client's timeout).
//
// The topic is gone once every broker says so, asked once: the pauses of
// the missing-topic rule (topic_missing.go) guard against a broker that has
// not yet learned of a new topic, and here a broker behind the controller
// can only still list the topic, which makes the wait longer, never end
// too early.
func (c *Client) AwaitTopicDeleted(ctx context.Context, name string, id TopicID) error {
	start := time.Now()
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		t, err := c.topics.do(ctx, name)
		if errors.Is(err, ErrTopicNotFound) {
			var known bool
			if t, known, err = c.anyBrokerKnows(ctx, name); err == nil && !known {
				return nil
			}
		}
		switch {
		case err != nil && ctx.Err() == nil && !kerr.IsRetriable(err):
			return err // refused or unreachable: waiting would not help
		case err == nil && t.ID != id:
			return nil
		}
		select {
		case <-ctx.Done():
			return opErr(OpDeleteTopic, name, fmt.Errorf("the broker accepted the deletion, but the topic is still listed (%w)", waitErr(ctx, start)))
		case <-time.After(wait):
		}
	}
}
