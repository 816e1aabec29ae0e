package recoveryplan_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/recoveryplan"
)

const topic, topicID = "orders-action-state", "q1Yw3mZ7QGu3c8m0b7o5Zg"

// jobDir writes chk-<id> for each id, whose markers hold offset 10*id on
// partitions 0 and 1, _metadata times one minute apart in id order.
func jobDir(t *testing.T, ids ...int64) string {
	t.Helper()
	dir := t.TempDir()
	for _, id := range ids {
		writeCheckpoint(t, dir, id)
	}
	return dir
}

func writeCheckpoint(t *testing.T, dir string, id int64) {
	t.Helper()
	chk := filepath.Join(dir, fmt.Sprintf("chk-%d", id))
	writePoint(t, chk, id, topicID, map[int32]int64{0: 10 * id, 1: 10 * id}, time.Date(2026, 3, 1, 12, int(id), 0, 0, time.UTC))
}

// writePoint writes a point at dir whose one marker holds offsets, its
// _metadata modified at at.
func writePoint(t *testing.T, dir string, id int64, topicID string, offsets map[int32]int64, at time.Time) {
	t.Helper()
	marker := []checkpoint.Marker{{SchemaVersion: 1, Topic: topic, TopicID: topicID, Offsets: offsets}}
	if err := checkpoint.WriteSavepoint(dir, checkpoint.SavepointSpec{MetadataVersion: 5, CheckpointID: id, OperatorUID: "agent",
		Markers: [][]checkpoint.Marker{marker}}); err != nil {
		t.Fatal(err)
	}
	touch(t, dir, at)
}

// touch sets the modification time of dir/_metadata.
func touch(t *testing.T, dir string, at time.Time) {
	t.Helper()
	if err := os.Chtimes(filepath.Join(dir, "_metadata"), at, at); err != nil {
		t.Fatal(err)
	}
}

func TestFromDirsChoosesAmongRetainedCheckpoints(t *testing.T) {
	dir := jobDir(t, 3, 4, 5, 6)
	if err := os.MkdirAll(filepath.Join(dir, "chk-7"), 0o755); err != nil { // in progress: never chosen
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		follow  recoveryplan.Follow
		want    int64
		pos     int
		clamped bool
	}{
		{"oldest by default", recoveryplan.Follow{}, 3, 4, false},
		{"newest", recoveryplan.Follow{NthNewest: 1}, 6, 1, false},
		{"third newest", recoveryplan.Follow{NthNewest: 3}, 4, 3, false},
		{"as many as there are", recoveryplan.Follow{NthNewest: 4}, 3, 4, false},
		{"more than there are: the oldest", recoveryplan.Follow{NthNewest: 9}, 3, 4, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, chosen, err := recoveryplan.FromDirs(context.Background(), checkpoint.LocalStorage{}, dir, "", tc.follow, checkpoint.Selector{})
			if err != nil {
				t.Fatal(err)
			}
			wantPath := filepath.Join(dir, fmt.Sprintf("chk-%d", tc.want))
			if chosen.Point.Path != wantPath || chosen.Position != tc.pos || chosen.Listed != 4 || chosen.Clamped != tc.clamped {
				t.Fatalf("chose %+v, want %s at %d of 4 (clamped %v)", chosen, wantPath, tc.pos, tc.clamped)
			}
			want, err := cleanupplan.New(wantPath, topic, topicID, cleanupplan.Offsets{0: 10 * tc.want, 1: 10 * tc.want})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Plan.Equal(want) || res.Plan.ID() != want.ID() || res.Read.CheckpointID != tc.want {
				t.Fatalf("plan %+v from checkpoint %d, want %+v", res.Plan, res.Read.CheckpointID, want)
			}
		})
	}
}

// The case pinning cannot survive: Flink retires the oldest checkpoint
// between two plans. Following the directory moves the plan forward.
func TestFromDirsMovesForwardWhenFlinkRetiresACheckpoint(t *testing.T) {
	dir := jobDir(t, 1, 2, 3)
	first, _, err := recoveryplan.FromDirs(context.Background(), checkpoint.LocalStorage{}, dir, "", recoveryplan.Follow{}, checkpoint.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	writeCheckpoint(t, dir, 4)
	if err := os.RemoveAll(filepath.Join(dir, "chk-1")); err != nil {
		t.Fatal(err)
	}
	second, _, err := recoveryplan.FromDirs(context.Background(), checkpoint.LocalStorage{}, dir, "", recoveryplan.Follow{}, checkpoint.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	if first.Read.CheckpointID != 1 || second.Read.CheckpointID != 2 || second.Plan.AdvancesOrEquals(first.Plan.Offsets) != nil || second.Plan.Equal(first.Plan) {
		t.Fatalf("followed checkpoint %d then %d (offsets %v then %v), want 1 then 2, moving forward",
			first.Read.CheckpointID, second.Read.CheckpointID, first.Plan.Offsets, second.Plan.Offsets)
	}
}

// retiringStore deletes a point's directory just before its _metadata is
// read, as Flink may between the listing and the read.
type retiringStore struct {
	checkpoint.LocalStorage
	t       *testing.T
	retire  map[string]bool // point directories still to delete
	retired []string
}

func (s *retiringStore) ReadFile(ctx context.Context, path string) ([]byte, error) {
	if dir := filepath.Dir(path); s.retire[dir] {
		delete(s.retire, dir)
		if err := os.RemoveAll(dir); err != nil {
			s.t.Fatal(err)
		}
		s.retired = append(s.retired, dir)
	}
	return s.LocalStorage.ReadFile(ctx, path)
}

func TestFromDirsChoosesAgainWhenTheChosenPointIsRetiredMidRead(t *testing.T) {
	dir := jobDir(t, 1, 2, 3)
	st := &retiringStore{t: t, retire: map[string]bool{filepath.Join(dir, "chk-1"): true}}
	res, chosen, err := recoveryplan.FromDirs(context.Background(), st, dir, "", recoveryplan.Follow{}, checkpoint.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.retired) != 1 || res.Read.CheckpointID != 2 || chosen.Listed != 2 {
		t.Fatalf("retired %v, then followed checkpoint %d of %d listed; want chk-1 retired, then checkpoint 2 of 2", st.retired, res.Read.CheckpointID, chosen.Listed)
	}

	// Something deleting every point as it is read is reported, not chased forever.
	dir = jobDir(t, 1, 2, 3, 4)
	st = &retiringStore{t: t, retire: map[string]bool{}}
	for id := 1; id <= 4; id++ {
		st.retire[filepath.Join(dir, fmt.Sprintf("chk-%d", id))] = true
	}
	_, _, err = recoveryplan.FromDirs(context.Background(), st, dir, "", recoveryplan.Follow{}, checkpoint.Selector{})
	if !errors.Is(err, recoveryplan.ErrRetiredWhileReading) || !strings.Contains(err.Error(), "deleted before it could be read") || len(st.retired) != 4 {
		t.Fatalf("every point deleted: %v (retired %v)", err, st.retired)
	}
}

// A chosen point that is damaged but still there fails: following never
// skips it for another.
func TestFromDirsDoesNotSkipADamagedPoint(t *testing.T) {
	dir := jobDir(t, 1, 2)
	if err := os.WriteFile(filepath.Join(dir, "chk-1", "_metadata"), []byte("not a checkpoint"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, chosen, err := recoveryplan.FromDirs(context.Background(), checkpoint.LocalStorage{}, dir, "", recoveryplan.Follow{}, checkpoint.Selector{})
	if !errors.Is(err, checkpoint.ErrCorrupt) || chosen.Point.NameID != 1 {
		t.Fatalf("damaged oldest point: %v (chose %+v)", err, chosen)
	}
}

func TestFromDirsWithoutPoints(t *testing.T) {
	empty := t.TempDir()
	if err := os.MkdirAll(filepath.Join(empty, "chk-1"), 0o755); err != nil { // the first checkpoint, in progress
		t.Fatal(err)
	}
	_, _, err := recoveryplan.FromDirs(context.Background(), checkpoint.LocalStorage{}, empty, "", recoveryplan.Follow{}, checkpoint.Selector{})
	if !errors.Is(err, recoveryplan.ErrNoRecoveryPoints) {
		t.Fatalf("no complete point: %v", err)
	}
	_, _, err = recoveryplan.FromDirs(context.Background(), checkpoint.LocalStorage{}, filepath.Join(empty, "missing"), "", recoveryplan.Follow{}, checkpoint.Selector{})
	if !errors.Is(err, checkpoint.ErrNotFound) || errors.Is(err, recoveryplan.ErrNoRecoveryPoints) {
		t.Fatalf("missing directory: %v", err)
	}
}

// A job directory holding a checkpoint real Flink wrote (state inline in
// _metadata), beside the in-progress next one: the followed plan is the one
// FromPath derives from the same checkpoint.
func TestFromDirsFollowsARealFlinkCheckpoint(t *testing.T) {
	name := "2.3-checkpoint-p4"
	o := readOracle(t, name)
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, o.SnapshotPath), os.DirFS(filepath.Join(fixtures, name, o.SnapshotPath))); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "chk-1000"), 0o755); err != nil {
		t.Fatal(err)
	}
	res, chosen, err := recoveryplan.FromDirs(context.Background(), checkpoint.LocalStorage{}, dir, "", recoveryplan.Follow{}, checkpoint.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := recoveryplan.FromPath(context.Background(), checkpoint.LocalStorage{}, filepath.Join(dir, o.SnapshotPath), checkpoint.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	if chosen.Listed != 1 || !res.Plan.Equal(want.Plan) || res.Plan.ID() != want.Plan.ID() || len(res.Read.Markers) != len(o.Markers) {
		t.Fatalf("followed %+v: plan %+v from %d markers, want %+v from %d", chosen, res.Plan, len(res.Read.Markers), want.Plan, len(o.Markers))
	}
}
