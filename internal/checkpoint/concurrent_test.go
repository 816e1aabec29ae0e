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
// many ReadRange calls run at once.
type overlapStorage struct {
	LocalStorage
	limit int

	mu             sync.Mutex
	inFlight, peak int
}

func (s *overlapStorage) ReadConcurrency() int { return s.limit }

func (s *overlapStorage) ReadRange(ctx context.Context, path string, off, n int64) ([]byte, error) {
	s.mu.Lock()
	s.inFlight++
	s.peak = max(s.peak, s.inFlight)
	s.mu.Unlock()
	time.Sleep(5 * time.Millisecond) // a round trip, so reads can overlap
	defer func() { s.mu.Lock(); s.inFlight--; s.mu.Unlock() }()
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
	st := &overlapStorage{limit: 3}
	got, err := ReadRecoveryMarkers(context.Background(), st, dir, Selector{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("concurrent read %+v, sequential %+v", got, want)
	}
	if st.peak < 2 || st.peak > 3 {
		t.Errorf("%d reads at once, want 2 or 3 (bound 3)", st.peak)
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
	for _, s := range []Storage{LocalStorage{}, &overlapStorage{limit: 4}} {
		_, err = ReadRecoveryMarkers(context.Background(), s, dir, Selector{})
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "subtask 3,") {
			t.Errorf("%T: %v, want subtask 3 named", s, err)
		}
	}
}
