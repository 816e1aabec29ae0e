package kafkaops

import (
	"context"
	"fmt"

	"github.com/twmb/franz-go/pkg/kadm"
)

// DeleteRecords advances each listed partition's log start offset to the
// given offset (records below it become unreadable) in one request per
// leader, and returns the low watermarks the brokers report. Every listed
// partition must be answered without error.
func (c *Client) DeleteRecords(ctx context.Context, topic string, upTo map[int32]int64) (map[int32]int64, error) {
	ctx, done, err := c.request(ctx, OpDeleteRecords, topic)
	if err != nil {
		return nil, err
	}
	defer done()
	var req kadm.Offsets
	for p, o := range upTo {
		req.Add(kadm.Offset{Topic: topic, Partition: p, At: o, LeaderEpoch: -1})
	}
	// Deleting up to an offset again is harmless, so a moving leader's
	// answer is asked again (leadership_moving.go).
	resps, err := untilLeadersSettle(ctx, func() (kadm.DeleteRecordsResponses, error) { return c.admin.DeleteRecords(ctx, req) },
		func(resps kadm.DeleteRecordsResponses) (errs []error) {
			resps.Each(func(r kadm.DeleteRecordsResponse) { errs = append(errs, r.Err) })
			return errs
		})
	if err != nil {
		return nil, opErr(OpDeleteRecords, topic, err)
	}
	out := make(map[int32]int64, len(upTo))
	perr := partitionErrors{op: OpDeleteRecords, topic: topic}
	for p := range upTo {
		r, ok := resps.Lookup(topic, p)
		switch {
		case !ok:
			perr.add(p, fmt.Errorf("not answered by the broker"))
		case r.Err != nil:
			perr.add(p, r.Err)
		default:
			out[p] = r.LowWatermark
		}
	}
	if err := perr.err(); err != nil {
		return nil, err
	}
	return out, nil
}
