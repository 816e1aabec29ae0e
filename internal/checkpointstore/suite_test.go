package checkpointstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
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

func testUpstream(t *testing.T, be *backend) {
	ctx := context.Background()
	r := newRouter(t, be)
	dirs, _ := filepath.Glob(filepath.Join(upstreamDir, "new-stateful-*"))
	ops, _ := filepath.Glob(filepath.Join(upstreamDir, "operatorstate", "*"))
	if len(dirs) != 4 || len(ops) == 0 {
		t.Fatalf("upstream fixtures missing under %s: %v %v", upstreamDir, dirs, ops)
	}
	streams := 0
	for _, dir := range append(dirs, ops...) {
		key := "upstream/" + filepath.Base(dir)
		uploadDir(t, be, dir, key)
		base := be.uri(key)
		// Every pointer form reaches the metadata; these jobs hold no
		// recovery markers, and the refusal lists what they do hold.
		for _, p := range []string{base, base + "/", base + "/_metadata"} {
			_, err := checkpoint.ReadRecoveryMarkers(ctx, r, p, checkpoint.Selector{})
			if !errors.Is(err, checkpoint.ErrOperatorNotFound) {
				t.Errorf("%s: %v, want ErrOperatorNotFound", p, err)
			}
			if strings.HasPrefix(filepath.Base(dir), "new-stateful") && !strings.Contains(fmt.Sprint(err), "source-state") {
				t.Errorf("%s: %v does not list source-state", p, err)
			}
		}
		// Every operator-state stream the real _metadata references reads
		// back byte for byte through the store, at the path the reader
		// derives (relative handles resolve next to _metadata).
		b, err := r.ReadFile(ctx, base+"/_metadata")
		if err != nil {
			t.Fatal(err)
		}
		md, err := checkpoint.ParseMetadata(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range md.Operators {
			for _, sub := range op.Subtasks {
				if sub.Managed == nil || sub.Managed.Delegate.Kind != checkpoint.KindRelativeFile {
					continue
				}
				h := sub.Managed.Delegate
				got, err := r.ReadRange(ctx, base+"/"+h.Path, 0, h.Size)
				if err != nil {
					t.Fatal(err)
				}
				want, err := os.ReadFile(filepath.Join(dir, h.Path))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want[:h.Size]) {
					t.Errorf("%s/%s: remote bytes differ from the fixture", key, h.Path)
				}
				streams++
			}
		}
	}
	if streams == 0 {
		t.Fatal("no relative operator-state streams in the upstream fixtures")
	}
	_, err := checkpoint.ReadRecoveryMarkers(ctx, r, be.uri("upstream/new-stateful-udf-migration-itcase-flink2.0-hashmap-checkpoint"),
		checkpoint.Selector{UID: "CheckpointingSource2"})
	if !errors.Is(err, checkpoint.ErrStateNotFound) || !strings.Contains(err.Error(), "[source-state]") {
		t.Errorf("by uid: %v", err)
	}
}

func testSavepoint(t *testing.T, be *backend) {
	for _, version := range []int{4, 5} {
		dir, _ := writeSavepoint(t, version, 6)
		key := fmt.Sprintf("savepoints/v%d/savepoint-1a2b3c-0123456789ab", version)
		uploadDir(t, be, dir, key)
		r := newRouter(t, be)
		want := readMarkers(t, checkpoint.LocalStorage{}, dir)
		for _, p := range append([]string{be.uri(key)}, be.aliases(key)...) {
			got := readMarkers(t, r, p)
			sameResult(t, got, want, strings.TrimSuffix(p, "/")+"/_metadata")
		}
		if len(want.Markers) != 5 {
			t.Fatalf("%d markers, want 5", len(want.Markers))
		}
	}
}

// testGenerated reads the fixture generator's real Flink snapshots. The
// file-merging and incremental ones record absolute file: paths on the
// machine that wrote them; PathRewrite maps those to the bucket, across
// stores.
func testGenerated(t *testing.T, be *backend) {
	oracles, _ := filepath.Glob(filepath.Join(generatedDir, "*", "oracle.json"))
	if len(oracles) == 0 {
		t.Logf("no generated fixtures under %s yet", generatedDir)
		return
	}
	for _, o := range oracles {
		dir := filepath.Dir(o)
		name := filepath.Base(dir)
		var or struct {
			SnapshotPath    string `json:"snapshotPath"`
			OperatorUIDHash string `json:"operatorUidHash"`
			OriginalDir     string `json:"originalDir"`
			Markers         []struct {
				Legacy        bool             `json:"legacy"`
				SchemaVersion int32            `json:"schemaVersion"`
				Topic         string           `json:"topic"`
				TopicID       string           `json:"topicId"`
				Offsets       map[string]int64 `json:"offsets"`
			} `json:"markers"`
		}
		b, err := os.ReadFile(o)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &or); err != nil {
			t.Fatalf("%s: %v", o, err)
		}
		key := "generated/" + name
		uploadDir(t, be, dir, key)
		var rules []Rewrite
		if or.OriginalDir != "" {
			rules = []Rewrite{{From: "file:" + or.OriginalDir, To: be.uri(key)}, {From: or.OriginalDir, To: be.uri(key)}}
		}
		r := newRouter(t, be, rules...)
		res, err := checkpoint.ReadRecoveryMarkers(context.Background(), r, be.uri(key+"/"+or.SnapshotPath), checkpoint.Selector{UIDHash: or.OperatorUIDHash})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		var got, want []string
		for _, m := range res.Markers {
			got = append(got, markerKey(m.Legacy, m.SchemaVersion, m.Topic, m.TopicID, m.Offsets))
		}
		for _, m := range or.Markers {
			offsets := map[int32]int64{}
			for p, o := range m.Offsets {
				n, _ := strconv.Atoi(p)
				offsets[int32(n)] = o
			}
			want = append(want, markerKey(m.Legacy, m.SchemaVersion, m.Topic, m.TopicID, offsets))
		}
		sort.Strings(got)
		sort.Strings(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: markers\n%v\nwant (oracle)\n%v", name, got, want)
		}
	}
}

func markerKey(legacy bool, sv int32, topic, topicID string, offsets map[int32]int64) string {
	parts := make([]string, 0, len(offsets))
	for p, o := range offsets {
		parts = append(parts, fmt.Sprintf("%d=%d", p, o))
	}
	sort.Strings(parts)
	return fmt.Sprintf("%v %d %q %q %s", legacy, sv, topic, topicID, strings.Join(parts, ","))
}

// absolutize turns the relative state-file handles WriteSavepoint wrote
// into absolute file handles base/<name>, the form Flink uses for
// checkpoint state, shared files and entropy-injected paths. Encodings
// (MetadataV2V3SerializerBase): relative = 6, UTF name, i64 size; file = 2,
// i64 size, UTF path.
func absolutize(t *testing.T, dir, base string) []string {
	t.Helper()
	mdPath := filepath.Join(dir, "_metadata")
	md, err := os.ReadFile(mdPath)
	if err != nil {
		t.Fatal(err)
	}
	utf := func(s string) []byte { return binary.BigEndian.AppendUint16(nil, uint16(len(s))) }
	names := stateFiles(t, dir)
	for _, name := range names {
		rel := append(append([]byte{6}, utf(name)...), name...)
		i := bytes.Index(md, rel)
		if i < 0 {
			t.Fatalf("no relative handle for %s", name)
		}
		size := md[i+len(rel) : i+len(rel)+8]
		abs := append(append(append([]byte{2}, size...), utf(base+"/"+name)...), base+"/"+name...)
		md = append(md[:i:i], append(abs, md[i+len(rel)+8:]...)...)
	}
	parsed, err := checkpoint.ParseMetadata(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, sub := range parsed.Operators[0].Subtasks {
		if sub.Managed != nil && (sub.Managed.Delegate.Kind != checkpoint.KindFile || !strings.HasPrefix(sub.Managed.Delegate.Path, base+"/")) {
			t.Fatalf("handle %+v after absolutize", sub.Managed.Delegate)
		}
	}
	if err := os.WriteFile(mdPath, md, 0o644); err != nil {
		t.Fatal(err)
	}
	return names
}

// A checkpoint copied elsewhere: _metadata names the state files at the old
// place, which no longer exists (and is not next to _metadata either).
func testMoved(t *testing.T, be *backend) {
	dir, _ := writeSavepoint(t, 5, 4)
	want := readMarkers(t, checkpoint.LocalStorage{}, dir)
	names := absolutize(t, dir, be.uri("old-job/shared"))
	for _, n := range names {
		b, _ := os.ReadFile(filepath.Join(dir, n))
		be.put(t, "moved-job/shared/"+n, b)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "_metadata"))
	be.put(t, "moved-job/chk-7/_metadata", b)

	ptr := be.uri("moved-job/chk-7")
	_, err := checkpoint.ReadRecoveryMarkers(context.Background(), newRouter(t, be), ptr, checkpoint.Selector{})
	if !errors.Is(err, checkpoint.ErrNotFound) || !strings.Contains(err.Error(), fmt.Sprintf("%q", be.bucket)) ||
		!strings.Contains(err.Error(), `"old-job/shared/`) {
		t.Errorf("without path_rewrite: %v", err)
	}
	for _, from := range []string{be.uri("old-job"), be.uri("old-job/")} {
		r := newRouter(t, be, Rewrite{From: from, To: be.uri("moved-job")})
		sameResult(t, readMarkers(t, r, ptr), want, ptr+"/_metadata")
	}
	// A rule for a sibling prefix must not apply: rules match whole segments.
	r := newRouter(t, be, Rewrite{From: be.uri("old"), To: be.uri("moved-job")})
	if _, err := checkpoint.ReadRecoveryMarkers(context.Background(), r, ptr, checkpoint.Selector{}); !errors.Is(err, checkpoint.ErrNotFound) {
		t.Errorf("prefix %s applied to old-job: %v", be.uri("old"), err)
	}
}

// With s3.entropy.key Flink writes state files under an entropy-injected
// path and _metadata with the entropy key removed; the absolute handles are
// read as written.
func testEntropy(t *testing.T, be *backend) {
	dir, _ := writeSavepoint(t, 4, 3)
	want := readMarkers(t, checkpoint.LocalStorage{}, dir)
	names := absolutize(t, dir, be.uri("e7f3/entropy-job/chk-9"))
	for _, n := range names {
		b, _ := os.ReadFile(filepath.Join(dir, n))
		be.put(t, "e7f3/entropy-job/chk-9/"+n, b)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "_metadata"))
	be.put(t, "entropy-job/chk-9/_metadata", b)
	ptr := be.uri("entropy-job/chk-9")
	sameResult(t, readMarkers(t, newRouter(t, be), ptr), want, ptr+"/_metadata")
}

func testMissing(t *testing.T, be *backend) {
	ctx := context.Background()
	r := newRouter(t, be)
	_, err := checkpoint.ReadRecoveryMarkers(ctx, r, be.uri("nowhere/chk-1"), checkpoint.Selector{})
	if !errors.Is(err, checkpoint.ErrNotFound) || !strings.Contains(err.Error(), be.uri("nowhere/chk-1")) {
		t.Errorf("missing pointer: %v", err)
	}
	_, err = r.Stat(ctx, be.uri("nowhere/chk-1/_metadata"))
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), fmt.Sprintf("bucket %q", be.bucket)) && !strings.Contains(err.Error(), fmt.Sprintf("container %q", be.bucket)) ||
		!strings.Contains(err.Error(), `"nowhere/chk-1/_metadata"`) {
		t.Errorf("stat of a missing object: %v", err)
	}

	be.put(t, "incomplete/chk-3/4b1e0f2a-state", []byte("partial"))
	_, err = checkpoint.ReadRecoveryMarkers(ctx, r, be.uri("incomplete/chk-3"), checkpoint.Selector{})
	if !errors.Is(err, checkpoint.ErrMissingMetadata) {
		t.Errorf("directory without _metadata: %v", err)
	}

	dir, _ := writeSavepoint(t, 5, 3)
	names := stateFiles(t, dir)
	if err := os.Remove(filepath.Join(dir, names[0])); err != nil {
		t.Fatal(err)
	}
	uploadDir(t, be, dir, "missing-state/sp")
	_, err = checkpoint.ReadRecoveryMarkers(ctx, r, be.uri("missing-state/sp"), checkpoint.Selector{})
	wantKey := fmt.Sprintf("%q", "missing-state/sp/"+names[0])
	if !errors.Is(err, checkpoint.ErrNotFound) || !strings.Contains(err.Error(), wantKey) || !strings.Contains(err.Error(), fmt.Sprintf("%q", be.bucket)) {
		t.Errorf("missing state file: %v, want bucket %q and key %s named", err, be.bucket, wantKey)
	}
}

func testDenied(t *testing.T, be *backend) {
	ctx := context.Background()
	r := newRouter(t, be)
	dir, _ := writeSavepoint(t, 5, 2)
	uploadDir(t, be, dir, "denied/sp")
	_, err := checkpoint.ReadRecoveryMarkers(ctx, r, be.uri("denied/sp"), checkpoint.Selector{})
	if !errors.Is(err, ErrAccessDenied) || !strings.Contains(err.Error(), fmt.Sprintf("%q", be.bucket)) || !strings.Contains(err.Error(), `"denied/sp"`) {
		t.Errorf("denied pointer: %v", err)
	}

	// _metadata readable, the state files it names are not.
	dir, _ = writeSavepoint(t, 5, 2)
	names := absolutize(t, dir, be.uri("denied/shared"))
	b, _ := os.ReadFile(filepath.Join(dir, "_metadata"))
	be.put(t, "granted/chk-1/_metadata", b)
	_, err = checkpoint.ReadRecoveryMarkers(ctx, r, be.uri("granted/chk-1"), checkpoint.Selector{})
	if !errors.Is(err, ErrAccessDenied) || !strings.Contains(err.Error(), fmt.Sprintf("%q", be.bucket)) ||
		!strings.Contains(err.Error(), `"denied/shared/`) || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("denied state file: %v", err)
	}
	var oe *ObjectError
	if !errors.As(err, &oe) || !strings.Contains(oe.Error(), "Storage Blob Data Reader") {
		t.Errorf("no permission hint in %v", err)
	}
	_ = names

	if _, err := r.List(ctx, be.uri("denied")); !errors.Is(err, ErrAccessDenied) {
		t.Errorf("denied listing: %v", err)
	}
}

// A state file far larger than the recovery-marker stream in it: only the
// stream's range is fetched.
func testLarge(t *testing.T, be *backend) {
	const pad = 4 << 20
	dir, _ := writeSavepoint(t, 5, 3)
	want := readMarkers(t, checkpoint.LocalStorage{}, dir)
	total := int64(0)
	for _, n := range stateFiles(t, dir) {
		f, err := os.OpenFile(filepath.Join(dir, n), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write(make([]byte, pad)); err != nil {
			t.Fatal(err)
		}
		f.Close()
		st, _ := os.Stat(filepath.Join(dir, n))
		total += st.Size()
	}
	uploadDir(t, be, dir, "large/sp")
	r := newRouter(t, be)
	before := be.proxy.served.Load()
	sameResult(t, readMarkers(t, r, be.uri("large/sp")), want, be.uri("large/sp")+"/_metadata")
	served := be.proxy.served.Load() - before
	st := r.Stats()
	t.Logf("%s: state files %d bytes; reader got %d bytes in %d requests; the store sent %d response bytes", be.name, total, st.BytesRead, st.Requests, served)
	if st.BytesRead > 64<<10 || served > 256<<10 {
		t.Errorf("read %d bytes (store sent %d) for %d bytes of state files: whole files were fetched", st.BytesRead, served, total)
	}
}

func testList(t *testing.T, be *backend) {
	ctx := context.Background()
	r := newRouter(t, be)
	sp, _ := writeSavepoint(t, 5, 2)
	uploadDir(t, be, sp, "list/job/chk-3")
	uploadDir(t, be, sp, "list/savepoints/savepoint-5f1c2e-9a8b7c6d5e4f")
	be.put(t, "list/job/chk-5/0c1d-inprogress", []byte("x"))
	be.put(t, "list/job/shared/ab12", []byte("x"))
	be.put(t, "list/job/taskowned/cd34", []byte("x"))

	for _, dir := range []string{be.uri("list/job"), be.uri("list/job/")} {
		entries, err := r.List(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, fmt.Sprintf("%s dir=%v", e.Name, e.IsDir))
		}
		sort.Strings(got)
		want := []string{"chk-3 dir=true", "chk-5 dir=true", "shared dir=true", "taskowned dir=true"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("List(%s) = %v, want %v", dir, got, want)
		}
	}
	entries, err := r.List(ctx, be.uri("list/job/chk-3"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range entries {
		if e.Name == "_metadata" {
			found = !e.IsDir && !e.ModTime.IsZero()
		}
	}
	if !found || len(entries) != 1+len(stateFiles(t, sp)) {
		t.Errorf("List(chk-3) = %+v", entries)
	}
	if _, err := r.List(ctx, be.uri("list/nojob")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("listing a missing directory: %v", err)
	}

	points, err := checkpoint.FindRecoveryPoints(ctx, r, be.uri("list/job"), be.uri("list/savepoints"))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, p := range points {
		paths = append(paths, p.Path)
	}
	sort.Strings(paths)
	want := []string{be.uri("list/job/chk-3"), be.uri("list/savepoints/savepoint-5f1c2e-9a8b7c6d5e4f")}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("recovery points %v, want %v", paths, want)
	}
}
