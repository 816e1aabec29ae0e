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

// agentState builds the agent operator's three union states in one stream,
// as flink-agents registers them, with recoveryMarker in the middle so its
// last element is bounded by another state's first offset.
func agentStream(t *testing.T, dialect kryoDialect, markers []Marker, compress bool) ([]byte, []StateMetaInfo) {
	t.Helper()
	elements := make([][]byte, len(markers))
	for i, m := range markers {
		elements[i] = encodeMarker(m, dialect)
	}
	big := make([]byte, 150<<10) // spans several 64 KiB snappy blocks
	for i := range big {
		big[i] = byte(i * 7)
	}
	return encodeOperatorStream([]listState{
		{Name: "identifier_state", Mode: ModeUnion, Serializer: stringSerializer, Elements: [][]byte{{0x05, 'a', 'b', 'c', 'd'}}},
		{Name: recoveryMarkerState, Mode: ModeUnion, Elements: elements},
		{Name: "currentProcessingKeys", Mode: ModeUnion, Elements: [][]byte{big, {1, 2, 3}}},
	}, compress)
}

// writeCheckpoint writes md as dir/_metadata.
func writeCheckpoint(t *testing.T, dir string, md *Metadata) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "_metadata"), encodeMetadata(md), 0o644); err != nil {
		t.Fatal(err)
	}
}

func oneOperator(version int, subtasks ...Subtask) *Metadata {
	return &Metadata{Version: version, CheckpointID: 9, Operators: []Operator{
		{ID: OperatorIDFromUID("other"), Parallelism: 1, MaxParallelism: 128},
		{ID: OperatorIDFromUID("agent"), Parallelism: int32(len(subtasks)), MaxParallelism: 128, Subtasks: subtasks},
	}}
}

// Every delegate kind, compressed and not, in every metadata version.
func TestReadDelegateKinds(t *testing.T) {
	ctx := context.Background()
	m0 := Marker{SchemaVersion: 1, Topic: "t", TopicID: "id", Offsets: map[int32]int64{0: 1, 1: 2}}
	m1 := Marker{SchemaVersion: 1, Topic: "t", TopicID: "id", Offsets: map[int32]int64{0: 3, 1: 4}}
	for version := minMetadataVersion; version <= maxMetadataVersion; version++ {
		dialect := dialectForMetadataVersion(version)
		for _, compress := range []bool{false, true} {
			root := t.TempDir()
			dir := filepath.Join(root, "chk-9")
			stream, infos := agentStream(t, dialect, []Marker{m0, m1}, compress)
			if err := os.MkdirAll(filepath.Join(root, "taskowned"), 0o755); err != nil {
				t.Fatal(err)
			}
			must(t, os.MkdirAll(dir, 0o755))
			must(t, os.WriteFile(filepath.Join(dir, "rel"), stream, 0o644))
			must(t, os.WriteFile(filepath.Join(root, "abs"), stream, 0o644))
			// A file-merging physical file: other data around our segment.
			physical := append(append(make([]byte, 777), stream...), make([]byte, 99)...)
			must(t, os.WriteFile(filepath.Join(root, "taskowned", "phys"), physical, 0o644))
			size := int64(len(stream))
			handles := []StreamHandle{
				{Kind: KindInline, Data: stream, Size: size},
				{Kind: KindRelativeFile, Path: "rel", Size: size},
				{Kind: KindFile, Path: "file:" + filepath.Join(root, "abs"), Size: size},
				{Kind: KindSegment, Path: "file://" + filepath.Join(root, "taskowned", "phys"), Start: 777, Size: size},
			}
			var subs []Subtask
			for i, h := range handles {
				subs = append(subs, Subtask{Index: int32(i), Managed: &OperatorStateHandle{States: infos, Delegate: h}})
			}
			// Subtasks without the state, finished, or with an empty segment add nothing.
			subs = append(subs, Subtask{Index: 4}, Subtask{Index: 5, Finished: true},
				Subtask{Index: 6, Managed: &OperatorStateHandle{Delegate: StreamHandle{Kind: KindEmptySegment}}})
			writeCheckpoint(t, dir, oneOperator(version, subs...))

			res, err := ReadRecoveryMarkers(ctx, LocalStorage{}, dir, Selector{UID: "agent"})
			if err != nil {
				t.Fatalf("v%d compress=%v: %v", version, compress, err)
			}
			want := []Marker{m0, m1, m0, m1, m0, m1, m0, m1}
			if !reflect.DeepEqual(res.Markers, want) {
				t.Errorf("v%d compress=%v: got %v", version, compress, res.Markers)
			}
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Absolute handles survive moving the directory when the file sits next to _metadata.
func TestReadMovedAbsoluteHandle(t *testing.T) {
	dir := t.TempDir()
	stream, infos := agentStream(t, kryo5, []Marker{{Legacy: true, Offsets: map[int32]int64{3: 4}}}, false)
	must(t, os.WriteFile(filepath.Join(dir, "f00d"), stream, 0o644))
	writeCheckpoint(t, dir, oneOperator(5, Subtask{Managed: &OperatorStateHandle{States: infos,
		Delegate: StreamHandle{Kind: KindFile, Path: "file:/gone/elsewhere/f00d", Size: int64(len(stream))}}}))
	res, err := ReadRecoveryMarkers(context.Background(), LocalStorage{}, dir, Selector{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Markers) != 1 || !res.Markers[0].Legacy {
		t.Fatalf("markers %v", res.Markers)
	}
}

func TestReadPathForms(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "savepoint-abc")
	must(t, WriteSavepoint(dir, SavepointSpec{MetadataVersion: 5, OperatorUID: "u", Markers: sampleMarkers(2), StateFiles: true}))
	meta := filepath.Join(dir, "_metadata")
	for _, p := range []string{dir, dir + "/", meta, "file:" + dir, "file://" + dir, "file://localhost" + meta, "file:" + meta} {
		res, err := ReadRecoveryMarkers(ctx, LocalStorage{}, p, Selector{})
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if res.MetadataPath != meta || len(res.Markers) != 2 {
			t.Errorf("%s: %s, %d markers", p, res.MetadataPath, len(res.Markers))
		}
	}
	// A renamed metadata file works: Flink accepts any file name.
	renamed := filepath.Join(dir, "copy-of-metadata")
	b, _ := os.ReadFile(meta)
	must(t, os.WriteFile(renamed, b, 0o644))
	if _, err := ReadRecoveryMarkers(ctx, LocalStorage{}, renamed, Selector{}); err != nil {
		t.Errorf("renamed: %v", err)
	}

	aborted := filepath.Join(t.TempDir(), "chk-7")
	must(t, os.MkdirAll(aborted, 0o755))
	cases := []struct {
		path string
		is   error
	}{
		{filepath.Join(dir, "nope"), ErrNotFound},
		{aborted, ErrMissingMetadata},
		{"file://otherhost/x", nil},
		{"file:relative", nil},
		{"", ErrNotFound},
	}
	for _, c := range cases {
		_, err := ReadRecoveryMarkers(ctx, LocalStorage{}, c.path, Selector{})
		if err == nil || (c.is != nil && !errors.Is(err, c.is)) {
			t.Errorf("%q: err %v, want %v", c.path, err, c.is)
		}
	}
}

func TestReadErrors(t *testing.T) {
	ctx := context.Background()
	m := Marker{SchemaVersion: 1, Topic: "t", TopicID: "i", Offsets: map[int32]int64{0: 1}}
	good, infos := encodeOperatorStream([]listState{{Name: recoveryMarkerState, Mode: ModeUnion, Elements: [][]byte{encodeMarker(m, kryo5)}}}, false)
	handle := func(h StreamHandle, st []StateMetaInfo) Subtask {
		return Subtask{Managed: &OperatorStateHandle{States: st, Delegate: h}}
	}
	inline := StreamHandle{Kind: KindInline, Data: good, Size: int64(len(good))}
	split := []StateMetaInfo{{Name: recoveryMarkerState, Mode: ModeSplitDistribute, Offsets: infos[0].Offsets}}
	foreign, finfo := encodeOperatorStream([]listState{{Name: recoveryMarkerState, Mode: ModeUnion,
		Elements: [][]byte{append([]byte{0x01, 0x00}, asciiLastHigh("com.acme.Custom")...)}}}, false)
	badVersion := append([]byte{0, 0, 0, 9}, good[4:]...)

	cases := []struct {
		name    string
		md      *Metadata
		files   map[string][]byte
		sel     Selector
		is      error
		mention string
	}{
		{"split mode", oneOperator(5, handle(inline, split)), nil, Selector{UID: "agent"}, ErrStateNotFound, "SPLIT_DISTRIBUTE"},
		{"no candidates", oneOperator(5, handle(inline, split)), nil, Selector{}, ErrOperatorNotFound, "recoveryMarker"},
		{"unknown class", oneOperator(4, handle(StreamHandle{Kind: KindRelativeFile, Path: "s1", Size: int64(len(foreign))}, finfo)),
			map[string][]byte{"s1": foreign}, Selector{}, ErrUnknownKryoClass, "pipeline.serialization-config"},
		{"truncated file", oneOperator(5, handle(StreamHandle{Kind: KindRelativeFile, Path: "s2", Size: int64(len(good))}, infos)),
			map[string][]byte{"s2": good[:len(good)-3]}, Selector{}, ErrCorrupt, "s2"},
		{"missing file", oneOperator(5, handle(StreamHandle{Kind: KindRelativeFile, Path: "s3", Size: int64(len(good))}, infos)),
			nil, Selector{}, ErrNotFound, "s3"},
		{"stream version", oneOperator(5, handle(StreamHandle{Kind: KindInline, Data: badVersion, Size: int64(len(badVersion))}, infos)),
			nil, Selector{}, ErrUnsupportedVersion, "version 9"},
		{"offset beyond stream", oneOperator(5, handle(inline, []StateMetaInfo{{Name: recoveryMarkerState, Mode: ModeUnion, Offsets: []int64{5000}}})),
			nil, Selector{}, ErrCorrupt, "offset 5000"},
		{"bad hash", oneOperator(5, handle(inline, infos)), nil, Selector{UIDHash: "xyz"}, ErrInvalidSelector, "xyz"},
		{"both selectors", oneOperator(5, handle(inline, infos)), nil, Selector{UID: "a", UIDHash: "b"}, ErrInvalidSelector, ""},
		{"unknown hash", oneOperator(5, handle(inline, infos)), nil, Selector{UIDHash: strings.Repeat("0", 32)}, ErrOperatorNotFound, "states [recoveryMarker]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeCheckpoint(t, dir, c.md)
			for name, b := range c.files {
				must(t, os.WriteFile(filepath.Join(dir, name), b, 0o644))
			}
			_, err := ReadRecoveryMarkers(ctx, LocalStorage{}, dir, c.sel)
			if !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.mention) {
				t.Fatalf("err = %v; want %v mentioning %q", err, c.is, c.mention)
			}
		})
	}
}

func TestReadAmbiguousOperators(t *testing.T) {
	dir := t.TempDir()
	md := &Metadata{Version: 5}
	for _, uid := range []string{"a", "b"} {
		stream, infos := encodeOperatorStream([]listState{{Name: recoveryMarkerState, Mode: ModeUnion,
			Elements: [][]byte{encodeMarker(Marker{Legacy: true, Offsets: map[int32]int64{}}, kryo5)}}}, false)
		md.Operators = append(md.Operators, Operator{ID: OperatorIDFromUID(uid), Name: "op-" + uid, UID: uid, Parallelism: 1,
			Subtasks: []Subtask{{Managed: &OperatorStateHandle{States: infos, Delegate: StreamHandle{Kind: KindInline, Data: stream, Size: int64(len(stream))}}}}})
	}
	writeCheckpoint(t, dir, md)
	_, err := ReadRecoveryMarkers(context.Background(), LocalStorage{}, dir, Selector{})
	if !errors.Is(err, ErrAmbiguousOperator) || !strings.Contains(err.Error(), `"op-a"`) || !strings.Contains(err.Error(), hexID(OperatorIDFromUID("b"))) {
		t.Fatalf("err = %v", err)
	}
	res, err := ReadRecoveryMarkers(context.Background(), LocalStorage{}, dir, Selector{UID: "b"})
	if err != nil || res.OperatorName != "op-b" {
		t.Fatalf("by uid: %v %+v", err, res)
	}
}

func TestReadUnsupportedMetadataVersion(t *testing.T) {
	for _, v := range []int32{1, 2, 8, -1} {
		b := (&dataOutput{}).appendHeader(v)
		_, err := ParseMetadata(b)
		var ve *VersionError
		if !errors.As(err, &ve) || ve.Version != v || !strings.Contains(err.Error(), "supported versions are 3 to 7") {
			t.Errorf("version %d: %v", v, err)
		}
	}
}

func (o *dataOutput) appendHeader(version int32) []byte {
	o.i32(metadataMagic)
	o.i32(version)
	o.i64(1)
	return o.b
}

// Parsing what the encoder wrote gives back the same structure, for every
// version and handle kind.
func TestMetadataEncodeParseRoundTrip(t *testing.T) {
	for version := minMetadataVersion; version <= maxMetadataVersion; version++ {
		md := oneOperator(version,
			Subtask{Index: 0, Managed: &OperatorStateHandle{States: []StateMetaInfo{{Name: "a", Mode: ModeBroadcast, Offsets: []int64{5}}},
				Delegate: StreamHandle{Kind: KindFile, Path: "s3://b/k", Size: 10}}},
			Subtask{Index: 1, Finished: true},
			Subtask{Index: 2, Managed: &OperatorStateHandle{States: []StateMetaInfo{{Name: "b", Mode: ModeUnion, Offsets: []int64{}}},
				Delegate: StreamHandle{Kind: KindSegment, Path: "/p", Start: 3, Size: 4}}},
		)
		md.Operators = append(md.Operators, Operator{ID: [16]byte{1}, FullyFinished: true})
		if version >= 5 {
			md.Operators[1].Name, md.Operators[1].UID = "n", "agent"
		}
		b := encodeMetadata(md)
		got, err := ParseMetadata(b)
		if err != nil {
			t.Fatalf("v%d: %v", version, err)
		}
		md.End = len(b)
		if version >= 4 {
			md.End -= len(savepointProperties()) // parsing stops where the properties start
		}
		if !reflect.DeepEqual(got, md) {
			t.Errorf("v%d:\n got %+v\nwant %+v", version, got, md)
		}
	}
}

// Corruption is reported with the file and the byte offset.
func TestReadCorruptLocations(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	must(t, WriteSavepoint(dir, SavepointSpec{MetadataVersion: 5, OperatorUID: "u", Markers: sampleMarkers(1)}))
	meta := filepath.Join(dir, "_metadata")
	b, err := os.ReadFile(meta)
	must(t, err)
	must(t, os.WriteFile(meta, b[:60], 0o644))
	_, err = ReadRecoveryMarkers(ctx, LocalStorage{}, dir, Selector{})
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.File != meta || ce.Offset <= 0 || ce.Offset > 60 {
		t.Fatalf("truncated _metadata: %v", err)
	}

	// A compressed element whose Kryo bytes are cut short: the error names
	// the element's stream offset and the position inside the decompressed bytes.
	m := encodeMarker(Marker{SchemaVersion: 1, Topic: "t", TopicID: "i", Offsets: map[int32]int64{0: 1}}, kryo5)
	stream, infos := encodeOperatorStream([]listState{{Name: recoveryMarkerState, Mode: ModeUnion, Elements: [][]byte{m[:len(m)-2]}}}, true)
	must(t, os.WriteFile(filepath.Join(dir, "s"), stream, 0o644))
	writeCheckpoint(t, dir, oneOperator(5, Subtask{Managed: &OperatorStateHandle{States: infos,
		Delegate: StreamHandle{Kind: KindRelativeFile, Path: "s", Size: int64(len(stream))}}}))
	_, err = ReadRecoveryMarkers(ctx, LocalStorage{}, dir, Selector{})
	if !errors.As(err, &ce) || ce.File != filepath.Join(dir, "s") || ce.Offset != infos[0].Offsets[0] ||
		!strings.Contains(ce.Reason, "of the decompressed element") {
		t.Fatalf("truncated compressed element: %v", err)
	}
}

// A state file _metadata references but the storage lacks is reported as
// such, not as a checkpoint path that does not exist, and says whether it
// belongs beside _metadata or at an absolute path Flink recorded.
func TestMissingStateFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	stream, infos := agentStream(t, kryo5, []Marker{{SchemaVersion: 1, Topic: "t", TopicID: "i", Offsets: map[int32]int64{0: 1}}}, false)
	size := int64(len(stream))
	gone := filepath.Join(t.TempDir(), "moved-away")
	for _, tc := range []struct {
		handle StreamHandle
		file   string
		inDir  bool
	}{
		{StreamHandle{Kind: KindRelativeFile, Path: "4b1e0f2a", Size: size}, filepath.Join(dir, "4b1e0f2a"), true},
		{StreamHandle{Kind: KindFile, Path: "file:" + gone, Size: size}, gone, false},
	} {
		writeCheckpoint(t, dir, oneOperator(5, Subtask{Managed: &OperatorStateHandle{States: infos, Delegate: tc.handle}}))
		_, err := ReadRecoveryMarkers(ctx, LocalStorage{}, dir, Selector{})
		var me *MissingStateFileError
		if !errors.As(err, &me) || !errors.Is(err, ErrMissingStateFile) || !errors.Is(err, ErrNotFound) ||
			me.File != tc.file || me.Metadata != filepath.Join(dir, metadataFileName) || me.InCheckpointDir != tc.inDir {
			t.Errorf("%s handle: %v (%+v)", tc.handle.Kind, err, me)
		}
	}
}
