package kafkaops

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
)

// fakeBroker stands in for one request kind: it records every batch it is
// sent and answers each topic with its name, except the topics in fail.
type fakeBroker struct {
	mu      sync.Mutex
	batches [][]string
	sentAt  []time.Time
	fail    map[string]error // per-topic answer errors
	reqErr  func(topics []string) error

	inFlight, maxInFlight atomic.Int32
	// holdFirst, when set, keeps the first request in flight until it is
	// closed; hold, every request.
	holdFirst, hold chan struct{}
}

func (f *fakeBroker) request(_ context.Context, topics []string) (func(string) (string, error), error) {
	n := f.inFlight.Add(1)
	defer f.inFlight.Add(-1)
	for {
		m := f.maxInFlight.Load()
		if n <= m || f.maxInFlight.CompareAndSwap(m, n) {
			break
		}
	}
	f.mu.Lock()
	f.batches = append(f.batches, slices.Clone(topics))
	f.sentAt = append(f.sentAt, time.Now())
	first := len(f.batches) == 1
	f.mu.Unlock()
	if first && f.holdFirst != nil {
		<-f.holdFirst
	}
	if f.hold != nil {
		<-f.hold
	}
	if f.reqErr != nil {
		if err := f.reqErr(topics); err != nil {
			return nil, err
		}
	}
	return func(topic string) (string, error) {
		if err := f.fail[topic]; err != nil {
			return "", opErr("fake", topic, err)
		}
		return "answer:" + topic, nil
	}, nil
}

// sent is how many requests f was sent.
func (f *fakeBroker) sent() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.batches)
}

// manualWindow stops co's clock: every read after a request is within the
// window, and a window closes only when the test calls closeWindows. What
// the test sees then does not depend on how long the scheduler takes.
type manualWindow struct {
	mu      sync.Mutex
	pending []func()
}

func stopClock[R any](co *coalescer[R]) *manualWindow {
	m := &manualWindow{}
	now := time.Unix(1_000_000_000, 0)
	co.now = func() time.Time { return now }
	co.afterFunc = func(_ time.Duration, f func()) {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.pending = append(m.pending, f)
	}
	return m
}

// closeWindows closes every window opened so far.
func (m *manualWindow) closeWindows() {
	m.mu.Lock()
	pending := m.pending
	m.pending = nil
	m.mu.Unlock()
	for _, f := range pending {
		f()
	}
}

// goAll calls co.do for every topic, each in its own goroutine, and returns
// a function that waits for them and returns answers and errors by index.
func goAll(co *coalescer[string], topics []string) (wait func() ([]string, []error)) {
	answers, errs := make([]string, len(topics)), make([]error, len(topics))
	var wg sync.WaitGroup
	for i, topic := range topics {
		wg.Go(func() { answers[i], errs[i] = co.do(context.Background(), topic) })
	}
	return func() ([]string, []error) { wg.Wait(); return answers, errs }
}

func testClient(t *testing.T, cfg Config) *Client {
	t.Helper()
	cfg.Brokers = []string{"127.0.0.1:1"} // never dialed: the fake answers
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// callAll calls co.do for every topic at once and returns answers and
// errors by index, with the time each call started.
func callAll(co *coalescer[string], topics []string) ([]string, []error, []time.Time) {
	answers, errs, started := make([]string, len(topics)), make([]error, len(topics)), make([]time.Time, len(topics))
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, topic := range topics {
		wg.Go(func() {
			<-start
			started[i] = time.Now()
			answers[i], errs[i] = co.do(context.Background(), topic)
		})
	}
	close(start)
	wg.Wait()
	return answers, errs, started
}

func topicNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("t%03d", i)
	}
	return out
}

func TestCoalescerMergesConcurrentCallsAndAnswersEachCaller(t *testing.T) {
	gate := make(chan struct{})
	f := &fakeBroker{fail: map[string]error{"t007": kerr.UnknownTopicOrPartition}, holdFirst: gate}
	co := newCoalescer(testClient(t, Config{Coalesce: true, CoalesceWindow: 50 * time.Millisecond}), "fake", f.request)
	window := stopClock(co)
	topics := append(topicNames(100), "t042") // one topic asked twice
	wait := goAll(co, topics)
	// The first caller's request is held until every other caller waits
	// for the next one; then the window closes.
	Eventually(t, "every caller to wait", func() bool { return f.sent() == 1 && waiting(co) == len(topics)-1 })
	last := time.Now() // every call began before this
	close(gate)
	window.closeWindows() // the rest goes once the first request ends
	answers, errs := wait()

	for i, topic := range topics {
		switch {
		case topic == "t007":
			if !errors.Is(errs[i], kerr.UnknownTopicOrPartition) {
				t.Errorf("%s: got %v, want its own UNKNOWN_TOPIC_OR_PARTITION", topic, errs[i])
			}
		case errs[i] != nil || answers[i] != "answer:"+topic:
			t.Errorf("%s: got %q, %v; another caller's error must not leak", topic, answers[i], errs[i])
		}
	}
	if len(f.batches) != 2 || len(f.batches[0]) != 1 {
		t.Fatalf("requests of %d, %d... topics for %d concurrent callers, want the first alone and the rest in one", len(f.batches[0]), len(f.batches), len(topics))
	}
	// Callers asking for the same topic in one batch share its entry. The
	// first caller goes alone, before the others gather: t042 is sent twice
	// only when that first caller was one of its two.
	want := 99
	if slices.Equal(f.batches[0], []string{"t042"}) {
		want = 100
	}
	if got := f.batches[1]; len(got) != want || len(slices.Compact(slices.Sorted(slices.Values(got)))) != len(got) {
		t.Errorf("the second request named %d topics (%d distinct), want the %d others once each", len(got), len(slices.Compact(slices.Sorted(slices.Values(got)))), want)
	}
	// Freshness: the request left after every call it answers began.
	if f.sentAt[1].Before(last) {
		t.Errorf("request sent at %v, before the last caller asked (by %v)", f.sentAt[1], last)
	}
}

func TestCoalescerRespectsMaxBatch(t *testing.T) {
	f := &fakeBroker{}
	co := newCoalescer(testClient(t, Config{Coalesce: true, CoalesceWindow: 50 * time.Millisecond, CoalesceMaxTopics: 10}), "fake", f.request)
	_, errs, _ := callAll(co, topicNames(35))
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if len(f.batches) < 4 {
		t.Errorf("%d requests for 35 topics at 10 per request", len(f.batches))
	}
	for _, b := range f.batches {
		if len(b) > 10 {
			t.Errorf("a request carried %d topics, above the bound of 10", len(b))
		}
	}
}

func TestCoalescerDisabledSendsEachCallAlone(t *testing.T) {
	f := &fakeBroker{}
	co := newCoalescer(testClient(t, Config{}), "fake", f.request)
	_, errs, _ := callAll(co, topicNames(20))
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if len(f.batches) != 20 {
		t.Errorf("%d requests, want 20", len(f.batches))
	}
}

// Without a window, a call that finds nothing of its kind in flight is
// sent at once, alone; the calls that arrive while it is in flight wait
// for it and then go together in one request, sent after all of them
// asked.
func TestCoalescerBatchesWhileInFlight(t *testing.T) {
	gate := make(chan struct{})
	var mu sync.Mutex
	var batches [][]string
	var sentAt []time.Time
	request := func(_ context.Context, topics []string) (func(string) (string, error), error) {
		mu.Lock()
		batches = append(batches, slices.Clone(topics))
		sentAt = append(sentAt, time.Now())
		first := len(batches) == 1
		mu.Unlock()
		if first {
			<-gate // the first request stays in flight until the others queued
		}
		return func(topic string) (string, error) { return "answer:" + topic, nil }, nil
	}
	co := newCoalescer(testClient(t, Config{Coalesce: true}), "fake", request)
	sent := func() int { mu.Lock(); defer mu.Unlock(); return len(batches) }

	var wg sync.WaitGroup
	wg.Go(func() {
		if got, err := co.do(context.Background(), "lone"); err != nil || got != "answer:lone" {
			t.Errorf("lone: %q, %v", got, err)
		}
	})
	for sent() == 0 {
		time.Sleep(time.Millisecond) // no other caller exists: it must go alone
	}
	topics := topicNames(20)
	started := make([]time.Time, len(topics))
	var queued sync.WaitGroup
	for i, topic := range topics {
		queued.Add(1)
		wg.Go(func() {
			started[i] = time.Now()
			queued.Done()
			if got, err := co.do(context.Background(), topic); err != nil || got != "answer:"+topic {
				t.Errorf("%s: %q, %v", topic, got, err)
			}
		})
	}
	queued.Wait()
	Eventually(t, "every caller to join", func() bool { return waiting(co) == len(topics) })
	if n := sent(); n != 1 {
		t.Fatalf("%d requests while the first was in flight, want 1", n)
	}
	close(gate)
	wg.Wait()
	if len(batches) != 2 || !slices.Equal(batches[0], []string{"lone"}) || len(batches[1]) != len(topics) {
		t.Fatalf("requests %v, want [lone] then the other %d together", batches, len(topics))
	}
	if last := slices.MaxFunc(started, time.Time.Compare); sentAt[1].Before(last) {
		t.Errorf("second request sent at %v, before its last caller asked at %v", sentAt[1], last)
	}
}

// With a window, a read after a quiet spell is not held: it goes at once
// (the window here never closes by itself).
func TestCoalescerWindowDoesNotHoldALoneRead(t *testing.T) {
	f := &fakeBroker{}
	co := newCoalescer(testClient(t, Config{Coalesce: true, CoalesceWindow: time.Minute}), "fake", f.request)
	stopClock(co)
	wait := goAll(co, []string{"lone"})
	Eventually(t, "the lone read to be sent", func() bool { return f.sent() == 1 })
	if answers, errs := wait(); errs[0] != nil || answers[0] != "answer:lone" {
		t.Fatalf("lone read: %q, %v", answers[0], errs[0])
	}
}

// With a window, reads that follow a request of their kind within it are
// a burst: they wait the window and go together, even with nothing in
// flight.
func TestCoalescerWindowGathersABurst(t *testing.T) {
	f := &fakeBroker{}
	co := newCoalescer(testClient(t, Config{Coalesce: true, CoalesceWindow: 300 * time.Millisecond}), "fake", f.request)
	window := stopClock(co)
	if _, err := co.do(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	wait := goAll(co, topicNames(5))
	Eventually(t, "the burst to gather", func() bool { return waiting(co) == 5 })
	if n := f.sent(); n != 1 {
		t.Fatalf("%d requests before the window closed, want only the first", n)
	}
	window.closeWindows()
	if _, errs := wait(); errors.Join(errs...) != nil {
		t.Fatal(errors.Join(errs...))
	}
	if len(f.batches) != 2 || len(f.batches[1]) != 5 {
		t.Errorf("requests %v, want [first] then the burst of 5 together", f.batches)
	}
}

// A burst batch that has as many callers as the last burst brought goes
// without waiting out the window.
func TestCoalescerBurstAsLargeAsTheLastGoesAtOnce(t *testing.T) {
	f := &fakeBroker{}
	co := newCoalescer(testClient(t, Config{Coalesce: true, CoalesceWindow: time.Second}), "fake", f.request)
	window := stopClock(co)
	if _, err := co.do(context.Background(), "first"); err != nil {
		t.Fatal(err)
	}
	wait := goAll(co, topicNames(5))
	Eventually(t, "the first burst to gather", func() bool { return waiting(co) == 5 })
	window.closeWindows()
	if _, errs := wait(); errors.Join(errs...) != nil {
		t.Fatal(errors.Join(errs...))
	}
	// The second burst's window is never closed: it can only go because it
	// is as large as the first.
	wait = goAll(co, []string{"a", "b", "c", "d", "e"})
	Eventually(t, "the second burst to go without its window", func() bool { return f.sent() == 3 })
	if _, errs := wait(); errors.Join(errs...) != nil {
		t.Fatal(errors.Join(errs...))
	}
	if len(f.batches) != 3 || len(f.batches[2]) != 5 {
		t.Errorf("requests %v, want [first], the first burst, then the second burst together", f.batches)
	}
}

// A request-level error that may belong to one topic only (kadm turns a
// topic authorization failure into an error for the whole request) is
// resolved by asking each topic alone: only the unauthorized caller fails.
func TestCoalescerSplitsAuthorizationFailures(t *testing.T) {
	f := &fakeBroker{reqErr: func(topics []string) error {
		if slices.Contains(topics, "t003") {
			return &kadm.AuthError{Err: kerr.TopicAuthorizationFailed}
		}
		return nil
	}}
	co := newCoalescer(testClient(t, Config{Coalesce: true, CoalesceWindow: 50 * time.Millisecond}), "fake", f.request)
	topics := topicNames(10)
	answers, errs, _ := callAll(co, topics)
	for i, topic := range topics {
		if topic == "t003" {
			if _, ok := errors.AsType[*kadm.AuthError](errs[i]); !ok {
				t.Errorf("t003: got %v, want its authorization error", errs[i])
			}
			continue
		}
		if errs[i] != nil || answers[i] != "answer:"+topic {
			t.Errorf("%s: got %q, %v", topic, answers[i], errs[i])
		}
	}
}

// An error that concerns the whole request (cluster unreachable) is every
// caller's error, sent once, not retried per topic.
func TestCoalescerReportsWholeRequestErrorsToEveryCaller(t *testing.T) {
	down := errors.New("dial tcp: connection refused")
	f := &fakeBroker{reqErr: func([]string) error { return down }}
	co := newCoalescer(testClient(t, Config{Coalesce: true, CoalesceWindow: 50 * time.Millisecond}), "fake", f.request)
	topics := topicNames(10)
	_, errs, _ := callAll(co, topics)
	for i, topic := range topics {
		var op *OpError
		if !errors.Is(errs[i], down) || !errors.As(errs[i], &op) || op.Topic != topic {
			t.Errorf("%s: got %v, want the request error naming the topic", topic, errs[i])
		}
	}
	asked := map[string]int{}
	for _, b := range f.batches {
		for _, topic := range b {
			asked[topic]++
		}
	}
	for _, topic := range topics {
		if asked[topic] != 1 {
			t.Errorf("%s was asked %d times: a whole-request failure must not be retried per topic", topic, asked[topic])
		}
	}
}

// A caller that gives up stops waiting; the others still get their answers.
func TestCoalescerCallerCancellation(t *testing.T) {
	gate := make(chan struct{})
	f := &fakeBroker{hold: gate}
	co := newCoalescer(testClient(t, Config{Coalesce: true, CoalesceWindow: 10 * time.Millisecond}), "fake", f.request)
	wait := goAll(co, []string{"b"})
	Eventually(t, "b's request", func() bool { return f.sent() == 1 })
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // "a" gives up while b's request is held
	if _, err := co.do(ctx, "a"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled caller: got %v", err)
	}
	close(gate)
	if _, errs := wait(); errs[0] != nil {
		t.Errorf("other caller: %v", errs[0])
	}
}

func TestMaxInFlightBoundsRequests(t *testing.T) {
	gate := make(chan struct{})
	f := &fakeBroker{hold: gate}
	co := newCoalescer(testClient(t, Config{MaxInFlight: 3}), "fake", f.request)
	wait := goAll(co, topicNames(30))
	Eventually(t, "the bound to be reached", func() bool { return f.inFlight.Load() == 3 })
	close(gate)
	if _, errs := wait(); errors.Join(errs...) != nil {
		t.Fatal(errors.Join(errs...))
	}
	if m := f.maxInFlight.Load(); m != 3 {
		t.Errorf("%d requests in flight at once, want at most 3", m)
	}
}

// A coalescer with a cost bound (the creates: metadata records per
// CreateTopics) never sends a batch over it: a topic that would take the
// open batch past it sends that batch and opens the next, and every
// caller is answered.
func TestCoalescerCostBound(t *testing.T) {
	c := testClient(t, Config{Coalesce: true})
	f := &fakeBroker{holdFirst: make(chan struct{})}
	co := newCoalescer(c, "fake", f.request)
	co.cost = func(topic string) int { return int(topic[len(topic)-1]-'0') + 1 } // "x3" costs 4
	co.maxCost = 10
	first := goAll(co, []string{"lone0"})
	for f.sent() == 0 {
		time.Sleep(time.Millisecond)
	}
	var topics []string
	for i := range 12 {
		topics = append(topics, fmt.Sprintf("t%02d-%d", i, i%4))
	}
	rest := goAll(co, topics)
	for f.sent() < 3 { // full batches go while the first is held
		time.Sleep(time.Millisecond)
	}
	close(f.holdFirst)
	if _, errs := first(); errs[0] != nil {
		t.Fatal(errs[0])
	}
	answers, errs := rest()
	for i, err := range errs {
		if err != nil || answers[i] != "answer:"+topics[i] {
			t.Fatalf("%s: %q, %v", topics[i], answers[i], err)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	seen := 0
	for _, b := range f.batches[1:] {
		cost := 0
		for _, topic := range b {
			cost += co.cost(topic)
		}
		if cost > co.maxCost {
			t.Fatalf("batch %v costs %d, over the bound %d", b, cost, co.maxCost)
		}
		seen += len(b)
	}
	if seen != len(topics) {
		t.Fatalf("batches carried %d topics, want %d", seen, len(topics))
	}
}

// Announced callers (a fleet's creates) go together even when they arrive
// one by one: the first does not go alone, and the batch waits for the
// last; one that never comes holds it no longer than expectStall.
func TestCoalescerExpectedCallers(t *testing.T) {
	c := testClient(t, Config{Coalesce: true})
	f := &fakeBroker{}
	co := newCoalescer(c, "fake", f.request)
	release := co.expectCallers(6) // 5 come
	var waits []func() ([]string, []error)
	for i := range 5 {
		waits = append(waits, goAll(co, []string{fmt.Sprintf("t%d", i)}))
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	for _, wait := range waits {
		if _, errs := wait(); errs[0] != nil {
			t.Fatal(errs[0])
		}
	}
	if waited := time.Since(start); waited > time.Second {
		t.Fatalf("the batch waited %v for the caller that never came", waited)
	}
	release()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.batches) != 1 || len(f.batches[0]) != 5 {
		t.Fatalf("batches %v, want the 5 announced callers in one", f.batches)
	}
}
