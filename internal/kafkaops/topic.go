package kafkaops

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Topic is what the protocol needs to know about a topic's identity.
type Topic struct {
	Name       string
	ID         TopicID
	Partitions []int32 // ascending
	// ReplicationFactor is the fewest replicas any partition lists,
	// including replicas a reassignment is still adding: TopicReplication
	// tells what is settled.
	ReplicationFactor int
	Leaders           map[int32]int32
	Replicas, ISR     map[int32][]int32 // from metadata; nil after a create
	// AuthorizedOperations is what the broker says this client may do on
	// the topic (empty when the broker has no authorizer or predates KIP-430).
	AuthorizedOperations []kadm.ACLOperation
}

// DescribeTopic returns the topic's identity. A missing topic wraps
// ErrTopicNotFound, and only once every broker agrees it is missing
// (confirmMissing); any partition the broker reports with an error fails the
// call, because an identity we cannot fully see is an identity we cannot trust.
func (c *Client) DescribeTopic(ctx context.Context, name string) (Topic, error) {
	t, err := c.topics.do(ctx, name)
	if errors.Is(err, ErrTopicNotFound) {
		return c.confirmMissing(ctx, name, err)
	}
	return t, err
}

// describeTopics sends one Metadata request for names (DescribeTopic's
// batchRequest).
func (c *Client) describeTopics(ctx context.Context, names []string) (func(string) (Topic, error), error) {
	// WithAuthorizedOps also makes kadm bypass kgo's metadata cache: an
	// identity check answered from a cache could miss a topic recreated a
	// moment ago, which is exactly what the check exists to catch.
	md, err := c.admin.Metadata(kadm.WithAuthorizedOps(ctx), names...)
	if err != nil {
		return nil, err
	}
	return func(name string) (Topic, error) { return topicFromMetadata(md, name) }, nil
}

func topicFromMetadata(md kadm.Metadata, name string) (Topic, error) {
	td, ok := md.Topics[name]
	if !ok {
		return Topic{}, opErr(OpDescribeTopic, name, errors.New("the broker's metadata response did not include the topic"))
	}
	if td.Err != nil {
		if errors.Is(td.Err, kerr.UnknownTopicOrPartition) {
			return Topic{}, opErr(OpDescribeTopic, name, errors.Join(ErrTopicNotFound, td.Err))
		}
		return Topic{}, opErr(OpDescribeTopic, name, td.Err)
	}
	t := Topic{Name: name, ID: TopicID(td.ID), Leaders: make(map[int32]int32, len(td.Partitions)), AuthorizedOperations: slices.Clone(td.AuthorizedOperations),
		Replicas: make(map[int32][]int32, len(td.Partitions)), ISR: make(map[int32][]int32, len(td.Partitions))}
	perr := partitionErrors{op: OpDescribeTopic, topic: name}
	for p, pd := range td.Partitions {
		// LEADER_NOT_AVAILABLE only says the partition is between leaders;
		// it still exists, which is all identity needs.
		if pd.Err != nil && !errors.Is(pd.Err, kerr.LeaderNotAvailable) {
			perr.add(p, pd.Err)
			continue
		}
		t.Partitions = append(t.Partitions, p)
		t.Leaders[p] = pd.Leader
		t.Replicas[p], t.ISR[p] = pd.Replicas, pd.ISR
		if t.ReplicationFactor == 0 || len(pd.Replicas) < t.ReplicationFactor {
			t.ReplicationFactor = len(pd.Replicas)
		}
	}
	if err := perr.err(); err != nil {
		return Topic{}, err
	}
	slices.Sort(t.Partitions)
	return t, nil
}

// settle makes the first request about a topic this client created wait
// until every broker's metadata shows it (coalescer.do and request call it
// for every per-topic request, BeginControlTxn before registering): the
// request may go to any broker, and a
// broker that has not caught up answers UNKNOWN_TOPIC_OR_PARTITION for a
// topic that exists (seen on a three-node Apache Kafka 4.4 cluster, and on
// one node under Terraform's parallel creates). The wait ends at the
// per-operation timeout counted from the create: a topic still missing
// then was deleted behind this client's back, and is reported missing.
// Topics this client did not create cost nothing here.
func (c *Client) settle(ctx context.Context, name string) error {
	v, ok := c.unsettled.Load(name)
	if !ok {
		return nil
	}
	deadline := v.(time.Time).Add(c.cfg.Timeout)
	if !time.Now().Before(deadline) {
		// First read long after the create: it had all the time to
		// propagate, so this read is like any other (and a context already
		// past the deadline could not ask anything).
		c.unsettled.Delete(name)
		return nil
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	var last error
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 500*time.Millisecond) {
		if last = c.visibleEverywhere(ctx, name); last == nil {
			c.unsettled.Delete(name)
			return nil
		}
		select {
		case <-ctx.Done():
			if time.Now().Before(deadline) {
				return opErr(OpDescribeTopic, name, ctx.Err()) // the caller's deadline or cancel
			}
			c.unsettled.Delete(name)
			if errors.Is(last, kerr.UnknownTopicOrPartition) {
				// Gone by the time the creation had long propagated: the
				// read reports it missing, as for any other topic.
				return nil
			}
			return opErr(OpDescribeTopic, name, fmt.Errorf("created, but not visible in every broker's metadata within %v: %w", c.cfg.Timeout, last))
		case <-time.After(wait):
		}
	}
}

// visibleEverywhere asks each broker directly whether it knows the topic.
func (c *Client) visibleEverywhere(ctx context.Context, name string) error {
	answers, err := c.askEveryBroker(ctx, name)
	if err != nil {
		return err
	}
	for _, a := range answers {
		if a.detail.Err != nil {
			return fmt.Errorf("broker %d: %w", a.broker, a.detail.Err)
		}
	}
	return nil
}

// topicDetail reads one topic of a Metadata response the way kadm.Metadata
// does, so topicFromMetadata can judge a single broker's answer too.
func topicDetail(t kmsg.MetadataResponseTopic) kadm.TopicDetail {
	td := kadm.TopicDetail{ID: t.TopicID, IsInternal: t.IsInternal, Partitions: make(kadm.PartitionDetails, len(t.Partitions)),
		AuthorizedOperations: kadm.DecodeACLOperations(t.AuthorizedOperations), Err: kerr.ErrorForCode(t.ErrorCode)}
	if t.Topic != nil {
		td.Topic = *t.Topic
	}
	for _, p := range t.Partitions {
		td.Partitions[p.Partition] = kadm.PartitionDetail{Topic: td.Topic, Partition: p.Partition, Leader: p.Leader, LeaderEpoch: p.LeaderEpoch,
			Replicas: p.Replicas, ISR: p.ISR, OfflineReplicas: p.OfflineReplicas, Err: kerr.ErrorForCode(p.ErrorCode)}
	}
	return td
}
