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
	Name              string
	ID                TopicID
	Partitions        []int32 // ascending
	ReplicationFactor int     // replicas of partition 0
	Leaders           map[int32]int32
	// AuthorizedOperations is what the broker says this client may do on
	// the topic (empty when the broker has no authorizer or predates KIP-430).
	AuthorizedOperations []kadm.ACLOperation
}

// DescribeTopic returns the topic's identity. A missing topic wraps
// ErrTopicNotFound; any partition the broker reports with an error fails the
// call, because an identity we cannot fully see is an identity we cannot trust.
func (c *Client) DescribeTopic(ctx context.Context, name string) (Topic, error) {
	return c.topics.do(ctx, name)
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
	t := Topic{Name: name, ID: TopicID(td.ID), Leaders: make(map[int32]int32, len(td.Partitions)), AuthorizedOperations: slices.Clone(td.AuthorizedOperations)}
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
		if p == 0 {
			t.ReplicationFactor = len(pd.Replicas)
		}
	}
	if err := perr.err(); err != nil {
		return Topic{}, err
	}
	slices.Sort(t.Partitions)
	return t, nil
}

// CreateTopic creates a topic with the given settings and returns its
// identity as the broker reports it, once the topic is visible in the
// cluster's metadata. A broker answers CreateTopics when the controller has
// recorded the topic, but it serves Metadata from a cache that catches up a
// moment later; a DescribeTopic right after an unconfirmed create can report
// the new topic missing (Apache Kafka 4 does, under Terraform's parallel
// creates).
func (c *Client) CreateTopic(ctx context.Context, name string, partitions int32, replicationFactor int16, configs map[string]string) (TopicID, error) {
	id, err := c.createTopic(ctx, name, partitions, replicationFactor, configs)
	if err != nil {
		return id, err
	}
	return id, c.awaitTopic(ctx, name)
}

// awaitTopic waits, within the per-operation timeout, until every broker's
// metadata shows the topic: the next request may go to any of them, and a
// broker that has not caught up answers UNKNOWN_TOPIC_OR_PARTITION for a
// topic that exists (seen on a three-node Apache Kafka 4.4 cluster). It
// holds no in-flight slot while it waits.
func (c *Client) awaitTopic(ctx context.Context, name string) error {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	var last error
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 500*time.Millisecond) {
		if last = c.visibleEverywhere(ctx, name); last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return opErr(OpCreateTopic, name, fmt.Errorf("created, but not visible in every broker's metadata within %v: %w", c.cfg.Timeout, last))
		case <-time.After(wait):
		}
	}
}

// visibleEverywhere asks each broker directly whether it knows the topic.
func (c *Client) visibleEverywhere(ctx context.Context, name string) error {
	brokers, err := c.admin.ListBrokers(ctx)
	if err != nil {
		return err
	}
	for _, b := range brokers {
		req := kmsg.NewPtrMetadataRequest()
		rt := kmsg.NewMetadataRequestTopic()
		rt.Topic = kmsg.StringPtr(name)
		req.Topics = append(req.Topics, rt)
		req.IncludeTopicAuthorizedOperations = true // the same question DescribeTopic asks
		resp, err := req.RequestWith(ctx, c.kgo.Broker(int(b.NodeID)))
		if err != nil {
			return fmt.Errorf("broker %d: %w", b.NodeID, err)
		}
		if len(resp.Topics) != 1 {
			return fmt.Errorf("broker %d did not answer for the topic", b.NodeID)
		}
		if err := kerr.ErrorForCode(resp.Topics[0].ErrorCode); err != nil {
			return fmt.Errorf("broker %d: %w", b.NodeID, err)
		}
	}
	return nil
}

func (c *Client) createTopic(ctx context.Context, name string, partitions int32, replicationFactor int16, configs map[string]string) (TopicID, error) {
	ctx, done, err := c.request(ctx, OpCreateTopic, name)
	if err != nil {
		return TopicID{}, err
	}
	defer done()
	cfg := make(map[string]*string, len(configs))
	for k, v := range configs {
		cfg[k] = &v
	}
	resp, err := c.admin.CreateTopic(ctx, partitions, replicationFactor, cfg, name)
	if err != nil {
		return TopicID{}, opErr(OpCreateTopic, name, err)
	}
	if resp.Err != nil {
		if resp.ErrMessage != "" {
			return TopicID{}, opErr(OpCreateTopic, name, errors.Join(resp.Err, errors.New(resp.ErrMessage)))
		}
		return TopicID{}, opErr(OpCreateTopic, name, resp.Err)
	}
	return TopicID(resp.ID), nil
}

// DeleteTopic deletes a topic. Deleting a topic that is already gone is not
// an error: the goal state is reached.
func (c *Client) DeleteTopic(ctx context.Context, name string) error {
	ctx, done, err := c.request(ctx, OpDeleteTopic, name)
	if err != nil {
		return err
	}
	defer done()
	resp, err := c.admin.DeleteTopic(ctx, name)
	if err != nil {
		return opErr(OpDeleteTopic, name, err)
	}
	if resp.Err != nil && !errors.Is(resp.Err, kerr.UnknownTopicOrPartition) {
		return opErr(OpDeleteTopic, name, resp.Err)
	}
	return nil
}
