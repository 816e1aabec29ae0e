package kafkaops

import (
	"context"
	"errors"
	"fmt"

	"github.com/twmb/franz-go/pkg/kadm"
)

// StartOffsets returns each partition's log start offset (the earliest
// offset still readable). Every partition of the topic must be answered.
func (c *Client) StartOffsets(ctx context.Context, topic string) (map[int32]int64, error) {
	return c.listOffsets(ctx, "list start offsets", topic, c.admin.ListStartOffsets)
}

// EndOffsets returns each partition's high watermark.
func (c *Client) EndOffsets(ctx context.Context, topic string) (map[int32]int64, error) {
	return c.listOffsets(ctx, "list end offsets", topic, c.admin.ListEndOffsets)
}

// committedEnd returns the last stable offset of one partition: the end of
// what a read_committed consumer can see.
func (c *Client) committedEnd(ctx context.Context, topic string, partition int32) (int64, error) {
	offs, err := c.listOffsets(ctx, "list committed end offset", topic, c.admin.ListCommittedOffsets)
	if err != nil {
		return 0, err
	}
	end, ok := offs[partition]
	if !ok {
		return 0, opErr("list committed end offset", topic, fmt.Errorf("partition %d was not answered", partition))
	}
	return end, nil
}

func (c *Client) listOffsets(ctx context.Context, op, topic string, list func(context.Context, ...string) (kadm.ListedOffsets, error)) (map[int32]int64, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	listed, err := list(ctx, topic)
	if err != nil {
		return nil, opErr(op, topic, err)
	}
	parts, ok := listed[topic]
	if !ok {
		return nil, opErr(op, topic, errors.New("the broker did not answer for the topic"))
	}
	out := make(map[int32]int64, len(parts))
	perr := partitionErrors{op: op, topic: topic}
	for p, lo := range parts {
		if lo.Err != nil {
			perr.add(p, lo.Err)
			continue
		}
		out[p] = lo.Offset
	}
	if err := perr.err(); err != nil {
		return nil, err
	}
	return out, nil
}
