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
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

// Options configures a Router. The zero value reads every supported store
// with the environment's default credentials.
type Options struct {
	// S3 configures s3://, s3a:// and s3p:// access.
	S3 S3Options

	// PathRewrite maps path prefixes to others, for checkpoints that were
	// copied or moved after Flink wrote them: _metadata records absolute
	// paths for checkpoint state files (and all entropy-injected or shared
	// files), which still name the old place. Every path the reader opens,
	// including the one it is given, goes through the rules in order; the
	// first whose From is the path or a parent of it (compared by whole path
	// segments) replaces that part with To. Default none.
	PathRewrite []Rewrite

	// Concurrency bounds how many subtasks' state streams are read at once.
	// Default 8: enough to hide object-store latency for typical
	// parallelism without opening many connections from a Terraform run.
	Concurrency int

	// Timeout bounds each request: opening a bucket (with credential
	// lookup), one attribute lookup, one list page, one read including its
	// body and the SDK's retries. Local paths are bounded the same way, for
	// hung network mounts. A request that gets no answer in time fails
	// with a *StallError. The caller's context bounds the whole operation
	// on top. Default 30s, the provider's default timeout: long enough for
	// a slow store, short enough that a silent one does not look like a
	// hang.
	Timeout time.Duration
}

// S3Options configures S3 access. Credentials come from the AWS SDK's
// default chain: environment variables (AWS_ACCESS_KEY_ID, …), the shared
// config and credentials files (AWS_PROFILE or Profile), web identity
// (AWS_WEB_IDENTITY_TOKEN_FILE with AWS_ROLE_ARN, as on EKS), SSO, ECS and
// EC2 instance roles.
type S3Options struct {
	// Endpoint is the base URL of an S3-compatible store (MinIO, Ceph,
	// R2, …), for example "https://minio.example.com:9000". Default: AWS S3.
	Endpoint string
	// Region of the buckets. Default: AWS_REGION or the profile's region;
	// with Endpoint set and no region configured, "us-east-1", which
	// S3-compatible stores accept. AWS S3 itself needs the bucket's region.
	Region string
	// PathStyle addresses buckets as endpoint/bucket/key instead of
	// bucket.endpoint/key. Most S3-compatible stores need it. Default false.
	PathStyle bool
	// Profile selects a named profile from the shared AWS config files.
	// Default: AWS_PROFILE, else "default".
	Profile string
}

// Rewrite maps one path prefix to another; see Options.PathRewrite.
type Rewrite struct {
	From, To string
}

// Stats counts what a Router has read.
type Stats struct {
	BytesRead int64 // object and file bytes returned to the reader
	Requests  int64 // store calls: reads, attribute lookups and list pages
}

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

// maxMetadataSize bounds ReadFile, which is only used for _metadata: even
// very large jobs keep it to a few megabytes (state lives in separate files
// unless inlined, and inlining is capped at 1 MB per handle by Flink).
const maxMetadataSize = 1 << 30

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

// trimSlash drops trailing slashes but keeps a bare "/" or "scheme://".
func trimSlash(p string) string {
	t := strings.TrimRight(p, "/")
	if t == "" || strings.HasSuffix(t, ":") {
		return p
	}
	return t
}

// rewrite applies the first matching PathRewrite rule.
func (r *Router) rewrite(p string) string {
	for _, rw := range r.rewrites {
		if p == rw.From {
			return rw.To
		}
		if rest, ok := strings.CutPrefix(p, rw.From); ok && (strings.HasPrefix(rest, "/") || strings.HasSuffix(rw.From, "/")) {
			return strings.TrimRight(rw.To, "/") + "/" + strings.TrimLeft(rest, "/")
		}
	}
	return p
}

// resolve rewrites and parses p; from is p when a rule applied.
func (r *Router) resolve(p string) (o object, from string, err error) {
	q := r.rewrite(p)
	if q != p {
		from = p
	}
	o, err = parse(q)
	return o, from, err
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

// request describes a request on o for a StallError; span is a read's
// byte range, or "".
func (r *Router) request(op string, o object, span string) request {
	what := o.where()
	if span != "" {
		what += " " + span
	}
	return request{op: op, what: what, endpoint: r.endpoint(o)}
}

// byteSpan is a read's range as the errors of this package write it.
func byteSpan(off, n int64) string { return fmt.Sprintf("bytes [%d, %d)", off, off+n) }

// fail wraps a store error with what was being done to which object.
func (r *Router) fail(op string, o object, from string, err error) error {
	return &ObjectError{Op: op, What: o.where(), RewrittenFrom: from, Code: classify(err), Err: err}
}

// ReadFile implements checkpoint.Storage.
func (r *Router) ReadFile(ctx context.Context, p string) ([]byte, error) {
	o, from, err := r.resolve(p)
	if err != nil {
		return nil, err
	}
	if o.store == storeLocal {
		return bounded(ctx, r.opts.Timeout, r.request("read", o, ""), func(ctx context.Context) ([]byte, error) {
			b, err := checkpoint.LocalStorage{}.ReadFile(ctx, o.local)
			r.bytesRead.Add(int64(len(b)))
			return b, err
		})
	}
	bkt, err := r.bucket(ctx, o, from)
	if err != nil {
		return nil, err
	}
	r.requests.Add(1)
	return bounded(ctx, r.opts.Timeout, r.request("read", o, ""), func(ctx context.Context) ([]byte, error) {
		rd, err := bkt.NewReader(ctx, o.key, nil)
		if err != nil {
			return nil, r.fail("read", o, from, err)
		}
		defer rd.Close()
		if rd.Size() > maxMetadataSize {
			return nil, fmt.Errorf("%s is %d bytes, larger than any _metadata this reader accepts (%d)", o.where(), rd.Size(), maxMetadataSize)
		}
		b, err := io.ReadAll(rd)
		r.bytesRead.Add(int64(len(b)))
		if err != nil {
			return nil, r.fail("read", o, from, err)
		}
		return b, nil
	})
}

// ReadRange implements checkpoint.Storage with one ranged GET.
func (r *Router) ReadRange(ctx context.Context, p string, off, n int64) ([]byte, error) {
	o, from, err := r.resolve(p)
	if err != nil {
		return nil, err
	}
	if o.store == storeLocal {
		return bounded(ctx, r.opts.Timeout, r.request("read", o, byteSpan(off, n)), func(ctx context.Context) ([]byte, error) {
			b, err := checkpoint.LocalStorage{}.ReadRange(ctx, o.local, off, n)
			r.bytesRead.Add(int64(len(b)))
			return b, err
		})
	}
	if off < 0 || n < 0 || off+n < off {
		return nil, fmt.Errorf("read %s: invalid range [%d, +%d)", o.where(), off, n)
	}
	bkt, err := r.bucket(ctx, o, from)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		// Stores reject empty ranges; only existence and bounds matter.
		return []byte{}, r.checkBounds(ctx, bkt, o, from, off, n, nil)
	}
	r.requests.Add(1)
	type ranged struct {
		buf     []byte
		refused error // the store's answer to the ranged GET itself
	}
	res, err := bounded(ctx, r.opts.Timeout, r.request("read", o, byteSpan(off, n)), func(ctx context.Context) (ranged, error) {
		rd, err := bkt.NewRangeReader(ctx, o.key, off, n, nil)
		if err != nil {
			return ranged{refused: err}, nil
		}
		defer rd.Close()
		if size := rd.Size(); off+n > size {
			return ranged{}, shortErr(o, off, n, size)
		}
		buf := make([]byte, n)
		got, err := io.ReadFull(rd, buf)
		r.bytesRead.Add(int64(got))
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return ranged{}, fmt.Errorf("read %s [%d, %d): %w", o.where(), off, off+n, err)
		}
		return ranged{buf: buf}, nil
	})
	if err != nil {
		return nil, err
	}
	if res.refused != nil {
		// A range starting past the end is refused (HTTP 416) rather than
		// cut short; report it as the short file it is.
		return nil, r.checkBounds(ctx, bkt, o, from, off, n, res.refused)
	}
	return res.buf, nil
}

// checkBounds looks the object up after a failed or empty range read and
// returns a not-found, short-file or the original error.
func (r *Router) checkBounds(ctx context.Context, bkt *blob.Bucket, o object, from string, off, n int64, readErr error) error {
	if readErr != nil {
		switch classify(readErr) {
		case gcerrors.NotFound, gcerrors.PermissionDenied, gcerrors.Canceled, gcerrors.DeadlineExceeded:
			return r.fail("read", o, from, readErr)
		}
	}
	r.requests.Add(1)
	a, err := bounded(ctx, r.opts.Timeout, r.request("stat", o, ""), func(ctx context.Context) (*blob.Attributes, error) {
		return bkt.Attributes(ctx, o.key)
	})
	if isStall(err) {
		return err
	}
	if err != nil {
		if readErr != nil {
			return r.fail("read", o, from, readErr)
		}
		return r.fail("read", o, from, err)
	}
	if off+n > a.Size {
		return shortErr(o, off, n, a.Size)
	}
	if readErr != nil {
		return r.fail("read", o, from, readErr)
	}
	return nil
}

func shortErr(o object, off, n, size int64) error {
	return fmt.Errorf("read %s: range [%d, %d) beyond end of object (%d bytes): %w", o.where(), off, off+n, size, io.ErrUnexpectedEOF)
}

// Stat implements checkpoint.Storage. Object stores have no directories: a
// path with no object of its own is a directory when objects lie below it
// (on ADLS Gen2 a directory is also a marker blob, recognized by its
// hdi_isfolder metadata).
func (r *Router) Stat(ctx context.Context, p string) (checkpoint.FileInfo, error) {
	o, from, err := r.resolve(p)
	if err != nil {
		return checkpoint.FileInfo{}, err
	}
	if o.store == storeLocal {
		return bounded(ctx, r.opts.Timeout, r.request("stat", o, ""), func(ctx context.Context) (checkpoint.FileInfo, error) {
			return checkpoint.LocalStorage{}.Stat(ctx, o.local)
		})
	}
	bkt, err := r.bucket(ctx, o, from)
	if err != nil {
		return checkpoint.FileInfo{}, err
	}
	if o.key != "" && !strings.HasSuffix(o.key, "/") {
		r.requests.Add(1)
		a, err := bounded(ctx, r.opts.Timeout, r.request("stat", o, ""), func(ctx context.Context) (*blob.Attributes, error) {
			return bkt.Attributes(ctx, o.key)
		})
		if isStall(err) {
			return checkpoint.FileInfo{}, err
		}
		if err == nil {
			if isFolderMarker(a) {
				return checkpoint.FileInfo{IsDir: true}, nil
			}
			return checkpoint.FileInfo{Size: a.Size}, nil
		}
		if classify(err) != gcerrors.NotFound {
			return checkpoint.FileInfo{}, r.fail("stat", o, from, err)
		}
	}
	r.requests.Add(1)
	page, err := r.listPage(ctx, bkt, "stat", o, blob.FirstPageToken, 1, &blob.ListOptions{Prefix: dirPrefix(o.key), Delimiter: "/"})
	if isStall(err) {
		return checkpoint.FileInfo{}, err
	}
	if err != nil {
		return checkpoint.FileInfo{}, r.fail("stat", o, from, err)
	}
	if len(page.objects) == 0 {
		return checkpoint.FileInfo{}, r.fail("stat", o, from, notExist{})
	}
	return checkpoint.FileInfo{IsDir: true}, nil
}

// notExist stands for "no object and nothing below it".
type notExist struct{}

func (notExist) Error() string { return "no such object or prefix" }

func isFolderMarker(a *blob.Attributes) bool {
	for k, v := range a.Metadata {
		if strings.EqualFold(k, "hdi_isfolder") && strings.EqualFold(v, "true") {
			return true
		}
	}
	return false
}

// dirPrefix is the listing prefix of the directory key.
func dirPrefix(key string) string {
	if key == "" || strings.HasSuffix(key, "/") {
		return key
	}
	return key + "/"
}

// listPageSize is the largest page every store serves (S3's maximum).
const listPageSize = 1000

// List implements checkpoint.Lister: the immediate children of dir, with
// common prefixes as directories. A prefix with nothing below it is a
// missing directory (fs.ErrNotExist), as on a filesystem.
func (r *Router) List(ctx context.Context, dir string) ([]checkpoint.Entry, error) {
	o, from, err := r.resolve(dir)
	if err != nil {
		return nil, err
	}
	if o.store == storeLocal {
		return bounded(ctx, r.opts.Timeout, r.request("list", o, ""), func(ctx context.Context) ([]checkpoint.Entry, error) {
			return checkpoint.LocalStorage{}.List(ctx, o.local)
		})
	}
	bkt, err := r.bucket(ctx, o, from)
	if err != nil {
		return nil, err
	}
	prefix := dirPrefix(o.key)
	opts := &blob.ListOptions{Prefix: prefix, Delimiter: "/"}
	var out []checkpoint.Entry
	index := map[string]int{}
	exists := false
	for token := blob.FirstPageToken; ; {
		r.requests.Add(1)
		page, err := r.listPage(ctx, bkt, "list", o, token, listPageSize, opts)
		if isStall(err) {
			return nil, err
		}
		if err != nil {
			return nil, r.fail("list", o, from, err)
		}
		for _, obj := range page.objects {
			exists = true
			name := strings.TrimSuffix(strings.TrimPrefix(obj.Key, prefix), "/")
			if name == "" {
				continue // the directory's own marker object
			}
			e := checkpoint.Entry{Name: name, IsDir: obj.IsDir, ModTime: obj.ModTime}
			// ADLS Gen2 lists a directory both as a prefix and as its
			// marker blob: keep the directory.
			if i, seen := index[name]; seen {
				out[i].IsDir = out[i].IsDir || e.IsDir
				continue
			}
			index[name] = len(out)
			out = append(out, e)
		}
		if len(page.next) == 0 {
			break
		}
		token = page.next
	}
	if !exists {
		return nil, r.fail("list", o, from, notExist{})
	}
	return out, nil
}

// listed is one page of a listing and the token of the next (empty at the end).
type listed struct {
	objects []*blob.ListObject
	next    []byte
}

// listPage fetches one page, bounded like any request; op is what the
// caller reports it as.
func (r *Router) listPage(ctx context.Context, bkt *blob.Bucket, op string, o object, token []byte, size int, opts *blob.ListOptions) (listed, error) {
	return bounded(ctx, r.opts.Timeout, r.request(op, o, ""), func(ctx context.Context) (listed, error) {
		objects, next, err := bkt.ListPage(ctx, token, size, opts)
		return listed{objects, next}, err
	})
}
