package checkpoint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func sampleMarkers(parallelism int) [][]Marker {
	out := make([][]Marker, parallelism)
	for i := range out {
		out[i] = []Marker{{SchemaVersion: 1, Topic: "orders-agent-action-state", TopicID: "q1Yw3mZ7QGu3c8m0b7o5Zg",
			Offsets: map[int32]int64{0: int64(100 + i), 1: int64(200 + i), 2: 0}}}
	}
	return out
}

func flatten(markers [][]Marker) []Marker {
	var out []Marker
	for _, ms := range markers {
		out = append(out, ms...)
	}
	return out
}

func TestWriterRoundTrip(t *testing.T) {
	ctx := context.Background()
	for _, version := range []int{4, 5} {
		for _, files := range []bool{false, true} {
			dir := t.TempDir()
			markers := sampleMarkers(3)
			markers[1] = append(markers[1], Marker{Legacy: true, Offsets: map[int32]int64{0: 7}})
			spec := SavepointSpec{MetadataVersion: version, CheckpointID: 42, OperatorUID: "agent-op",
				OperatorName: "action-execute-operator", Markers: markers, StateFiles: files, SnapshotCompression: files}
			if err := WriteSavepoint(dir, spec); err != nil {
				t.Fatal(err)
			}
			id := OperatorIDFromUID("agent-op")
			for _, sel := range []Selector{{}, {UID: "agent-op"}, {UIDHash: strings.ToUpper(hexID(id))}} {
				res, err := ReadRecoveryMarkers(ctx, LocalStorage{}, dir, sel)
				if err != nil {
					t.Fatalf("v%d files=%v %+v: %v", version, files, sel, err)
				}
				if !reflect.DeepEqual(res.Markers, flatten(markers)) {
					t.Errorf("v%d files=%v: markers %v", version, files, res.Markers)
				}
				if res.CheckpointID != 42 || res.MetadataVersion != version || res.OperatorID != hexID(id) ||
					res.MetadataPath != filepath.Join(dir, "_metadata") {
					t.Errorf("v%d: result %+v", version, res)
				}
				wantUID := sel.UID
				if version >= 5 {
					wantUID = "agent-op"
				}
				if res.OperatorUID != wantUID {
					t.Errorf("v%d %+v: OperatorUID %q, want %q", version, sel, res.OperatorUID, wantUID)
				}
			}
		}
	}
}

func hexID(id [16]byte) string { return (&Operator{ID: id}).IDHex() }

// A V5 marker must not decode as V4 and vice versa: the metadata version,
// not guesswork, picks the dialect.
func TestWriterDialectFollowsVersion(t *testing.T) {
	dir := t.TempDir()
	if err := WriteSavepoint(dir, SavepointSpec{MetadataVersion: 5, OperatorUID: "u", Markers: sampleMarkers(1)}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "_metadata"))
	if err != nil {
		t.Fatal(err)
	}
	md, err := ParseMetadata(b)
	if err != nil {
		t.Fatal(err)
	}
	md.Version = 4 // same bytes, but V4 has no name/uid strings: re-encode as V4
	if err := os.WriteFile(filepath.Join(dir, "_metadata"), encodeMetadata(md), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadRecoveryMarkers(context.Background(), LocalStorage{}, dir, Selector{})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "Kryo 2.24") {
		t.Fatalf("Kryo 5 bytes under metadata V4: %v", err)
	}
}
