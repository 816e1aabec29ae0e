// Package checkpointstore gives the checkpoint reader access to the object
// stores Flink writes checkpoints to: S3 and S3-compatible stores (s3://,
// s3a://, s3p://), Google Cloud Storage (gs://), Azure Blob Storage and
// ADLS Gen2 (abfs://, abfss://, wasb://, wasbs://), and local files (file:
// URIs and plain paths). It imports nothing from Terraform.
//
// A Router implements checkpoint.Storage, checkpoint.ConcurrentStorage and
// checkpoint.Lister. It picks the store by each path's scheme, so a
// checkpoint whose state handles point into another bucket or store is read
// as written. Object stores are read with ranged GETs through gocloud.dev's
// blob drivers, never whole state files; credentials come from each cloud's
// standard chain (see Options).
//
// No request waits longer than Options.Timeout, nor past the caller's
// context: a store that accepts connections and never answers ends the
// read with a StallError naming the object and the endpoint.
package checkpointstore

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

// Router implements checkpoint.Storage over every supported store, opening
// each bucket once. It is safe for concurrent use.
type Router struct {
	opts     Options
	rewrites []Rewrite

	mu      sync.Mutex
	buckets map[string]*bucketEntry
	closed  bool

	cloudsMu sync.Mutex // held while a cloud's client is set up
	clouds   clouds

	bytesRead atomic.Int64
	requests  atomic.Int64
}

var (
	_ checkpoint.Storage           = (*Router)(nil)
	_ checkpoint.ConcurrentStorage = (*Router)(nil)
	_ checkpoint.Lister            = (*Router)(nil)
)

const (
	defaultConcurrency = 8
	defaultTimeout     = 30 * time.Second
)

// New checks opts and returns a Router. Buckets are opened, and credentials
// looked up, on first use.
func New(opts Options) (*Router, error) {
	r := &Router{opts: opts, buckets: map[string]*bucketEntry{}}
	if r.opts.Concurrency <= 0 {
		r.opts.Concurrency = defaultConcurrency
	}
	if r.opts.Timeout <= 0 {
		r.opts.Timeout = defaultTimeout
	}
	for i, rw := range opts.PathRewrite {
		from, to := trimSlash(rw.From), trimSlash(rw.To)
		if from == "" || to == "" {
			return nil, fmt.Errorf("path_rewrite[%d]: from and to must both be set", i)
		}
		for _, p := range []string{from, to} {
			if _, err := parse(p); err != nil {
				return nil, fmt.Errorf("path_rewrite[%d]: %w", i, err)
			}
		}
		r.rewrites = append(r.rewrites, Rewrite{From: from, To: to})
	}
	return r, nil
}

// ReadConcurrency implements checkpoint.ConcurrentStorage.
func (r *Router) ReadConcurrency() int { return r.opts.Concurrency }

// Stats reports the bytes and requests so far.
func (r *Router) Stats() Stats {
	return Stats{BytesRead: r.bytesRead.Load(), Requests: r.requests.Load()}
}

// Close releases every opened bucket. A bucket still being opened is
// released when its open returns.
func (r *Router) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	var errs []error
	for id, e := range r.buckets {
		select {
		case <-e.ready:
			if e.b != nil {
				errs = append(errs, e.b.Close())
			}
		default:
		}
		delete(r.buckets, id)
	}
	return errors.Join(errs...)
}

// request describes a request on o for a StallError; span is a read's
// byte range, or "".
func (r *Router) request(op string, o object, span string) request {
	what := o.where()
	if span != "" {
		what += " " + span
	}
	return request{op: op, what: what, endpoint: r.endpoint(o)}
}

// fail wraps a store error with what was being done to which object.
func (r *Router) fail(op string, o object, from string, err error) error {
	return &ObjectError{Op: op, What: o.where(), RewrittenFrom: from, Code: classify(err), Err: err}
}
