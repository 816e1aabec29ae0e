package fanout

import (
	"sync/atomic"
	"testing"
	"time"
)

// Every index runs once, and never more than limit at a time.
func TestEachBoundsConcurrency(t *testing.T) {
	const n, limit = 200, 7
	var running, most atomic.Int32
	calls := make([]int32, n)
	Each(n, limit, func(i int) {
		now := running.Add(1)
		for {
			seen := most.Load()
			if now <= seen || most.CompareAndSwap(seen, now) {
				break
			}
		}
		time.Sleep(time.Millisecond)
		atomic.AddInt32(&calls[i], 1)
		running.Add(-1)
	})
	for i, c := range calls {
		if c != 1 {
			t.Fatalf("index %d ran %d times, want once", i, c)
		}
	}
	if m := most.Load(); m > limit || m < 2 {
		t.Fatalf("at most %d ran at once, want between 2 and %d", m, limit)
	}
}
