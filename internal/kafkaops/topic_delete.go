package kafkaops

import (
	"context"
	"errors"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// DeleteTopic deletes topic name, which the caller found to have ID id.
// The broker is asked to delete the ID, not the name (DeleteTopics v6,
// Kafka 2.8): a topic recreated under the name since the caller checked it
// has another ID and is never deleted. An ID or name the broker no longer
// knows is the goal state, not an error: the topic that was checked is
// gone. A zero ID (a broker without topic IDs) deletes by name.
//
// With Config.Coalesce, deletes that arrive together go in one DeleteTopics
// request, as creates do (topic_create.go): the controller handles the
// topics of one request together, while single-topic requests wait for
// each other.
//
// A deletion the broker did not answer in time (REQUEST_TIMED_OUT, or no
// answer within the client's timeout) is settled by the goal state: Kafka
// 3.6 in ZooKeeper mode was seen to finish a deletion in 60 ms and hold its
// answer for the request's whole timeout. The topic gone (or another topic
// under the name) is success; still there, the timeout stands.
func (c *Client) DeleteTopic(ctx context.Context, name string, id TopicID) error {
	err := c.deleteTopic(ctx, name, id)
	if err == nil || ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, kerr.RequestTimedOut) {
		return err
	}
	t, dErr := c.DescribeTopic(ctx, name)
	if errors.Is(dErr, ErrTopicNotFound) || dErr == nil && t.ID != id {
		return nil
	}
	return err
}

func (c *Client) deleteTopic(ctx context.Context, name string, id TopicID) error {
	if _, twin := c.deleteIDs.LoadOrStore(name, id); twin {
		// Two deletes of one name at once: the coalescer would merge them
		// into one entry with the first caller's ID.
		ctx, done, err := c.request(ctx, OpDeleteTopic, name)
		if err != nil {
			return err
		}
		defer done()
		answer, err := c.sendDeleteTopics(ctx, map[string]TopicID{name: id})
		if err != nil {
			return opErr(OpDeleteTopic, name, err)
		}
		_, err = answer(name)
		return err
	}
	defer c.deleteIDs.Delete(name)
	_, err := c.deletes.do(ctx, name)
	return err
}

// deleteTopics sends one DeleteTopics request for names (the delete
// coalescer's batchRequest). A caller that gave up before its batch went
// has taken its entry back and is left out: nothing it no longer waits for
// is deleted.
func (c *Client) deleteTopics(ctx context.Context, names []string) (func(string) (struct{}, error), error) {
	ids := make(map[string]TopicID, len(names))
	for _, name := range names {
		if id, ok := c.deleteIDs.Load(name); ok {
			ids[name] = id.(TopicID)
		}
	}
	return c.sendDeleteTopics(ctx, ids)
}

func (c *Client) sendDeleteTopics(ctx context.Context, ids map[string]TopicID) (func(string) (struct{}, error), error) {
	answers := make(map[string]error, len(ids))
	if len(ids) > 0 {
		req := kmsg.NewPtrDeleteTopicsRequest()
		req.TimeoutMillis = int32(c.cfg.Timeout / time.Millisecond)
		byID := make(map[TopicID]string, len(ids))
		for name, id := range ids {
			t := kmsg.NewDeleteTopicsRequestTopic()
			if id.IsZero() {
				t.Topic = kmsg.StringPtr(name)
			} else {
				t.TopicID = id
				byID[id] = name
			}
			req.Topics = append(req.Topics, t)
		}
		resp, err := req.RequestWith(ctx, c.kgo)
		if err != nil {
			return nil, err
		}
		for _, t := range resp.Topics {
			name, ok := byID[TopicID(t.TopicID)]
			if !ok && t.Topic != nil {
				name = *t.Topic
			}
			err := kerr.ErrorForCode(t.ErrorCode)
			if errors.Is(err, kerr.UnknownTopicID) || errors.Is(err, kerr.UnknownTopicOrPartition) {
				err = nil // gone already: the goal state
			}
			if err != nil && t.ErrorMessage != nil {
				err = errWithMessage(err, *t.ErrorMessage)
			}
			answers[name] = err
		}
	}
	return func(name string) (struct{}, error) {
		err, ok := answers[name]
		switch {
		case !ok:
			// Nothing is known to be deleted: a broker older than
			// DeleteTopics v6 drops the IDs from the request.
			return struct{}{}, opErr(OpDeleteTopic, name, errors.New("the broker's DeleteTopics response did not include the topic"))
		case err != nil:
			return struct{}{}, opErr(OpDeleteTopic, name, err)
		}
		return struct{}{}, nil
	}, nil
}
