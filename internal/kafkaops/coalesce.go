package kafkaops

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
)

// Coalescing.
//
// Terraform refreshes resources side by side (ten at a time by default),
// and each refresh of a topic asks for its metadata, its configs and, for a
// boundary, its offsets. Sent one by one that is one request per resource
// per kind; with Config.Coalesce set, calls of one kind that arrive while a
// request of that kind is in flight wait for it to finish and are then sent
// together as one request (Metadata, DescribeConfigs, ListOffsets take any
// number of topics; so does CreateTopics, for the creates of a rollout),
// each caller being handed its own topic's answer. A
// call that finds nothing in flight is sent at once, so coalescing adds no
// latency to a lone read; under load a batch waits at most one request.
// Against a nearby broker that answers faster than Terraform hands out
// reads, few calls meet a request in flight, so Config.CoalesceWindow
// also holds a batch for company when its kind was sent less than the
// window ago: a burst of reads then goes in a few requests, and a read
// after a quiet spell still goes at once. A burst batch that has gathered
// as many callers as the largest recent batch goes without waiting out the
// window: at -parallelism=10 every caller that can come has come.
//
// Two rules keep the protocol's checks exact:
//
//   - Freshness. A batch's request is built and sent after every caller in
//     it asked, so each caller gets an answer at least as recent as its own
//     call, exactly as if it had sent the request itself. Nothing is cached
//     between batches: a call that arrives after a batch was sent joins the
//     next one. Identity checks (DescribeTopic) still bypass kgo's metadata
//     cache.
//   - Per-caller errors. A topic-level error (a missing topic, a failed
//     partition) is the answer for that topic only. A request-level error
//     that may belong to some topics only (an authorization failure, which
//     kadm raises for the whole request, or a sharded request that failed
//     on some brokers) sends each caller's topic again on its own, so no
//     caller fails for another caller's topic. A request-level error that
//     concerns every topic (the cluster unreachable, the timeout) is
//     reported to every caller.

// batchRequest sends one request for topics (distinct, at least one) and
// returns how to answer for each of them. A request-level failure is err;
// per-topic failures come from answer. answer is called once per caller,
// possibly concurrently, and must return values the caller may keep and
// modify (fresh maps and slices for each call).
type batchRequest[R any] func(ctx context.Context, topics []string) (answer func(topic string) (R, error), err error)

// coalescer merges concurrent single-topic reads of one kind. Disabled, it
// sends every call on its own, in the caller's goroutine.
type coalescer[R any] struct {
	client  *Client
	op      string // names the operation in errors, as OpError.Op
	request batchRequest[R]
	enabled bool
	// beforeSettle marks the reads that settle (topic.go) is made of:
	// they cannot wait for it, and they go without an in-flight slot, as
	// settle always did: a caller may hold a slot while a read of its
	// topic settles (request, acquire), and a slot taken inside could wait
	// on itself.
	beforeSettle bool
	window       time.Duration
	maxBatch     int
	// cost, when set, weighs a topic's part of a request and maxCost
	// bounds a batch's total: a batch the next topic would take past it
	// is sent first (coalescedCreates).
	cost    func(topic string) int
	maxCost int
	// expected counts callers announced (expectCallers) and not yet
	// joined: the open batch waits for them, up to expectStall after the
	// last one that came. expectGen tells a stale stall timer.
	expected  int
	expectGen int

	// now and afterFunc are time.Now and time.AfterFunc; tests replace
	// them to open and close a window at a chosen moment instead of
	// racing the scheduler.
	now       func() time.Time
	afterFunc func(time.Duration, func())

	mu       sync.Mutex
	open     *batch[R] // collecting callers; nil when none
	inFlight int       // requests of this kind sent and not yet answered
	lastSent time.Time
	peak     int // topics of the largest recent batch: a burst batch that size goes without waiting out the window
}

// batch is one coalesced request: the callers that joined it wait on done,
// then read answer or err (written once, before done is closed).
type batch[R any] struct {
	topics    []string
	joined    map[string]bool
	cost      int  // the topics' total cost, with coalescer.cost
	callers   int  // callers waiting on it, duplicates included
	ready     bool // it may be sent: no window, the window passed, or as large as recent batches
	waitedOut bool // it waited the whole window
	done      chan struct{}

	answer func(string) (R, error)
	err    error
}

func newCoalescer[R any](c *Client, op string, request batchRequest[R]) *coalescer[R] {
	return &coalescer[R]{client: c, op: op, request: request, enabled: c.cfg.Coalesce, window: c.cfg.CoalesceWindow, maxBatch: c.cfg.CoalesceMaxTopics,
		now: time.Now, afterFunc: func(d time.Duration, f func()) { time.AfterFunc(d, f) }}
}

// do returns topic's answer, from a coalesced request when enabled.
func (co *coalescer[R]) do(ctx context.Context, topic string) (R, error) {
	if !co.beforeSettle {
		if err := co.client.settle(ctx, topic); err != nil {
			var zero R
			return zero, err
		}
	}
	if !co.enabled {
		return co.alone(ctx, topic)
	}
	b := co.join(topic)
	select {
	case <-b.done:
	case <-ctx.Done():
		var zero R
		return zero, opErr(co.op, topic, ctx.Err())
	}
	if b.err != nil {
		if len(b.topics) > 1 && mayConcernSomeTopics(b.err) {
			return co.alone(ctx, topic)
		}
		var zero R
		return zero, opErr(co.op, topic, b.err)
	}
	return b.answer(topic)
}

// alone sends a request for topic only, with the caller's context.
func (co *coalescer[R]) alone(ctx context.Context, topic string) (R, error) {
	answer, err := co.send(ctx, []string{topic})
	if err != nil {
		var zero R
		return zero, opErr(co.op, topic, err)
	}
	return answer(topic)
}

// send runs one request within the per-operation timeout and an in-flight
// slot (waiting for the slot counts against the timeout).
func (co *coalescer[R]) send(ctx context.Context, topics []string) (func(string) (R, error), error) {
	ctx, cancel := context.WithTimeout(ctx, co.client.cfg.Timeout)
	defer cancel()
	if !co.beforeSettle {
		release, err := co.client.acquire(ctx)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	return co.request(ctx, topics)
}

// join adds topic to the open batch, opening one when there is none, and
// sends the batch if it may go now: it is ready and nothing of its kind is
// in flight, or it is full (maxBatch topics; the next caller opens a new
// one).
func (co *coalescer[R]) join(topic string) *batch[R] {
	co.mu.Lock()
	defer co.mu.Unlock()
	b := co.open
	cost := 0
	if co.cost != nil {
		cost = co.cost(topic)
		if b != nil && !b.joined[topic] && len(b.topics) > 0 && b.cost+cost > co.maxCost {
			co.sendLocked(b) // full by cost: this topic opens the next one
			b = nil
		}
	}
	if b == nil {
		// A read that follows a request of its kind by less than the window
		// is part of a burst (a refresh of many resources): its batch waits
		// the window for company. A read after a quiet spell goes at once.
		burst := co.window > 0 && co.now().Sub(co.lastSent) < co.window
		b = &batch[R]{joined: map[string]bool{}, done: make(chan struct{}), ready: !burst && co.expected == 0}
		if burst {
			co.afterFunc(co.window, func() { co.windowClosed(b) })
		}
		co.open = b
	}
	b.callers++
	if !b.joined[topic] {
		// Callers asking for the same topic share one entry; each still
		// gets its own copy from answer.
		b.joined[topic] = true
		b.topics = append(b.topics, topic)
		b.cost += cost
	}
	if co.expected > 0 {
		// An announced caller: the batch waits for the rest of them.
		co.expected--
		co.expectGen++
		if co.expected == 0 {
			b.ready = true
		} else {
			gen := co.expectGen
			co.afterFunc(expectStall, func() { co.expectStalled(b, gen) })
		}
	} else if !b.ready && co.peak > 1 && len(b.topics) >= co.peak {
		// As many callers as the last bursts brought (Terraform's
		// parallelism, in effect): waiting longer would only add latency.
		b.ready = true
	}
	if len(b.topics) >= co.maxBatch || (b.ready && co.inFlight == 0) {
		co.sendLocked(b)
	}
	return b
}

// expectStall is how long a batch waits for the next announced caller:
// one that fails before its request (an invalid setting) never comes.
const expectStall = 200 * time.Millisecond

// expectCallers announces n callers about to arrive together (a fleet's
// creates): batches wait for them rather than go with the first few, so
// they travel in as few requests as the bounds allow. release ends the
// wait for any that did not come.
func (co *coalescer[R]) expectCallers(n int) (release func()) {
	co.mu.Lock()
	co.expected += n
	co.mu.Unlock()
	return func() {
		co.mu.Lock()
		defer co.mu.Unlock()
		co.expected = 0
		co.expectGen++
		if b := co.open; b != nil {
			b.ready = true
			if co.inFlight == 0 {
				co.sendLocked(b)
			}
		}
	}
}

// expectStalled sends b when no announced caller joined it since gen.
func (co *coalescer[R]) expectStalled(b *batch[R], gen int) {
	co.mu.Lock()
	defer co.mu.Unlock()
	if gen != co.expectGen || co.open != b {
		return
	}
	co.expected = 0
	b.ready = true
	if co.inFlight == 0 {
		co.sendLocked(b)
	}
}

func (co *coalescer[R]) windowClosed(b *batch[R]) {
	co.mu.Lock()
	defer co.mu.Unlock()
	b.ready = true
	b.waitedOut = true
	if co.open == b && co.inFlight == 0 {
		co.sendLocked(b)
	}
}

// sendLocked sends the open batch b (co.mu held).
func (co *coalescer[R]) sendLocked(b *batch[R]) {
	co.open = nil
	co.inFlight++
	co.lastSent = co.now()
	if b.waitedOut {
		co.peak = len(b.topics) // fewer callers than before: expect that many now
	} else {
		co.peak = max(co.peak, len(b.topics))
	}
	go co.flush(b)
}

// flush sends b's request, then the batch that gathered meanwhile, if it
// is ready. No caller's context governs a batch, since callers come and go
// independently: it runs under the per-operation timeout, and a caller
// that stops waiting simply ignores the answer.
func (co *coalescer[R]) flush(b *batch[R]) {
	b.answer, b.err = co.send(context.Background(), b.topics)
	close(b.done)
	co.mu.Lock()
	defer co.mu.Unlock()
	co.inFlight--
	if next := co.open; next != nil && next.ready && co.inFlight == 0 {
		co.sendLocked(next)
	}
}

// mayConcernSomeTopics reports whether a request-level error might belong
// to some of a batch's topics only, so that each topic must be asked again
// on its own to tell whose it is.
func mayConcernSomeTopics(err error) bool {
	if _, ok := errors.AsType[*kadm.AuthError](err); ok {
		return true
	}
	if se, ok := errors.AsType[*kadm.ShardErrors](err); ok {
		return !se.AllFailed
	}
	return false
}

// acquire takes one of Config.MaxInFlight slots for a Kafka operation and
// returns its release. Only leaf operations take a slot (never one that
// holds a slot while calling another), so slots cannot deadlock.
func (c *Client) acquire(ctx context.Context) (release func(), err error) {
	select {
	case c.slots <- struct{}{}:
		return func() { <-c.slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// request bounds one leaf request named op on topic: the per-request
// timeout, and an in-flight slot (waiting for it counts against the
// timeout). done releases both; on error there is nothing to release.
// Like every per-topic read (coalescer.do), it first lets a topic this
// client just created settle.
func (c *Client) request(ctx context.Context, op, topic string) (_ context.Context, done func(), err error) {
	if err := c.settle(ctx, topic); err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	release, err := c.acquire(ctx)
	if err != nil {
		cancel()
		return nil, nil, opErr(op, topic, err)
	}
	return ctx, func() { release(); cancel() }, nil
}
