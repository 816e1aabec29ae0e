package checkpointstore

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpointstore/stalltest"
)

// A store that accepts connections and never answers must not hang a read:
// every operation ends when the per-request timeout, the caller's deadline
// or the caller's cancellation says so, with an error naming what it waited
// for, and the client lets go of its connection.

// stallMargin is what a bounded operation may take beyond its bound before
// the test calls it unbounded. Which bound ended the wait is proven by the
// error, which names it; the margin only tells an operation that ended from
// one that hung, so it is wide enough for a loaded 2-core machine.
const stallMargin = 30 * time.Second

// silentStore is one store kind pointed at a silent listener.
type silentStore struct {
	name string
	ln   *stalltest.Listener
	opts Options
	uri  func(key string) string
}

func silentS3(t *testing.T) silentStore {
	ln := stalltest.Silent(t)
	(&backend{env: map[string]string{"AWS_ACCESS_KEY_ID": "AKIDTEST", "AWS_SECRET_ACCESS_KEY": "not-a-secret"}}).setEnv(t)
	return silentStore{name: "s3", ln: ln, opts: Options{S3: S3Options{Endpoint: ln.URL(), PathStyle: true}},
		uri: func(key string) string { return "s3://ckpt/" + key }}
}

func silentGCS(t *testing.T) silentStore {
	ln := stalltest.Silent(t)
	(&backend{env: map[string]string{"STORAGE_EMULATOR_HOST": ln.Addr}}).setEnv(t)
	return silentStore{name: "gcs", ln: ln, uri: func(key string) string { return "gs://ckpt/" + key }}
}

func silentAzure(t *testing.T) silentStore {
	ln := stalltest.Silent(t)
	key := base64.StdEncoding.EncodeToString([]byte("not a real storage account key"))
	(&backend{env: map[string]string{"AZURE_STORAGEBLOB_CONNECTIONSTRING": fmt.Sprintf(
		"DefaultEndpointsProtocol=http;AccountName=stalled;AccountKey=%s;BlobEndpoint=%s/stalled;", key, ln.URL())}}).setEnv(t)
	return silentStore{name: "azure", ln: ln, uri: func(key string) string { return "abfss://ckpt@stalled.dfs.core.windows.net/" + key }}
}

var silentStores = []struct {
	name  string
	start func(*testing.T) silentStore
}{{"s3", silentS3}, {"gcs", silentGCS}, {"azure", silentAzure}}

// stallOp is one storage operation against the silent store; want is what
// its error must name besides the endpoint.
type stallOp struct {
	name string
	want string
	run  func(ctx context.Context, r *Router) error
}

func stallOps(s silentStore) []stallOp {
	return []stallOp{
		{"stat", `"job/chk-1/_metadata"`, func(ctx context.Context, r *Router) error {
			_, err := r.Stat(ctx, s.uri("job/chk-1/_metadata"))
			return err
		}},
		{"list", `"job"`, func(ctx context.Context, r *Router) error {
			_, err := r.List(ctx, s.uri("job"))
			return err
		}},
		{"read file", `"job/chk-1/_metadata"`, func(ctx context.Context, r *Router) error {
			_, err := r.ReadFile(ctx, s.uri("job/chk-1/_metadata"))
			return err
		}},
		{"ranged read", "bytes [100, 150)", func(ctx context.Context, r *Router) error {
			_, err := r.ReadRange(ctx, s.uri("job/shared/4b1e0f2a"), 100, 50)
			return err
		}},
		{"recovery markers", `"job/chk-1"`, func(ctx context.Context, r *Router) error {
			_, err := checkpoint.ReadRecoveryMarkers(ctx, r, s.uri("job/chk-1"), checkpoint.Selector{})
			return err
		}},
		{"recovery points", `"job"`, func(ctx context.Context, r *Router) error {
			_, err := checkpoint.FindRecoveryPoints(ctx, r, s.uri("job"), "")
			return err
		}},
	}
}

// runStalled runs every operation at once against s, each with the context
// from ctxFor, and checks that each ends within bound+stallMargin with an
// error matching sentinel that names the endpoint, the object and wantText.
func runStalled(t *testing.T, s silentStore, timeout, bound time.Duration, ctxFor func() (context.Context, context.CancelFunc), sentinel error, wantText string) {
	t.Helper()
	opts := s.opts
	opts.Timeout = timeout
	r, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var wg sync.WaitGroup
	for _, op := range stallOps(s) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := ctxFor()
			defer cancel()
			err, ended := endsWithin(t, s.name+" "+op.name, bound+stallMargin, func() error { return op.run(ctx, r) })
			switch {
			case !ended:
			case err == nil:
				t.Errorf("%s %s: no error from a store that never answered", s.name, op.name)
			case !errors.Is(err, sentinel):
				t.Errorf("%s %s: %v, want an error matching %v", s.name, op.name, err, sentinel)
			case !strings.Contains(err.Error(), s.ln.Addr) || !strings.Contains(err.Error(), op.want) || !strings.Contains(err.Error(), wantText):
				t.Errorf("%s %s: %q does not name the endpoint %s, %s and %q", s.name, op.name, err, s.ln.Addr, op.want, wantText)
			}
		}()
	}
	wg.Wait()
	s.ln.RequireReleased(t, bound+stallMargin)
}

// Each bound on its own, against every store: the per-request timeout (the
// provider's timeout), the caller's deadline shorter than it (a data
// source's timeouts.read), and cancellation (Ctrl-C in Terraform).
func TestStalledStore(t *testing.T) {
	background := func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }
	for _, c := range []struct {
		name           string
		timeout, bound time.Duration
		ctx            func() (context.Context, context.CancelFunc)
		sentinel       error
		says           string
	}{
		{"request timeout", 2 * time.Second, 2 * time.Second, background,
			context.DeadlineExceeded, "within 2s (the per-request timeout)"},
		{"caller deadline", time.Hour, 1500 * time.Millisecond,
			func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), 1500*time.Millisecond)
			},
			context.DeadlineExceeded, "before the deadline of the whole read passed"},
		{"cancelled", time.Hour, 300 * time.Millisecond,
			func() (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(context.Background())
				time.AfterFunc(300*time.Millisecond, cancel)
				return ctx, cancel
			},
			context.Canceled, "cancelled after"},
	} {
		for _, store := range silentStores {
			t.Run(c.name+"/"+store.name, func(t *testing.T) {
				runStalled(t, store.start(t), c.timeout, c.bound, c.ctx, c.sentinel, c.says)
			})
		}
	}
}

// endsWithin runs fn and reports its error, failing t unless it returns
// within limit. A call still running 10s past the limit is abandoned (ended
// false), so a regression fails the test instead of hanging it.
func endsWithin(t *testing.T, what string, limit time.Duration, fn func() error) (err error, ended bool) {
	t.Helper()
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err = <-done:
	case <-time.After(limit + 10*time.Second):
		t.Errorf("%s: still waiting after %s, though bounded by %s", what, time.Since(start).Round(time.Millisecond), limit)
		return nil, false
	}
	took := time.Since(start)
	t.Logf("%s ended after %s: %v", what, took.Round(time.Millisecond), err)
	if took > limit {
		t.Errorf("%s took %s, more than %s", what, took.Round(time.Millisecond), limit)
	}
	return err, true
}
