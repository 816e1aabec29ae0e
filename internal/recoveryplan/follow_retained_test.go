package recoveryplan_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/recoveryplan"
)

// retainedJob is the job: a savepoint kept in savepoint_dir with
// markers at 60, retained checkpoints at 90 and 100, every _metadata
// written in that order.
func retainedJob(t *testing.T) (cpDir, spDir, savepoint string) {
	t.Helper()
	root := t.TempDir()
	cpDir, spDir = filepath.Join(root, "job"), filepath.Join(root, "savepoints")
	savepoint = filepath.Join(spDir, "savepoint-7f3a00-0123456789ab")
	writePoint(t, savepoint, 6, topicID, map[int32]int64{0: 60, 1: 60}, time.Date(2026, 3, 1, 11, 0, 0, 0, time.UTC))
	writeCheckpoint(t, cpDir, 9)
	writeCheckpoint(t, cpDir, 10)
	return cpDir, spDir, savepoint
}

func follow(t *testing.T, cpDir, spDir string, f recoveryplan.Follow) (recoveryplan.Result, recoveryplan.Chosen) {
	t.Helper()
	res, chosen, err := recoveryplan.FromDirs(context.Background(), checkpoint.LocalStorage{}, cpDir, spDir, f, checkpoint.Selector{})
	if err != nil {
		t.Fatal(err)
	}
	return res, chosen
}

// Copying, syncing or touching a point changes its _metadata time, never
// its markers: the plan stays the one the markers give, and the kept
// savepoint stays the oldest point.
func TestFromDirsOrdersByMarkersNotFileTimes(t *testing.T) {
	cpDir, spDir, savepoint := retainedJob(t)
	want, err := cleanupplan.New(savepoint, topic, topicID, cleanupplan.Offsets{0: 60, 1: 60})
	if err != nil {
		t.Fatal(err)
	}
	later := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		change func(t *testing.T)
	}{
		{"as written", func(*testing.T) {}},
		{"savepoint touched", func(t *testing.T) { touch(t, savepoint, later) }},
		{"savepoint copied back in place (cp -r, aws s3 sync)", func(t *testing.T) {
			tmp := filepath.Join(t.TempDir(), "copy")
			if err := os.CopyFS(tmp, os.DirFS(savepoint)); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(savepoint); err != nil {
				t.Fatal(err)
			}
			if err := os.CopyFS(savepoint, os.DirFS(tmp)); err != nil {
				t.Fatal(err)
			}
		}},
		{"oldest checkpoint touched", func(t *testing.T) { touch(t, filepath.Join(cpDir, "chk-9"), later.Add(time.Hour)) }},
		{"every point touched in reverse", func(t *testing.T) {
			touch(t, savepoint, later.Add(3*time.Hour))
			touch(t, filepath.Join(cpDir, "chk-9"), later.Add(2*time.Hour))
			touch(t, filepath.Join(cpDir, "chk-10"), later.Add(time.Hour))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.change(t)
			res, chosen := follow(t, cpDir, spDir, recoveryplan.Follow{})
			if !res.Plan.Equal(want) || res.Plan.ID() != want.ID() || chosen.Position != 3 || chosen.Listed != 3 {
				t.Fatalf("followed %s (position %d of %d), plan %+v; want the savepoint's plan %+v", chosen.Point.Path, chosen.Position, chosen.Listed, res.Plan, want)
			}
			var order []int64
			for _, p := range chosen.Points {
				order = append(order, p.Plan.Offsets[0])
			}
			if len(order) != 3 || order[0] != 100 || order[1] != 90 || order[2] != 60 {
				t.Fatalf("points newest first hold markers %v, want [100 90 60]", order)
			}
			_, newest := follow(t, cpDir, spDir, recoveryplan.Follow{NthNewest: 1})
			_, second := follow(t, cpDir, spDir, recoveryplan.Follow{NthNewest: 2})
			if newest.Point.Path != filepath.Join(cpDir, "chk-10") || second.Point.Path != filepath.Join(cpDir, "chk-9") {
				t.Fatalf("newest %s, 2nd newest %s; want chk-10, chk-9", newest.Point.Path, second.Point.Path)
			}
		})
	}
}

// Points that neither is older than the other, or that name different
// topics, are refused: a guess could make either unrestorable.
func TestFromDirsRefusesPointsItCannotOrder(t *testing.T) {
	for _, tc := range []struct {
		name    string
		topicID string
		offsets map[int32]int64
		want    []string
	}{
		{"markers cross", topicID, map[int32]int64{0: 100, 1: 50},
			[]string{"each hold a higher marker", "partition 0: 100 vs 90; partition 1: 50 vs 90"}},
		{"another topic ID", "Vx2kq8fRTmOa0c1b2d3e4f", map[int32]int64{0: 60, 1: 60},
			[]string{"topic ID Vx2kq8fRTmOa0c1b2d3e4f", "topic ID " + topicID}},
		{"another partition set", topicID, map[int32]int64{0: 60, 1: 60, 2: 60},
			[]string{"partitions [0 1 2]", "partitions [0 1]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			cpDir, spDir := filepath.Join(root, "job"), filepath.Join(root, "savepoints")
			savepoint := filepath.Join(spDir, "savepoint-7f3a00-0123456789ab")
			writePoint(t, savepoint, 6, tc.topicID, tc.offsets, time.Date(2026, 3, 1, 11, 0, 0, 0, time.UTC))
			writeCheckpoint(t, cpDir, 9)
			_, chosen, err := recoveryplan.FromDirs(context.Background(), checkpoint.LocalStorage{}, cpDir, spDir, recoveryplan.Follow{}, checkpoint.Selector{})
			if !errors.Is(err, cleanupplan.ErrUnorderedRecoveryPoints) || chosen.Position != 0 {
				t.Fatalf("got %v (chose %+v), want ErrUnorderedRecoveryPoints and no choice", err, chosen.Point)
			}
			for _, w := range append(tc.want, savepoint, filepath.Join(cpDir, "chk-9")) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not name %q: %v", w, err)
				}
			}
		})
	}
}
