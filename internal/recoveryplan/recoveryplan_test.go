package recoveryplan_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/recoveryplan"
)

const fixtures = "../checkpoint/testdata/generated"

type oracle struct {
	SnapshotPath string `json:"snapshotPath"`
	Markers      []struct {
		Legacy  bool             `json:"legacy"`
		Topic   string           `json:"topic"`
		TopicID string           `json:"topicId"`
		Offsets map[string]int64 `json:"offsets"`
	} `json:"markers"`
}

func readOracle(t *testing.T, name string) oracle {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures, name, "oracle.json"))
	if err != nil {
		t.Fatalf("real-Flink fixture %s: %v (fixtures live in internal/checkpoint/testdata/generated)", name, err)
	}
	var o oracle
	if err := json.Unmarshal(data, &o); err != nil {
		t.Fatal(err)
	}
	return o
}

// The plan from a savepoint written by real Flink is the per-partition
// minimum over the markers Flink's State Processor API read, with the path
// as given as its recovery point.
func TestFromPathMatchesFlinksMarkers(t *testing.T) {
	for _, name := range []string{"1.20-savepoint-canonical-p4", "2.0-savepoint-canonical-p4", "2.2-savepoint-canonical-p4", "2.3-checkpoint-p4"} {
		t.Run(name, func(t *testing.T) {
			o := readOracle(t, name)
			want := cleanupplan.Offsets{}
			for _, m := range o.Markers {
				for k, v := range m.Offsets {
					p, _ := strconv.Atoi(k)
					if cur, ok := want[int32(p)]; !ok || v < cur {
						want[int32(p)] = v
					}
				}
			}
			path := filepath.Join(fixtures, name, o.SnapshotPath)
			res, err := recoveryplan.FromPath(context.Background(), checkpoint.LocalStorage{}, path, checkpoint.Selector{})
			if err != nil {
				t.Fatal(err)
			}
			wantPlan, err := cleanupplan.New(path, o.Markers[0].Topic, o.Markers[0].TopicID, want)
			if err != nil {
				t.Fatal(err)
			}
			if !res.Plan.Equal(wantPlan) || res.Plan.ID() != wantPlan.ID() {
				t.Fatalf("plan %+v, want %+v", res.Plan, wantPlan)
			}
			if len(res.Read.Markers) != len(o.Markers) {
				t.Fatalf("read %d markers, Flink read %d", len(res.Read.Markers), len(o.Markers))
			}
		})
	}
}

// Legacy markers are read but never make a plan.
func TestFromPathRefusesLegacyMarkers(t *testing.T) {
	name := "2.2-savepoint-canonical-p4-legacy"
	o := readOracle(t, name)
	res, err := recoveryplan.FromPath(context.Background(), checkpoint.LocalStorage{}, filepath.Join(fixtures, name, o.SnapshotPath), checkpoint.Selector{})
	if !errors.Is(err, cleanupplan.ErrLegacyMarker) || res.Read == nil {
		t.Fatalf("legacy markers: %v (read %v)", err, res.Read)
	}
}

// A chk-N directory whose _metadata records another checkpoint was copied
// or renamed: FromPoint refuses it.
func TestFromPointRefusesARenamedCheckpoint(t *testing.T) {
	name := "2.3-checkpoint-p4"
	o := readOracle(t, name)
	dir := t.TempDir()
	src := filepath.Join(fixtures, name, o.SnapshotPath)
	renamed := filepath.Join(dir, "chk-99")
	if err := os.CopyFS(renamed, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	_, err := recoveryplan.FromPoint(context.Background(), checkpoint.LocalStorage{},
		checkpoint.RecoveryPoint{Path: renamed, Kind: checkpoint.KindCheckpoint, NameID: 99}, checkpoint.Selector{})
	if !errors.Is(err, checkpoint.ErrCorrupt) {
		t.Fatalf("renamed checkpoint: %v", err)
	}
}
