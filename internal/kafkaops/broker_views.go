package kafkaops

import (
	"context"
	"fmt"
	"slices"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Every broker's own view of a topic.
//
// Two rules ask each broker directly rather than trust one answer: a topic
// reported missing is missing only when every broker agrees
// (topic_missing.go), and a topic this client created is read only once
// every broker shows it (settle, topic.go). A fleet asks this for thousands
// of topics at once (the first plan of a rollout finds every control topic
// missing; its apply reads every new one), so the questions are coalesced
// like the other reads: one Metadata request per broker for a batch of
// topics, not one per topic per broker.

// brokerAnswer is one broker's own Metadata answer for a topic.
type brokerAnswer struct {
	broker int32
	detail kadm.TopicDetail
}

// askEveryBroker sends DescribeTopic's question about name to each broker
// the cluster lists and returns their answers by ascending broker ID. A
// broker that does not answer fails the call: its silence is no answer
// about the topic.
func (c *Client) askEveryBroker(ctx context.Context, name string) ([]brokerAnswer, error) {
	answers, err := c.brokerViews.do(ctx, name)
	if oe, ok := err.(*OpError); ok { //nolint:errorlint // only the coalescer's own wrapping, not one inside
		// The callers name the operation and the topic themselves.
		return nil, oe.Err
	}
	return answers, err
}

// askEveryBrokerAbout is askEveryBroker's batchRequest: one Metadata
// request per broker (per settleBatch topics) naming every topic of the
// batch.
func (c *Client) askEveryBrokerAbout(ctx context.Context, names []string) (func(string) ([]brokerAnswer, error), error) {
	brokers, err := c.admin.ListBrokers(ctx)
	if err != nil {
		return nil, err
	}
	ids := brokers.NodeIDs()
	slices.Sort(ids)
	byTopic := make(map[string][]brokerAnswer, len(names))
	err = c.askBrokers(ctx, ids, names, func(id int32, t kmsg.MetadataResponseTopic) {
		byTopic[*t.Topic] = append(byTopic[*t.Topic], brokerAnswer{broker: id, detail: topicDetail(t)})
	})
	if err != nil {
		return nil, err
	}
	return func(name string) ([]brokerAnswer, error) {
		answers := byTopic[name]
		if len(answers) != len(ids) {
			// Which broker left it out: the first whose answer is missing.
			for i, id := range ids {
				if i >= len(answers) || answers[i].broker != id {
					return nil, fmt.Errorf("broker %d did not answer for the topic", id)
				}
			}
		}
		return slices.Clone(answers), nil
	}, nil
}

// askBrokers sends each broker of ids, in turn, DescribeTopic's question
// about names (one Metadata request per settleBatch of them) and hands fn
// every named topic a broker answered for, with the broker.
func (c *Client) askBrokers(ctx context.Context, ids []int32, names []string, fn func(broker int32, t kmsg.MetadataResponseTopic)) error {
	for _, id := range ids {
		for chunk := range slices.Chunk(names, settleBatch) {
			req := kmsg.NewPtrMetadataRequest()
			for _, name := range chunk {
				rt := kmsg.NewMetadataRequestTopic()
				rt.Topic = kmsg.StringPtr(name)
				req.Topics = append(req.Topics, rt)
			}
			req.IncludeTopicAuthorizedOperations = true // the same question DescribeTopic asks
			resp, err := req.RequestWith(ctx, c.kgo.Broker(int(id)))
			if err != nil {
				return fmt.Errorf("broker %d: %w", id, err)
			}
			for _, t := range resp.Topics {
				if t.Topic != nil {
					fn(id, t)
				}
			}
		}
	}
	return nil
}
