package checkpoint

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// generatedFixtures is where fixturegen/flink (a Maven project running real
// Flink with the real flink-agents marker class) writes snapshots, each with
// an oracle.json holding what Flink's State Processor API read back.
// FLINK_FIXTURE_DIR points the test at a freshly generated tree instead.
const generatedFixtures = "testdata/generated"

type oracle struct {
	FlinkVersion    string `json:"flinkVersion"`
	Kind            string `json:"kind"`
	Format          string `json:"format"`
	SnapshotPath    string `json:"snapshotPath"`
	OperatorUID     string `json:"operatorUid"`
	OperatorUIDHash string `json:"operatorUidHash"`
	// OriginalDir is where Flink wrote a snapshot whose handles are
	// absolute (file merging): those paths are read from the fixture dir.
	OriginalDir string         `json:"originalDir"`
	Markers     []oracleMarker `json:"markers"`
}

// movedStorage reads a snapshot that was moved from `from` to `to`, the way
// an operator would with path_rewrite: absolute handles under `from` (with
// or without the file: scheme) resolve under `to`.
type movedStorage struct {
	LocalStorage
	from, to string
}

func (m movedStorage) move(p string) string {
	bare := strings.TrimPrefix(strings.TrimPrefix(p, "file://"), "file:")
	if m.from != "" && (bare == m.from || strings.HasPrefix(bare, m.from+"/")) {
		return m.to + strings.TrimPrefix(bare, m.from)
	}
	return p
}

func (m movedStorage) ReadFile(ctx context.Context, p string) ([]byte, error) {
	return m.LocalStorage.ReadFile(ctx, m.move(p))
}

func (m movedStorage) ReadRange(ctx context.Context, p string, off, n int64) ([]byte, error) {
	return m.LocalStorage.ReadRange(ctx, m.move(p), off, n)
}

func (m movedStorage) Stat(ctx context.Context, p string) (FileInfo, error) {
	return m.LocalStorage.Stat(ctx, m.move(p))
}

type oracleMarker struct {
	Legacy        bool             `json:"legacy"`
	SchemaVersion int32            `json:"schemaVersion"`
	Topic         string           `json:"topic"`
	TopicID       string           `json:"topicId"`
	Offsets       map[string]int64 `json:"offsets"`
}

// markerKey renders a marker canonically so lists compare as multisets.
func markerKey(legacy bool, sv int32, topic, topicID string, offsets map[int32]int64) string {
	parts := make([]string, 0, len(offsets))
	for p, o := range offsets {
		parts = append(parts, fmt.Sprintf("%d=%d", p, o))
	}
	sort.Strings(parts)
	if legacy {
		return "legacy " + strings.Join(parts, ",")
	}
	return fmt.Sprintf("v%d %q %q %s", sv, topic, topicID, strings.Join(parts, ","))
}

func (m oracleMarker) key(t *testing.T) string {
	offsets := make(map[int32]int64, len(m.Offsets))
	for k, v := range m.Offsets {
		p, err := strconv.ParseInt(k, 10, 32)
		if err != nil {
			t.Fatalf("oracle partition %q: %v", k, err)
		}
		offsets[int32(p)] = v
	}
	return markerKey(m.Legacy, m.SchemaVersion, m.Topic, m.TopicID, offsets)
}

func sortedKeys(ms []Marker) []string {
	keys := make([]string, len(ms))
	for i, m := range ms {
		keys[i] = markerKey(m.Legacy, m.SchemaVersion, m.Topic, m.TopicID, m.Offsets)
	}
	sort.Strings(keys)
	return keys
}

func TestGeneratedFixturesMatchOracle(t *testing.T) {
	root := generatedFixtures
	if env := os.Getenv("FLINK_FIXTURE_DIR"); env != "" {
		root = env
	}
	var oracles []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "oracle.json" {
			oracles = append(oracles, p)
		}
		return err
	})
	if err != nil || len(oracles) == 0 {
		// Not a skip: without real-Flink fixtures the Kryo decoding is only
		// checked against hand-derived bytes.
		t.Fatalf("no oracle.json under %s (walk error: %v); generate fixtures with fixturegen/flink or set FLINK_FIXTURE_DIR", root, err)
	}
	for _, op := range oracles {
		name, _ := filepath.Rel(root, filepath.Dir(op))
		t.Run(name, func(t *testing.T) { checkOracle(t, op) })
	}
}

func checkOracle(t *testing.T, oraclePath string) {
	ctx := context.Background()
	raw, err := os.ReadFile(oraclePath)
	if err != nil {
		t.Fatal(err)
	}
	var o oracle
	if err := json.Unmarshal(raw, &o); err != nil {
		t.Fatalf("%s: %v", oraclePath, err)
	}
	if o.SnapshotPath == "" || o.OperatorUIDHash == "" {
		t.Fatalf("%s: snapshotPath and operatorUidHash are required", oraclePath)
	}
	snapshot := filepath.Join(filepath.Dir(oraclePath), o.SnapshotPath)
	want := make([]string, len(o.Markers))
	for i, m := range o.Markers {
		want[i] = m.key(t)
	}
	sort.Strings(want)

	if o.OperatorUID != "" {
		if id := OperatorIDFromUID(o.OperatorUID); hexID(id) != strings.ToLower(o.OperatorUIDHash) {
			t.Errorf("uid %q hashes to %s, Flink says %s", o.OperatorUID, hexID(id), o.OperatorUIDHash)
		}
	}
	selectors := []Selector{{UIDHash: o.OperatorUIDHash}}
	if o.OperatorUID != "" {
		selectors = append(selectors, Selector{UID: o.OperatorUID})
	}
	store := movedStorage{from: o.OriginalDir, to: filepath.Dir(oraclePath)}
	_, md, err := loadMetadata(ctx, store, snapshot)
	if err != nil {
		t.Fatal(err)
	}
	holders := 0
	for i := range md.Operators {
		if holdsUnionState(&md.Operators[i], recoveryMarkerState) {
			holders++
		}
	}
	if holders == 1 {
		selectors = append(selectors, Selector{})
	}
	switch {
	case strings.HasPrefix(o.FlinkVersion, "1.20"):
		if md.Version != 4 {
			t.Errorf("Flink %s wrote metadata version %d, spec says 4", o.FlinkVersion, md.Version)
		}
	case strings.HasPrefix(o.FlinkVersion, "2.0"):
		if md.Version != 5 {
			t.Errorf("Flink %s wrote metadata version %d, spec says 5", o.FlinkVersion, md.Version)
		}
	default:
		t.Logf("Flink %s wrote metadata version %d", o.FlinkVersion, md.Version)
	}
	for _, sel := range selectors {
		res, err := ReadRecoveryMarkers(ctx, store, snapshot, sel)
		if err != nil {
			t.Errorf("Flink %s %s/%s, selector %+v: %v", o.FlinkVersion, o.Kind, o.Format, sel, err)
			continue
		}
		if res.OperatorID != strings.ToLower(o.OperatorUIDHash) {
			t.Errorf("selector %+v picked operator %s, oracle says %s", sel, res.OperatorID, o.OperatorUIDHash)
		}
		if got := sortedKeys(res.Markers); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("Flink %s %s/%s, selector %+v:\n got %q\nwant %q", o.FlinkVersion, o.Kind, o.Format, sel, got, want)
		}
	}
}
