package checkpointstore

import (
	"context"
	"errors"
	"time"
)

// request names, for a StallError, one store request a caller waits on.
type request struct {
	op, what, endpoint string
}

// bounded runs one store request and returns when it answers, when limit
// (Options.Timeout) has passed, or when ctx ends, whichever comes first.
//
// The request runs with a context carrying both bounds, and every client
// used here honors it, so normally it stops at that same moment: that is
// the real cancellation. The goroutine is what makes the bound hold
// regardless: a client that waits somewhere without looking at its context
// (a dial, a retry's sleep, a hung network mount under a local path) keeps
// only its own goroutine, which ends when the client's transport timeouts
// fire (transport.go) or, for a hung local file system, with the process.
// The SDKs' retries run inside fn, so they share the one bound instead of
// multiplying it.
func bounded[T any](ctx context.Context, limit time.Duration, req request, fn func(context.Context) (T, error)) (T, error) {
	start := time.Now()
	rctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1) // buffered: an abandoned fn must not block on it
	go func() {
		v, err := fn(rctx)
		done <- result{v, err}
	}()
	select {
	case res := <-done:
		// An error after a bound ran out is the bound's doing, whatever
		// the client wrapped it in.
		if res.err == nil || rctx.Err() == nil {
			return res.v, res.err
		}
	case <-rctx.Done():
	}
	stop := StopRequestTimeout
	switch ctx.Err() {
	case context.Canceled:
		stop = StopCanceled
	case context.DeadlineExceeded:
		stop = StopDeadline
	}
	var zero T
	return zero, &StallError{Op: req.op, What: req.what, Endpoint: req.endpoint, Stop: stop, Waited: time.Since(start), Limit: limit}
}

// isStall reports whether err is a StallError: the request ended unanswered,
// and no other lookup should be made to explain it.
func isStall(err error) bool { return errors.As(err, new(*StallError)) }
