package kafkaops

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
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
//
// With Config.Coalesce, deletions that arrive together (a fleet's
// boundaries applied side by side) go as one: one Metadata request naming
// every topic before, one DeleteRecords request per leader for all of
// them, one Metadata request after (records_deletion.go). Each caller's
// checks and answer stay its own: a topic whose ID changed is left out of
// the request and told so, the others go on.
func (c *Client) DeleteRecords(ctx context.Context, topic string, id TopicID, upTo map[int32]int64) (map[int32]int64, error) {
	if _, twin := c.deletionSpecs.LoadOrStore(topic, recordsDeletion{topic: topic, id: id, upTo: upTo}); twin {
		// Another deletion of the same topic is waiting: a batch holds
		// one entry per topic, so this one goes alone, with its own
		// offsets. (With coalescing off the coalescer sends every call
		// alone itself.)
		ctx, done, err := c.request(ctx, OpDeleteRecords, topic)
		if err != nil {
			return nil, err
		}
		defer done()
		o := c.deleteRecordsOf(ctx, []recordsDeletion{{topic: topic, id: id, upTo: upTo}})[topic]
		return o.low, o.err
	}
	// Taken back when this caller stops waiting: a batch that has not
	// gone yet then leaves the topic out.
	defer c.deletionSpecs.Delete(topic)
	return c.recordsDeletions.do(ctx, topic)
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
