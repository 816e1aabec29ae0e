package kafkaops

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
)

// When a topic is missing.
//
// A topic reported missing is dropped from Terraform state, and the next
// plan creates it again; so one UNKNOWN_TOPIC_OR_PARTITION is a question,
// not the answer. Each broker serves Metadata from its own copy of the
// cluster's metadata, which trails the controller: right after another
// client created a topic (the previous terraform run, a fresh provider
// process) the broker asked may not know it yet (seen once on Kafka 3.9.1).
//
// The rule: after a first "unknown", every broker the cluster lists is
// asked directly, in one round per missingRecheckPauses entry, each after
// its pause. The topic is missing only when every broker answered
// UNKNOWN_TOPIC_OR_PARTITION in every round. The first broker that knows
// the topic answers for it; a broker that cannot be asked, or answers with
// another error, makes that the error: neither is agreement. A topic that is
// really gone costs one extra second and a few requests per broker.
var missingRecheckPauses = []time.Duration{0, 250 * time.Millisecond, 750 * time.Millisecond}

// confirmMissing applies the rule above to name, which a first Metadata
// answer said is unknown (notFound, returned when every broker agrees).
func (c *Client) confirmMissing(ctx context.Context, name string, notFound error) (Topic, error) {
	for _, pause := range missingRecheckPauses {
		if err := sleep(ctx, pause); err != nil {
			return Topic{}, opErr(OpDescribeTopic, name, err)
		}
		t, known, err := c.anyBrokerKnows(ctx, name)
		if err != nil || known {
			return t, err
		}
	}
	return Topic{}, notFound
}

// anyBrokerKnows asks every broker about name and returns the identity the
// first one that knows it reports.
func (c *Client) anyBrokerKnows(ctx context.Context, name string) (Topic, bool, error) {
	if !c.cfg.Coalesce {
		// Each question its own request: bounded by the in-flight slots
		// like any other (coalesced, one batch is in flight at a time).
		release, err := c.acquire(ctx)
		if err != nil {
			return Topic{}, false, opErr(OpDescribeTopic, name, err)
		}
		defer release()
	}
	answers, err := c.askEveryBroker(ctx, name) // within the timeout, with other topics' questions
	if err != nil {
		return Topic{}, false, opErr(OpDescribeTopic, name, fmt.Errorf("a broker said the topic does not exist; asking every broker to confirm: %w", err))
	}
	for _, a := range answers {
		if errors.Is(a.detail.Err, kerr.UnknownTopicOrPartition) {
			continue
		}
		t, err := topicFromMetadata(kadm.Metadata{Topics: kadm.TopicDetails{name: a.detail}}, name)
		return t, true, err
	}
	return Topic{}, false, nil
}

// sleep waits d, or less when ctx ends first (then its error says why).
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
