package kafkaops_test

import (
	"context"
	"errors"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// A topic Metadata shows whose DescribeConfigs still answers
// UNKNOWN_TOPIC_OR_PARTITION (a broker behind a burst of creates; seen on
// Kafka 4.4 for more than a second) is read again until its settings come,
// rather than failing the refresh of a fleet that was just rolled out; a
// topic that is really gone still fails at once with the describe's error.
func TestDescribeTopicWithConfigsWaitsForLaggingConfigs(t *testing.T) {
	c := newCluster(t, 1)
	lag := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.DescribeConfigs}, Resource: "t000", Err: kerr.UnknownTopicOrPartition, Count: 6})
	k := c.client(t, noCoalescing)
	ctx := context.Background()
	_, cfg, err := k.DescribeTopicWithConfigs(ctx, "t000")
	if err != nil {
		t.Fatalf("a topic whose settings lag its metadata: %v", err)
	}
	if cfg["cleanup.policy"].Value != "compact,delete" || lag.Hits() != 6 {
		t.Fatalf("settings %v after %d lagging answers, want compact,delete after 6", cfg["cleanup.policy"], lag.Hits())
	}
	if _, _, err := k.DescribeTopicWithConfigs(ctx, "gone"); !errors.Is(err, kerr.UnknownTopicOrPartition) {
		t.Fatalf("a missing topic: %v, want UNKNOWN_TOPIC_OR_PARTITION", err)
	}
}
