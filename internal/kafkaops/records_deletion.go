package kafkaops

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
)

// recordsDeletion is one caller's DeleteRecords: the topic, the ID the
// caller checked (zero: check none), and the offsets to delete up to.
type recordsDeletion struct {
	topic string
	id    TopicID
	upTo  map[int32]int64
}

// deletionOutcome is one topic's answer: the low watermarks the brokers
// reported, or why not.
type deletionOutcome struct {
	low map[int32]int64
	err error
}

// deleteRecordsBatch is the coalescer's batchRequest: the deletions of the
// callers still waiting, sent together. Each topic's failure is its own
// answer, never the batch's.
func (c *Client) deleteRecordsBatch(ctx context.Context, topics []string) (func(string) (map[int32]int64, error), error) {
	dels := make([]recordsDeletion, 0, len(topics))
	for _, t := range topics {
		if d, ok := c.deletionSpecs.Load(t); ok {
			dels = append(dels, d.(recordsDeletion))
		}
	}
	outcomes := c.deleteRecordsOf(ctx, dels)
	return func(topic string) (map[int32]int64, error) {
		o, ok := outcomes[topic]
		if !ok {
			// Its caller gave up before the batch went: nothing was sent.
			return nil, opErr(OpDeleteRecords, topic, errors.New("the caller stopped waiting before the request went; nothing was sent"))
		}
		return o.low, o.err
	}, nil
}

// deleteRecordsOf runs the deletions dels (distinct topics) as one: for
// every round, one Metadata request naming the topics whose ID is checked,
// right before one DeleteRecords request per leader for every topic whose
// ID still matched; rounds repeat for the topics whose partitions' leaders
// are moving (deleting up to an offset again is harmless:
// leadership_moving.go), until ctx ends. Then one more Metadata request
// reads the IDs of every topic a request went for, even when ctx has
// ended: what a delete may have reached is worth one more request, bounded
// by the per-operation timeout.
func (c *Client) deleteRecordsOf(ctx context.Context, dels []recordsDeletion) map[string]deletionOutcome {
	out := make(map[string]deletionOutcome, len(dels))
	sent := map[string]bool{}
	// answered holds, per topic, the last answer that says why: a repeat
	// cut short by the deadline keeps the answer before it, since the
	// operator needs the leader's error (LEADER_NOT_AVAILABLE on partition
	// 2), not the context's.
	answered := map[string]deletionAnswer{}
	pending := dels
	for len(pending) > 0 {
		pending = c.checkDeletionIDs(ctx, pending, sent, out)
		if len(pending) == 0 {
			break
		}
		var req kadm.Offsets
		for _, d := range pending {
			sent[d.topic] = true
			for p, o := range d.upTo {
				req.Add(kadm.Offset{Topic: d.topic, Partition: p, At: o, LeaderEpoch: -1})
			}
		}
		resps, err := c.admin.DeleteRecords(ctx, req)
		var again []recordsDeletion
		for _, d := range pending {
			a := deletionAnswerOf(d, resps, err)
			if _, before := answered[d.topic]; before && err != nil && ctx.Err() != nil {
				continue // keep the answer that says why
			}
			answered[d.topic] = a
			if a.moving() && ctx.Err() == nil {
				again = append(again, d)
			}
		}
		if len(again) == 0 {
			break
		}
		select {
		case <-ctx.Done():
			again = nil
		case <-time.After(leaderRetryInterval):
		}
		pending = again
	}
	var afterDels []recordsDeletion
	for _, d := range dels {
		if _, failed := out[d.topic]; failed || !sent[d.topic] {
			continue
		}
		a := answered[d.topic]
		out[d.topic] = a.outcome(d)
		afterDels = append(afterDels, d)
	}
	if len(afterDels) > 0 {
		after, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.cfg.Timeout)
		defer cancel()
		// A changed ID after the request outweighs the request's own
		// answer: it says whose records were deleted.
		c.confirmDeletionIDs(after, afterDels, answered, out)
	}
	return out
}

// deletionAnswer is what one DeleteRecords round answered for a topic.
type deletionAnswer struct {
	low  map[int32]int64 // partitions answered without error
	err  error           // the request's error, when it concerns this topic
	perr partitionErrors
	errs []error // every partition's error, to tell a moving leader
}

func deletionAnswerOf(d recordsDeletion, resps kadm.DeleteRecordsResponses, err error) deletionAnswer {
	a := deletionAnswer{low: map[int32]int64{}, perr: partitionErrors{op: OpDeleteRecords, topic: d.topic}}
	for p := range d.upTo {
		r, ok := resps.Lookup(d.topic, p)
		switch {
		case !ok && err != nil:
			a.err = err
		case !ok:
			a.perr.add(p, fmt.Errorf("not answered by the broker"))
		case r.Err != nil:
			a.perr.add(p, r.Err)
			a.errs = append(a.errs, r.Err)
		default:
			a.low[p] = r.LowWatermark
		}
	}
	return a
}

// moving reports whether the answer says only that leaders are moving.
func (a deletionAnswer) moving() bool {
	if a.err != nil {
		return leadershipMoving(a.err)
	}
	return slices.ContainsFunc(a.errs, leadershipMoving)
}

// outcome is the caller's answer from the last round.
func (a deletionAnswer) outcome(d recordsDeletion) deletionOutcome {
	if a.err != nil {
		return deletionOutcome{err: opErr(OpDeleteRecords, d.topic, a.err)}
	}
	if err := a.perr.err(); err != nil {
		return deletionOutcome{err: err}
	}
	return deletionOutcome{low: a.low}
}

// failure is the error the answer holds, if any (for an identity error's
// DeleteErr).
func (a deletionAnswer) failure() error {
	if a.err != nil {
		return a.err
	}
	return a.perr.err()
}

// checkDeletionIDs reads, in one Metadata request straight to the broker
// (no cache, no coalescing: its answer must be as fresh as a client can
// get), the ID of every topic of dels whose caller checked one, and
// returns the deletions that may go: a topic with another ID, gone, or
// whose ID cannot be read gets its answer in out and is left out. sent
// says which topics a request already went for.
func (c *Client) checkDeletionIDs(ctx context.Context, dels []recordsDeletion, sent map[string]bool, out map[string]deletionOutcome) []recordsDeletion {
	ids, mdErr := c.deletionIDs(ctx, dels)
	var ok []recordsDeletion
	for _, d := range dels {
		if d.id.IsZero() {
			ok = append(ok, d)
			continue
		}
		err := identityOf(d, ids, mdErr, sent[d.topic], nil)
		if err == nil {
			ok = append(ok, d)
			continue
		}
		out[d.topic] = deletionOutcome{err: err}
	}
	return ok
}

// confirmDeletionIDs reads the IDs of the topics a request went for, after
// it, and turns a changed, gone or unreadable one into that topic's
// *DeleteRecordsIdentityError.
func (c *Client) confirmDeletionIDs(ctx context.Context, dels []recordsDeletion, answered map[string]deletionAnswer, out map[string]deletionOutcome) {
	ids, mdErr := c.deletionIDs(ctx, dels)
	for _, d := range dels {
		if d.id.IsZero() {
			continue
		}
		a := answered[d.topic]
		if err := identityOf(d, ids, mdErr, true, a.low); err != nil {
			if idErr, ok := errors.AsType[*DeleteRecordsIdentityError](err); ok {
				idErr.DeleteErr = a.failure()
			}
			out[d.topic] = deletionOutcome{err: err}
		}
	}
}

// deletionIDs asks for the metadata of every topic of dels whose caller
// checked an ID, in one request.
func (c *Client) deletionIDs(ctx context.Context, dels []recordsDeletion) (kadm.Metadata, error) {
	var topics []string
	for _, d := range dels {
		if !d.id.IsZero() {
			topics = append(topics, d.topic)
		}
	}
	if len(topics) == 0 {
		return kadm.Metadata{}, nil
	}
	return c.admin.Metadata(kadm.WithAuthorizedOps(ctx), topics...)
}

// identityOf is nil when d's topic has the ID its caller checked in md;
// otherwise, before any request went (sent false) a failure to read it is
// an ordinary failure and a changed or gone topic a
// *DeleteRecordsIdentityError saying nothing was sent, and after one (sent
// true) every doubt is a *DeleteRecordsIdentityError naming what was
// asked and answered.
func identityOf(d recordsDeletion, md kadm.Metadata, mdErr error, sent bool, answered map[int32]int64) error {
	identity := func(now TopicID, gone bool, err error) error {
		if !sent {
			answered = nil
		}
		return &DeleteRecordsIdentityError{Topic: d.topic, Checked: d.id, Now: now, Gone: gone, Sent: sent,
			UpTo: d.upTo, Answered: answered, Err: err}
	}
	err := mdErr
	if err == nil {
		td, ok := md.Topics[d.topic]
		switch {
		case !ok:
			err = errors.New("the broker's metadata response did not include the topic")
		case td.Err != nil && errors.Is(td.Err, kerr.UnknownTopicOrPartition):
			return identity(TopicID{}, true, td.Err)
		case td.Err != nil:
			err = td.Err
		case TopicID(td.ID) != d.id:
			return identity(TopicID(td.ID), false, nil)
		default:
			return nil
		}
	}
	if !sent {
		return opErr(OpDescribeTopic, d.topic, err) // nothing was sent: an ordinary failure
	}
	return identity(TopicID{}, false, err)
}
