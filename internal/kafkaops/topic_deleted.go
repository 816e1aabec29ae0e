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
func (c *Client) AwaitTopicDeleted(ctx context.Context, name string, id TopicID) error {
	start := time.Now()
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		t, err := c.DescribeTopic(ctx, name)
		switch {
		case errors.Is(err, ErrTopicNotFound):
			return nil
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
