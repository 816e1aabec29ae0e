package fanout

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Every index runs once, and never more than limit at a time. The first
// calls wait until limit of them run at once (a minute at most), so the
// bound is seen reached however the scheduler interleaves them.
func TestEachBoundsConcurrency(t *testing.T) {
	const n, limit = 200, 7
	var running, most atomic.Int32
	full, expired := make(chan struct{}), make(chan struct{})
	var reached sync.Once
	time.AfterFunc(time.Minute, func() { close(expired) })
	calls := make([]int32, n)
	Each(n, limit, func(i int) {
		now := running.Add(1)
		for {
			seen := most.Load()
			if now <= seen || most.CompareAndSwap(seen, now) {
				break
			}
		}
		if now == limit {
			reached.Do(func() { close(full) })
		}
		select {
		case <-full:
		case <-expired:
		}
		atomic.AddInt32(&calls[i], 1)
		running.Add(-1)
	})
	for i, c := range calls {
		if c != 1 {
			t.Fatalf("index %d ran %d times, want once", i, c)
		}
	}
	if m := most.Load(); m != limit {
		t.Fatalf("at most %d ran at once, want the bound, %d", m, limit)
	}
}
