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
	return c.startOffsets.do(ctx, topic)
}

// EndOffsets returns each partition's high watermark.
func (c *Client) EndOffsets(ctx context.Context, topic string) (map[int32]int64, error) {
	return c.endOffsets.do(ctx, topic)
}

// committedEnd returns the last stable offset of one partition: the end of
// what a read_committed consumer can see.
func (c *Client) committedEnd(ctx context.Context, topic string, partition int32) (int64, error) {
	offs, err := c.committedEnds.do(ctx, topic)
	if err != nil {
		return 0, err
	}
	end, ok := offs[partition]
	if !ok {
		return 0, opErr(OpListCommittedEnd, topic, fmt.Errorf("partition %d was not answered", partition))
	}
	return end, nil
}

// newOffsetsCoalescer lists offsets with list, one of kadm's List*Offsets
// (one Metadata request, then one ListOffsets request per partition leader,
// for every topic of a batch together), again while a leader is moving
// (leadership_moving.go).
func newOffsetsCoalescer(c *Client, op string, list func(context.Context, ...string) (kadm.ListedOffsets, error)) *coalescer[map[int32]int64] {
	return newCoalescer(c, op, func(ctx context.Context, topics []string) (func(string) (map[int32]int64, error), error) {
		listed, err := untilLeadersSettle(ctx, func() (kadm.ListedOffsets, error) { return list(ctx, topics...) },
			func(listed kadm.ListedOffsets) (errs []error) {
				listed.Each(func(lo kadm.ListedOffset) { errs = append(errs, lo.Err) })
				return errs
			})
		if err != nil {
			return nil, err
		}
		return func(topic string) (map[int32]int64, error) {
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
		}, nil
	})
}
