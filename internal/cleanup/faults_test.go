package cleanup

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// protocolKeys are the Kafka requests an apply sends.
var protocolKeys = []kmsg.Key{kmsg.Metadata, kmsg.DescribeConfigs, kmsg.ListOffsets, kmsg.Fetch, kmsg.FindCoordinator, kmsg.InitProducerID,
	kmsg.AddPartitionsToTxn, kmsg.Produce, kmsg.EndTxn, kmsg.DeleteRecords}

// faultKind is how one request fails.
type faultKind struct {
	name string
	// only restricts the kind to some request keys (nil: all).
	only   []kmsg.Key
	inject func(c *kfake.Cluster, key kmsg.Key, nth int64) (disarm func(), fired func() bool)
}

var faultKinds = []faultKind{
	{name: "error", inject: func(c *kfake.Cluster, key kmsg.Key, nth int64) (func(), func() bool) {
		h := c.Fault(kfake.Fault{Keys: []kmsg.Key{key}, Err: kerr.UnknownServerError, TopLevel: key == kmsg.InitProducerID || key == kmsg.EndTxn || key == kmsg.FindCoordinator, When: nthRequest(nth)})
		return h.Remove, func() bool { return h.Hits() > 0 }
	}},
	{name: "disconnect", inject: func(c *kfake.Cluster, key kmsg.Key, nth int64) (func(), func() bool) {
		var seen atomic.Int64
		var disarmed atomic.Bool
		c.ControlKey(int16(key), func(kmsg.Request) (kmsg.Response, error, bool) {
			if disarmed.Load() || seen.Add(1) != nth {
				c.KeepControl()
				return nil, nil, false
			}
			return nil, errors.New("injected: connection dropped"), true
		})
		return func() { disarmed.Store(true) }, func() bool { return seen.Load() >= nth }
	}},
	// A real broker can time out after the work happened: the append is in
	// the log or the records are deleted, but the client hears a failure.
	{name: "timeout after work", only: []kmsg.Key{kmsg.Produce, kmsg.DeleteRecords}, inject: func(c *kfake.Cluster, key kmsg.Key, nth int64) (func(), func() bool) {
		h := c.Fault(kfake.Fault{Keys: []kmsg.Key{key}, Err: kerr.RequestTimedOut, When: nthRequest(nth)})
		return h.Remove, func() bool { return h.Hits() > 0 }
	}},
}

// nthRequest matches only the nth request that reaches the fault (counting
// from 1); a fault with When consumes its count only when When says yes.
func nthRequest(nth int64) func(kmsg.Request) bool {
	var seen atomic.Int64
	return func(kmsg.Request) bool { return seen.Add(1) == nth }
}

// faultScenario is the apply every fault case runs: a boundary already
// recorded, then a new process (a fresh client, as each terraform run is)
// advancing it.
func faultScenario(t *testing.T) (*env, cleanupplan.Plan) {
	e := newEnv(t, 4, 20)
	first := e.plan("chk-1", func(int32) int64 { return 4 })
	if _, err := Apply(context.Background(), e.kafka, Request{Plan: first, ControlTopic: controlTopic}); err != nil {
		t.Fatal(err)
	}
	e.kafka = e.newClient()
	return e, e.plan("chk-2", func(p int32) int64 { return 10 + int64(p) })
}

// countRequests runs the scenario without faults and counts each request.
func countRequests(t *testing.T) map[kmsg.Key]int {
	e, plan := faultScenario(t)
	handles := map[kmsg.Key]*kfake.FaultHandle{}
	for _, k := range protocolKeys {
		handles[k] = e.cluster.Fault(kfake.Fault{Keys: []kmsg.Key{k}, Observe: true, Count: -1})
	}
	if _, err := Apply(context.Background(), e.kafka, Request{Plan: plan, ControlTopic: controlTopic}); err != nil {
		t.Fatal(err)
	}
	counts := map[kmsg.Key]int{}
	for k, h := range handles {
		counts[k] = h.Hits()
	}
	return counts
}

// TestFaultMatrix fails every Kafka request of an apply, one at a time, in
// every way a broker or network can fail it. After each fault, re-running
// Apply must converge to APPLIED with the right start offsets, and no
// DeleteRecords may ever have asked for more than was durably COMMITTED.
func TestFaultMatrix(t *testing.T) {
	counts := countRequests(t)
	t.Logf("requests in one clean apply: %v", counts)
	covered := 0
	for _, key := range protocolKeys {
		for _, kind := range faultKinds {
			if kind.only != nil && !containsKey(kind.only, key) {
				continue
			}
			// One more than counted: a retry path may send an extra one.
			for nth := int64(1); nth <= int64(counts[key])+1; nth++ {
				covered++
				t.Run(fmt.Sprintf("%s/%s/%d", key.Name(), kind.name, nth), func(t *testing.T) {
					fired := runFaultCase(t, key, kind, nth)
					// Within the counted requests the fault must really
					// have hit, or this case tested nothing.
					if nth <= int64(counts[key]) && !fired {
						t.Fatalf("the fault on %s request %d never fired", key.Name(), nth)
					}
				})
			}
		}
	}
	t.Logf("fault cases: %d", covered)
}

func containsKey(keys []kmsg.Key, k kmsg.Key) bool {
	for _, x := range keys {
		if x == k {
			return true
		}
	}
	return false
}

func runFaultCase(t *testing.T, key kmsg.Key, kind faultKind, nth int64) (fired bool) {
	e, plan := faultScenario(t)
	ctx := context.Background()
	spy := newSpy(e)
	disarm, hit := kind.inject(e.cluster, key, nth)
	_, firstErr := Apply(ctx, spy, Request{Plan: plan, ControlTopic: controlTopic})
	spy.check()
	fired = hit()

	t.Logf("first apply: %v", firstErr)
	// With the fault gone (fired or not), a second apply must converge.
	disarm()
	res, err := Apply(ctx, spy, Request{Plan: plan, ControlTopic: controlTopic})
	if err != nil {
		t.Fatalf("re-apply after fault (first apply said: %v): %v", firstErr, err)
	}
	spy.check()
	if res.PlanID != plan.ID() {
		t.Fatalf("result for %s", res.PlanID)
	}
	for p, start := range e.startOffsets() {
		if want := 10 + int64(p); start != want {
			t.Fatalf("partition %d starts at %d, want %d (first apply: %v)", p, start, want, firstErr)
		}
	}
	log := e.history()
	for _, op := range log.Operations() {
		if op.Status != cleanupplan.StatusApplied {
			t.Fatalf("plan %s left %s", op.PlanID, op.Status)
		}
	}
	if op, ok := log.Lookup(plan.ID()); !ok || op.Status != cleanupplan.StatusApplied {
		t.Fatalf("plan not APPLIED: %+v", op)
	}
	return fired
}
