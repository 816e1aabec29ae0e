package kafkaops

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Listing is a cluster's topics as one Metadata request for all of them
// answers.
type Listing struct {
	// Topics are the topics described in full, ascending by name. Kafka's
	// internal topics are left out.
	Topics []Topic
	// Failed holds, by name, the topics the broker listed but could not
	// describe in full (a partition with an error), with why.
	Failed map[string]error
}

// ListTopics describes every topic of the cluster in one Metadata request,
// never from kgo's cache. Kafka answers with the topics this principal may
// DESCRIBE and silently leaves the others out, so an empty listing may be
// a missing permission: CanDescribe tells which.
func (c *Client) ListTopics(ctx context.Context) (Listing, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	release, err := c.acquire(ctx)
	if err != nil {
		return Listing{}, fmt.Errorf("listing the cluster's topics: %w", err)
	}
	defer release()
	md, err := c.admin.Metadata(kadm.WithAuthorizedOps(ctx))
	if err != nil {
		return Listing{}, fmt.Errorf("listing the cluster's topics: %w", err)
	}
	out := Listing{Failed: map[string]error{}}
	for _, name := range slices.Sorted(maps.Keys(md.Topics)) {
		if md.Topics[name].IsInternal || slices.Contains(internalTopics, name) {
			continue
		}
		t, err := topicFromMetadata(md, name)
		if err != nil {
			out.Failed[name] = err
			continue
		}
		out.Topics = append(out.Topics, t)
	}
	return out, nil
}

// CanDescribe asks the broker about one topic name that need not exist, to
// learn whether this principal may DESCRIBE it: Kafka answers
// TOPIC_AUTHORIZATION_FAILED for a name the principal may not describe,
// whether or not the topic exists, and UNKNOWN_TOPIC_OR_PARTITION for an
// allowed name no topic has. The request never creates the topic.
func (c *Client) CanDescribe(ctx context.Context, name string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	release, err := c.acquire(ctx)
	if err != nil {
		return false, opErr(OpDescribeTopic, name, err)
	}
	defer release()
	req := kmsg.NewPtrMetadataRequest()
	rt := kmsg.NewMetadataRequestTopic()
	rt.Topic = kmsg.StringPtr(name)
	req.Topics = append(req.Topics, rt)
	req.AllowAutoTopicCreation = false
	resp, err := req.RequestWith(ctx, c.kgo)
	if err != nil {
		return false, opErr(OpDescribeTopic, name, err)
	}
	if len(resp.Topics) != 1 {
		return false, opErr(OpDescribeTopic, name, errors.New("the broker did not answer for the topic"))
	}
	switch err := kerr.ErrorForCode(resp.Topics[0].ErrorCode); {
	case errors.Is(err, kerr.TopicAuthorizationFailed):
		return false, nil
	case err == nil, errors.Is(err, kerr.UnknownTopicOrPartition):
		return true, nil
	default:
		return false, opErr(OpDescribeTopic, name, err)
	}
}

// TopicsConfigs is TopicConfigs for many topics at once: one DescribeConfigs
// request per CoalesceMaxTopics topics. A topic the broker could not answer
// for is in failed, with why; the call fails only when a request does.
func (c *Client) TopicsConfigs(ctx context.Context, names []string) (configs map[string]map[string]ConfigValue, failed map[string]error, err error) {
	configs, failed = make(map[string]map[string]ConfigValue, len(names)), map[string]error{}
	for chunk := range slices.Chunk(names, c.cfg.CoalesceMaxTopics) {
		if err := c.topicsConfigsOnce(ctx, chunk, configs, failed); err != nil {
			return nil, nil, err
		}
	}
	return configs, failed, nil
}

func (c *Client) topicsConfigsOnce(ctx context.Context, names []string, configs map[string]map[string]ConfigValue, failed map[string]error) error {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	release, err := c.acquire(ctx)
	if err != nil {
		return opErr(OpDescribeConfigs, names[0], err)
	}
	defer release()
	answer, err := c.describeTopicConfigs(ctx, names)
	if err != nil && len(names) == 1 && mayConcernSomeTopics(err) {
		failed[names[0]] = opErr(OpDescribeConfigs, names[0], err)
		return nil
	}
	if err != nil && len(names) > 1 && mayConcernSomeTopics(err) {
		// kadm fails the whole request when one topic is refused: ask
		// topic by topic, so the refusal is that topic's alone.
		for _, name := range names {
			answer, err := c.describeTopicConfigs(ctx, []string{name})
			if err != nil {
				failed[name] = opErr(OpDescribeConfigs, name, err)
				continue
			}
			if cfg, err := answer(name); err != nil {
				failed[name] = err
			} else {
				configs[name] = cfg
			}
		}
		return nil
	}
	if err != nil {
		return opErr(OpDescribeConfigs, names[0], err)
	}
	for _, name := range names {
		cfg, err := answer(name)
		if err != nil {
			failed[name] = err
			continue
		}
		configs[name] = cfg
	}
	return nil
}
