package kafkaops

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
)

// ErrTopicReplaced: a topic the caller checked by ID has another ID now, or
// is gone: it was deleted (and perhaps recreated under its name).
var ErrTopicReplaced = errors.New("topic deleted or recreated under its name")

// DeleteRecords advances each listed partition's log start offset to the
// given offset (records below it become unreadable) in one request per
// leader, and returns the low watermarks the brokers report. Every listed
// partition must be answered without error.
//
// Kafka's DeleteRecords names the topic, not its ID (versions 0 to 2 have
// no topic ID field), so a topic deleted and recreated under the name
// between a caller's identity check and the request loses records it was
// never meant to lose. The window cannot be closed from a client; it is
// kept as short as a client can make it: when id is not zero, a Metadata
// request for the topic goes right before each DeleteRecords request (the
// first and every repeat while a leader moves) and nothing else between
// them, and another right after the last. An ID that differs before the
// first request stops it: nothing is sent. An ID that differs after a
// request went, or cannot be read then, is reported as a
// *DeleteRecordsIdentityError with Sent set, naming what was asked, so the
// caller can say truthfully which partitions of which topic may have lost
// records.
func (c *Client) DeleteRecords(ctx context.Context, topic string, id TopicID, upTo map[int32]int64) (map[int32]int64, error) {
	ctx, done, err := c.request(ctx, OpDeleteRecords, topic)
	if err != nil {
		return nil, err
	}
	defer done()
	var req kadm.Offsets
	for p, o := range upTo {
		req.Add(kadm.Offset{Topic: topic, Partition: p, At: o, LeaderEpoch: -1})
	}
	sent := false
	// Deleting up to an offset again is harmless, so a moving leader's
	// answer is asked again (leadership_moving.go), each time right after
	// the topic's ID is seen unchanged.
	resps, err := untilLeadersSettle(ctx, func() (kadm.DeleteRecordsResponses, error) {
		if err := c.confirmTopicID(ctx, topic, id, sent, upTo, nil); err != nil {
			return nil, err
		}
		sent = true
		return c.admin.DeleteRecords(ctx, req)
	}, func(resps kadm.DeleteRecordsResponses) (errs []error) {
		resps.Each(func(r kadm.DeleteRecordsResponse) { errs = append(errs, r.Err) })
		return errs
	})
	var idErr *DeleteRecordsIdentityError
	if errors.As(err, &idErr) {
		return nil, err
	}
	out := make(map[int32]int64, len(upTo))
	perr := partitionErrors{op: OpDeleteRecords, topic: topic}
	for p := range upTo {
		r, ok := resps.Lookup(topic, p)
		switch {
		case err != nil:
		case !ok:
			perr.add(p, fmt.Errorf("not answered by the broker"))
		case r.Err != nil:
			perr.add(p, r.Err)
		default:
			out[p] = r.LowWatermark
		}
	}
	if sent {
		// Asked even when the operation's context has ended (Ctrl-C, the
		// timeout): what the delete may have reached is worth one more
		// request, bounded by the per-operation timeout.
		after, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.cfg.Timeout)
		defer cancel()
		if changed := c.confirmTopicID(after, topic, id, true, upTo, out); changed != nil {
			if errors.As(changed, &idErr) {
				idErr.DeleteErr = err
			}
			return nil, changed
		}
	}
	if err != nil {
		return nil, opErr(OpDeleteRecords, topic, err)
	}
	if err := perr.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// confirmTopicID asks for topic's metadata in one request, straight to the
// broker (no cache, no coalescing: its answer must be as fresh as a client
// can get, and it runs inside the DeleteRecords operation's in-flight slot),
// and returns a *DeleteRecordsIdentityError when the topic does not have ID
// id. sent says whether a DeleteRecords request already went; answered is
// what it answered so far. A zero id (a broker without topic IDs) checks
// nothing.
func (c *Client) confirmTopicID(ctx context.Context, topic string, id TopicID, sent bool, upTo, answered map[int32]int64) error {
	if id.IsZero() {
		return nil
	}
	identity := func(now TopicID, gone bool, err error) error {
		return &DeleteRecordsIdentityError{Topic: topic, Checked: id, Now: now, Gone: gone, Sent: sent,
			UpTo: upTo, Answered: answered, Err: err}
	}
	md, err := c.admin.Metadata(kadm.WithAuthorizedOps(ctx), topic)
	if err != nil {
		if !sent {
			return opErr(OpDescribeTopic, topic, err) // nothing was sent: an ordinary failure
		}
		return identity(TopicID{}, false, err)
	}
	td, ok := md.Topics[topic]
	switch {
	case !ok:
		err = errors.New("the broker's metadata response did not include the topic")
	case td.Err != nil && errors.Is(td.Err, kerr.UnknownTopicOrPartition):
		return identity(TopicID{}, true, td.Err)
	case td.Err != nil:
		err = td.Err
	case TopicID(td.ID) != id:
		return identity(TopicID(td.ID), false, nil)
	default:
		return nil
	}
	if !sent {
		return opErr(OpDescribeTopic, topic, err)
	}
	return identity(TopicID{}, false, err)
}

// DeleteRecordsIdentityError: DeleteRecords did not find topic with the ID
// its caller checked, right before a request (Sent false: nothing was sent)
// or right after one (Sent true: records may have been deleted from
// whatever topic held the name when the request arrived).
type DeleteRecordsIdentityError struct {
	Topic   string
	Checked TopicID // the ID the caller checked
	// Now is the topic's ID when it was read; zero when Gone or when the
	// read failed (Err says why).
	Now  TopicID
	Gone bool
	Sent bool
	// UpTo is what the DeleteRecords requests asked for, per partition.
	UpTo map[int32]int64
	// Answered holds the low watermarks of the partitions the broker
	// answered without error (nil when nothing was sent).
	Answered map[int32]int64
	// Err is why the ID could not be read (Gone: the broker's answer).
	Err error
	// DeleteErr is the DeleteRecords request's own failure, if it failed.
	DeleteErr error
}

func (e *DeleteRecordsIdentityError) Error() string {
	var b strings.Builder
	switch {
	case e.Gone:
		fmt.Fprintf(&b, "topic %q (ID %s) no longer exists", e.Topic, e.Checked)
	case e.Now.IsZero():
		fmt.Fprintf(&b, "whether topic %q still has ID %s could not be read: %v", e.Topic, e.Checked, e.Err)
	default:
		fmt.Fprintf(&b, "topic %q had ID %s and has ID %s now: it was deleted and recreated under its name", e.Topic, e.Checked, e.Now)
	}
	if !e.Sent {
		b.WriteString("; no DeleteRecords request was sent")
		return b.String()
	}
	fmt.Fprintf(&b, "; DeleteRecords, which names the topic and not its ID, was sent for %s", DescribeOffsets(e.UpTo, "up to"))
	if len(e.Answered) > 0 {
		fmt.Fprintf(&b, ", and the broker answered start offsets %s", DescribeOffsets(e.Answered, "at"))
	}
	if e.DeleteErr != nil {
		fmt.Fprintf(&b, " (the request failed: %v)", e.DeleteErr)
	}
	return b.String()
}

func (e *DeleteRecordsIdentityError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrTopicReplaced}
	}
	return []error{ErrTopicReplaced, e.Err}
}

// DescribeOffsets lists partition offsets in partition order: "partition 0
// up to 5, partition 1 up to 6" for how "up to".
func DescribeOffsets(offsets map[int32]int64, how string) string {
	ps := make([]int32, 0, len(offsets))
	for p := range offsets {
		ps = append(ps, p)
	}
	slices.Sort(ps)
	parts := make([]string, 0, len(ps))
	for _, p := range ps {
		parts = append(parts, fmt.Sprintf("partition %d %s %d", p, how, offsets[p]))
	}
	return strings.Join(parts, ", ")
}
