// Package fanout runs independent pieces of one Terraform call side by side:
// a fleet's boundaries, a fleet's jobs. One provider process then sends their
// Kafka and storage requests together, which is what makes a fleet cheap.
package fanout

import "sync"

// Each runs fn(i) for i in [0, n), at most limit at once, and returns when
// every call has. Callers write results into slots by i, so no two calls
// share memory, and read them in order afterwards, so that what they report
// does not depend on which call finished first.
func Each(n, limit int, fn func(i int)) {
	slots := make(chan struct{}, max(limit, 1))
	var wg sync.WaitGroup
	for i := range n {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			fn(i)
		})
	}
	wg.Wait()
}
