package checkpointstore

import (
	"context"

	"gocloud.dev/blob"
)

// bucketEntry is a bucket being opened, or opened; ready is closed once b
// or err is set.
type bucketEntry struct {
	ready chan struct{}
	b     *blob.Bucket
	err   error
}

// bucket returns the opened bucket for o, opening it on first use. Callers
// never queue behind a lock while a bucket opens: each waits on the open,
// bounded like any request, and one whose wait ends leaves the open running
// for the next caller.
func (r *Router) bucket(ctx context.Context, o object, from string) (*blob.Bucket, error) {
	id := o.bucketID()
	r.mu.Lock()
	e, ok := r.buckets[id]
	if !ok {
		e = &bucketEntry{ready: make(chan struct{})}
		r.buckets[id] = e
		// Not the caller's context: the cloud clients keep the context
		// they are built with for later credential refreshes, so it must
		// outlive this caller's cancellation.
		go r.openEntry(context.WithoutCancel(ctx), id, e, o)
	}
	r.mu.Unlock()
	b, err := bounded(ctx, r.opts.Timeout, r.request("open bucket for", o, ""), func(ctx context.Context) (*blob.Bucket, error) {
		select {
		case <-e.ready:
			return e.b, e.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	if err != nil && !isStall(err) {
		return nil, &ObjectError{Op: "open bucket for", What: o.where(), RewrittenFrom: from, Code: classify(err), Err: err}
	}
	return b, err
}

// openEntry opens e's bucket and publishes the result. A failed open is
// forgotten, so a later call tries again.
func (r *Router) openEntry(ctx context.Context, id string, e *bucketEntry, o object) {
	b, err := r.open(ctx, o)
	r.mu.Lock()
	defer r.mu.Unlock()
	e.b, e.err = b, err
	close(e.ready)
	switch {
	case err != nil:
		if r.buckets[id] == e {
			delete(r.buckets, id)
		}
	case r.closed:
		b.Close()
	}
}
