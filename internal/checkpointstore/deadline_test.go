package checkpointstore

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A client that ignores its context (a dial or retry sleep that does not
// look at it) still cannot hold the caller past the bound.
func TestBoundedAbandonsAClientIgnoringItsContext(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	req := request{op: "read", what: `s3 bucket "b" key "k"`, endpoint: "http://127.0.0.1:9"}
	err, _ := endsWithin(t, "bounded", 200*time.Millisecond+stallMargin, func() error {
		_, err := bounded(context.Background(), 200*time.Millisecond, req, func(context.Context) ([]byte, error) {
			<-release
			return nil, nil
		})
		return err
	})
	var stall *StallError
	if !errors.As(err, &stall) || stall.Stop != StopRequestTimeout || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want a per-request StallError", err)
	}
}

// An answer that is an error of its own is returned as it is.
func TestBoundedKeepsTheStoresOwnError(t *testing.T) {
	refused := errors.New("403 Forbidden")
	_, err := bounded(context.Background(), time.Minute, request{}, func(context.Context) (int, error) { return 0, refused })
	if err != refused {
		t.Errorf("got %v, want the store's error unchanged", err)
	}
}
