package checkpointstore

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

// The same cases run against every store. Fixtures are uploaded as they
// are: real Flink snapshots from Flink's own test resources and from this
// project's fixture generator, and savepoints written by
// checkpoint.WriteSavepoint.

func TestS3(t *testing.T)  { runSuite(t, newS3Backend(t)) }
func TestGCS(t *testing.T) { runSuite(t, newGCSBackend(t)) }

const (
	upstreamDir  = "../checkpoint/testdata/flink-upstream"
	generatedDir = "../checkpoint/testdata/generated"
)

func runSuite(t *testing.T, be *backend) {
	be.setEnv(t)
	t.Run("upstream", func(t *testing.T) { testUpstream(t, be) })
	t.Run("savepoint", func(t *testing.T) { testSavepoint(t, be) })
	t.Run("generated", func(t *testing.T) { testGenerated(t, be) })
	t.Run("moved", func(t *testing.T) { testMoved(t, be) })
	t.Run("entropy", func(t *testing.T) { testEntropy(t, be) })
	t.Run("missing", func(t *testing.T) { testMissing(t, be) })
	t.Run("denied", func(t *testing.T) { testDenied(t, be) })
	t.Run("large", func(t *testing.T) { testLarge(t, be) })
	t.Run("list", func(t *testing.T) { testList(t, be) })
	t.Run("follow", func(t *testing.T) { testFollow(t, be) })
}

func newRouter(t *testing.T, be *backend, rewrites ...Rewrite) *Router {
	t.Helper()
	opts := be.opts
	opts.PathRewrite = rewrites
	r, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// uploadDir puts every file under dir at prefix/<relative path>.
func uploadDir(t *testing.T, be *backend, dir, prefix string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		be.put(t, prefix+"/"+filepath.ToSlash(rel), b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func writeSavepoint(t *testing.T, version, parallelism int) (string, checkpoint.SavepointSpec) {
	t.Helper()
	markers := make([][]checkpoint.Marker, parallelism)
	for i := range markers {
		if i == 2 {
			continue // a subtask without managed state
		}
		markers[i] = []checkpoint.Marker{{SchemaVersion: 1, Topic: "orders-agent-action-state", TopicID: "q1Yw3mZ7QGu3c8m0b7o5Zg",
			Offsets: map[int32]int64{0: int64(100 + i), 1: int64(200 + i)}}}
	}
	spec := checkpoint.SavepointSpec{MetadataVersion: version, CheckpointID: 17, OperatorUID: "action-execute-operator",
		OperatorName: "action-execute-operator", Markers: markers, StateFiles: true}
	dir := t.TempDir()
	if err := checkpoint.WriteSavepoint(dir, spec); err != nil {
		t.Fatal(err)
	}
	return dir, spec
}

// stateFiles lists the state files WriteSavepoint put next to _metadata.
func stateFiles(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		if de.Name() != "_metadata" && !de.IsDir() {
			names = append(names, de.Name())
		}
	}
	if len(names) == 0 {
		t.Fatalf("no state files in %s", dir)
	}
	return names
}

func readMarkers(t *testing.T, st checkpoint.Storage, path string) *checkpoint.Result {
	t.Helper()
	res, err := checkpoint.ReadRecoveryMarkers(context.Background(), st, path, checkpoint.Selector{})
	if err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	return res
}

// sameResult compares a remote read with the local read of the same
// snapshot; only the _metadata path differs.
func sameResult(t *testing.T, got, want *checkpoint.Result, wantMetadata string) {
	t.Helper()
	if got.MetadataPath != wantMetadata {
		t.Errorf("metadata path %s, want %s", got.MetadataPath, wantMetadata)
	}
	g, w := *got, *want
	g.MetadataPath, w.MetadataPath = "", ""
	if !reflect.DeepEqual(g, w) {
		t.Errorf("remote result %+v\nlocal result %+v", g, w)
	}
}
