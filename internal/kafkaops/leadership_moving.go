package kafkaops

import (
	"context"
	"errors"
	"net"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
)

// While a partition's leadership moves (its broker was killed, restarted or
// fenced), requests for the partition fail with errors the same request a
// moment later does not get. With ZooKeeper the controller notices a killed
// broker only when its session expires, seconds later, and until then the
// metadata still names it, so its partitions answer with a dial error or
// LEADER_NOT_AVAILABLE. Requests that are safe to repeat (listing offsets,
// DeleteRecords up to an offset) are repeated until the new leader answers,
// within the operation's timeout; when the timeout ends first, the last
// error stands. Nothing else is repeated: a create or an append sent twice
// could land twice.

// leaderRetryInterval spaces the repeats: a leader election takes from
// tens of milliseconds (KRaft) to a ZooKeeper session timeout (seconds).
const leaderRetryInterval = 250 * time.Millisecond

// leadershipErrors are the answers of a partition whose leader is moving.
var leadershipErrors = []error{
	kerr.LeaderNotAvailable, kerr.NotLeaderForPartition, kerr.FencedLeaderEpoch,
	kerr.UnknownLeaderEpoch, kerr.OffsetNotAvailable,
}

// leadershipMoving reports whether err says only that leaders are moving: a
// leadership error, or a request some of whose pieces could not reach the
// broker the metadata still names as leader.
func leadershipMoving(err error) bool {
	if err == nil {
		return false
	}
	if se, ok := errors.AsType[*kadm.ShardErrors](err); ok {
		for _, e := range se.Errs {
			if _, dial := errors.AsType[*net.OpError](e.Err); !dial && !leadershipMoving(e.Err) {
				return false
			}
		}
		return len(se.Errs) > 0
	}
	for _, le := range leadershipErrors {
		if errors.Is(err, le) {
			return true
		}
	}
	return false
}

// untilLeadersSettle sends req, and again while its answer says only that
// a leader is moving (the request's error, or else any of partitionErrs'
// errors of the answer), until ctx ends; then the last answer that says why
// stands: a repeat cut short by the deadline ends in the context's error,
// and the operator needs the leader's (LEADER_NOT_AVAILABLE on partition 2).
func untilLeadersSettle[R any](ctx context.Context, req func() (R, error), partitionErrs func(R) []error) (R, error) {
	var lastR R
	var lastErr error
	repeated := false
	for {
		r, err := req()
		if repeated && err != nil && ctx.Err() != nil {
			return lastR, lastErr
		}
		moving := leadershipMoving(err)
		if err == nil {
			moving = slices.ContainsFunc(partitionErrs(r), leadershipMoving)
		}
		if !moving || ctx.Err() != nil {
			return r, err
		}
		lastR, lastErr, repeated = r, err, true
		select {
		case <-ctx.Done():
			return r, err
		case <-time.After(leaderRetryInterval):
		}
	}
}

// LeadersNotReady reports whether err says only that a topic's partitions
// are not served yet: a leadership error, a leader answering that it does
// not host the partition (UNKNOWN_TOPIC_OR_PARTITION on a partition, or on
// the topic's configs, while the metadata shows the topic: the broker has
// not made its log yet), or the operation's own timeout (not ctx's: the
// caller's context is still live) ending while it waited for them. A topic
// created moments ago on brokers busy making many logs answers so for
// longer than one operation's timeout (a rollout of 1,000 operators x 64
// partitions on five nodes: minutes). A topic missing from the metadata
// (ErrTopicNotFound) is not "not ready". Only a read of a topic known to
// be new should be repeated on it: on an old topic it is an outage, and a
// write that timed out may have landed.
func LeadersNotReady(ctx context.Context, err error) bool {
	switch {
	case err == nil, errors.Is(err, ErrTopicNotFound):
		return false
	case leadershipMoving(err), errors.Is(err, kerr.UnknownTopicOrPartition):
		return true
	}
	return ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded)
}
