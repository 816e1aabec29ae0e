package kafkaops

import (
	"context"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// settleBatch bounds the topics of one Metadata request of SettleTopics,
// as Config.CoalesceMaxTopics bounds the coalescer's reads by default.
const settleBatch = 500

// SettleTopics waits, for the topics of names this client created, until
// every broker's own Metadata shows them (the lazy wait of settle, for a
// fleet at once): a few requests per broker for the whole fleet, so that
// an apply that created 2,000 topics ends with all of them visible. The
// next command, a new provider process, then reads them at once without
// finding any of them missing: on Apache Kafka 4.4 the plan right after
// such a rollout found hundreds of new topics unknown for over a second,
// and planned to create them again. Topics still not shown everywhere at
// the per-operation timeout are left to their first read (settle), which
// says why. It never fails: it only waits.
func (c *Client) SettleTopics(ctx context.Context, names []string) {
	var waiting []string
	for _, name := range names {
		if _, ok := c.unsettled.Load(name); ok {
			waiting = append(waiting, name)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	for wait := 10 * time.Millisecond; len(waiting) > 0; wait = min(2*wait, 500*time.Millisecond) {
		shown, err := c.shownEverywhere(ctx, waiting)
		if err == nil {
			waiting = slices.DeleteFunc(waiting, func(name string) bool {
				if shown[name] {
					c.unsettled.Delete(name)
				}
				return shown[name]
			})
		}
		if len(waiting) == 0 || sleep(ctx, wait) != nil {
			return
		}
	}
}

// shownEverywhere asks every broker directly, in requests of settleBatch
// topics, and reports the topics each of them shows with a leader for
// every partition.
func (c *Client) shownEverywhere(ctx context.Context, names []string) (map[string]bool, error) {
	brokers, err := c.LiveBrokers(ctx)
	if err != nil {
		return nil, err
	}
	seen := map[string]int{}
	err = c.askBrokers(ctx, brokers, names, func(_ int32, t kmsg.MetadataResponseTopic) {
		if kerr.ErrorForCode(t.ErrorCode) == nil && led(t) {
			seen[*t.Topic]++
		}
	})
	if err != nil {
		return nil, err
	}
	shown := make(map[string]bool, len(seen))
	for name, n := range seen {
		shown[name] = n == len(brokers)
	}
	return shown, nil
}

// led reports whether every partition of t has a leader.
func led(t kmsg.MetadataResponseTopic) bool {
	for _, p := range t.Partitions {
		if p.Leader < 0 || kerr.ErrorForCode(p.ErrorCode) != nil {
			return false
		}
	}
	return len(t.Partitions) > 0
}
