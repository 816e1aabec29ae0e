package checkpointstore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

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
