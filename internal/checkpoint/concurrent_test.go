package checkpoint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// overlapStorage is a ConcurrentStorage over LocalStorage that records how
// many ReadRange calls run at once. Each call waits until limit calls run
// at once (or a minute passed), so a reader that reads in parallel shows it
// however the scheduler interleaves the goroutines.
type overlapStorage struct {
	LocalStorage
	limit int

	mu             sync.Mutex
	inFlight, peak int
	full           chan struct{} // closed once limit calls ran at once
	expired        chan struct{} // closed a minute after newOverlapStorage
}

func newOverlapStorage(limit int) *overlapStorage {
	s := &overlapStorage{limit: limit, full: make(chan struct{}), expired: make(chan struct{})}
	time.AfterFunc(time.Minute, func() { close(s.expired) })
	return s
}

func (s *overlapStorage) ReadConcurrency() int { return s.limit }

func (s *overlapStorage) ReadRange(ctx context.Context, path string, off, n int64) ([]byte, error) {
	s.mu.Lock()
	s.inFlight++
	if s.inFlight == s.limit && s.peak < s.limit {
		close(s.full)
	}
	s.peak = max(s.peak, s.inFlight)
	s.mu.Unlock()
	defer func() { s.mu.Lock(); s.inFlight--; s.mu.Unlock() }()
	select {
	case <-s.full:
	case <-s.expired:
	}
	return s.LocalStorage.ReadRange(ctx, path, off, n)
}

func TestConcurrentStorageReadsSubtasksInParallel(t *testing.T) {
	dir := t.TempDir()
	markers := sampleMarkers(12)
	markers[5] = nil
	if err := WriteSavepoint(dir, SavepointSpec{MetadataVersion: 5, OperatorUID: "agent-op", Markers: markers, StateFiles: true}); err != nil {
		t.Fatal(err)
	}
	want, err := ReadRecoveryMarkers(context.Background(), LocalStorage{}, dir, Selector{})
	if err != nil {
		t.Fatal(err)
	}
	st := newOverlapStorage(3)
	got, err := ReadRecoveryMarkers(context.Background(), st, dir, Selector{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("concurrent read %+v, sequential %+v", got, want)
	}
	if st.peak != 3 {
		t.Errorf("%d reads at once, want the bound, 3", st.peak)
	}

	// The error names the lowest failing subtask, as a sequential read would.
	md, err := os.ReadFile(filepath.Join(dir, metadataFileName))
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := ParseMetadata(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{9, 3, 7} {
		if err := os.Remove(filepath.Join(dir, parsed.Operators[0].Subtasks[i].Managed.Delegate.Path)); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range []Storage{LocalStorage{}, newOverlapStorage(4)} {
		_, err = ReadRecoveryMarkers(context.Background(), s, dir, Selector{})
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "subtask 3,") {
			t.Errorf("%T: %v, want subtask 3 named", s, err)
		}
	}
}
