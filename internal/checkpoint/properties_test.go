package checkpoint

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
	"sort"
	"testing"
)

// realMetadata is a _metadata written by a real Flink release, with what
// reading it needs.
type realMetadata struct {
	name  string
	path  string  // the _metadata file
	store Storage // reads the state files it references
	sel   Selector
	b     []byte
}

// realMetadataFiles lists every generated fixture (Flink 1.20 to 2.3) and
// the upstream snapshots that have state files beside them.
func realMetadataFiles(t *testing.T) []realMetadata {
	t.Helper()
	oracles, err := filepath.Glob(filepath.Join(generatedFixtures, "*", "oracle.json"))
	if err != nil || len(oracles) == 0 {
		t.Fatalf("no generated fixtures under %s: %v", generatedFixtures, err)
	}
	var out []realMetadata
	for _, op := range oracles {
		raw, err := os.ReadFile(op)
		must(t, err)
		var o oracle
		must(t, json.Unmarshal(raw, &o))
		dir := filepath.Dir(op)
		out = append(out, realMetadata{
			name:  filepath.Base(dir),
			path:  filepath.Join(dir, o.SnapshotPath, metadataFileName),
			store: movedStorage{from: o.OriginalDir, to: dir},
			sel:   Selector{UIDHash: o.OperatorUIDHash},
		})
	}
	for _, c := range upstreamCheckpoints {
		out = append(out, realMetadata{name: c.dir, path: filepath.Join(upstream, c.dir, metadataFileName), store: LocalStorage{}})
	}
	dirs, _ := filepath.Glob(filepath.Join(upstream, "operatorstate", "*"))
	for _, d := range dirs {
		out = append(out, realMetadata{name: "operatorstate/" + filepath.Base(d), path: filepath.Join(d, metadataFileName), store: LocalStorage{}})
	}
	for i := range out {
		out[i].b, err = os.ReadFile(out[i].path)
		must(t, err)
	}
	return out
}

// corpusMetadata returns the upstream corpus files of version 3 and later.
func corpusMetadata(t *testing.T) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(upstream, "metadata-corpus", "*"))
	if err != nil || len(files) < 300 {
		t.Fatalf("found %d corpus files in %s: %v", len(files), upstream, err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		must(t, err)
		if binary.BigEndian.Uint32(b[4:8]) >= minMetadataVersion {
			out[filepath.Base(f)] = b
		}
	}
	return out
}

// replacedMetadata serves other bytes for one _metadata file.
type replacedMetadata struct {
	Storage
	path string
	b    []byte
}

func (s replacedMetadata) ReadFile(ctx context.Context, p string) ([]byte, error) {
	if p == s.path {
		return s.b, nil
	}
	return s.Storage.ReadFile(ctx, p)
}

// Cut anywhere inside the trailing checkpoint properties, a real Flink
// _metadata must fail to read, naming where it ends, and yield no markers:
// Flink refuses such a file with an EOFException.
func TestTruncatedPropertiesRefused(t *testing.T) {
	ctx := context.Background()
	for _, f := range realMetadataFiles(t) {
		t.Run(f.name, func(t *testing.T) {
			md, err := ParseMetadata(f.b)
			if err != nil {
				t.Fatal(err)
			}
			if md.Version < 4 {
				t.Fatalf("metadata version %d has no checkpoint properties", md.Version)
			}
			start, end := md.End, len(f.b)
			t.Logf("version %d: checkpoint properties at bytes %d to %d (%d bytes); cut at lengths %d..%d",
				md.Version, start, end-1, end-start, start, end-1)
			for n := start; n < end; n++ {
				res, err := ReadRecoveryMarkers(ctx, replacedMetadata{f.store, f.path, f.b[:n]}, f.path, f.sel)
				var me *MetadataEndError
				if res != nil || !errors.Is(err, ErrIncompleteMetadata) || !errors.As(err, &me) ||
					me.Problem != EndsEarly || me.Offset != int64(n) || me.PropertiesAt != int64(start) || me.File != f.path {
					t.Fatalf("cut to %d bytes: result %v, error %v", n, res, err)
				}
			}
		})
	}
}

// The corpus holds the other CheckpointProperties Flink writes (suspend
// savepoints, Flink 1.16 to 2.1, a null from the State Processor API).
func TestTruncatedCorpusPropertiesRefused(t *testing.T) {
	ranges := map[string]int{}
	for name, b := range corpusMetadata(t) {
		md, err := ParseMetadata(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if md.Version == 3 {
			continue // no properties; see TestVersion3EndsWithOperatorStates
		}
		// The operator states parse once; the check runs on each cut.
		for n := md.End; n < len(b); n++ {
			var me *MetadataEndError
			if err := checkMetadataEnd(b[:n], md.Version, md.End); !errors.As(err, &me) || me.Problem != EndsEarly || me.Offset != int64(n) {
				t.Fatalf("%s cut to %d bytes: %v", name, n, err)
			}
		}
		if _, err := ParseMetadata(b[:len(b)-1]); !errors.Is(err, ErrIncompleteMetadata) {
			t.Errorf("%s one byte short: %v", name, err)
		}
		ranges[describeBlock(b[md.End:])]++
	}
	t.Logf("checkpoint properties blocks cut at every byte, by kind: %v", ranges)
}

// describeBlock names a properties block by its length and a distinctive
// string, for the log.
func describeBlock(block []byte) string {
	for _, kind := range []string{"FORWARD_BACKWARD", "SUSPEND", "TERMINATE", "NATIVE", "CANONICAL"} {
		if bytes.Contains(block, []byte(kind)) {
			return fmt.Sprintf("%s/%d", kind, len(block))
		}
	}
	return fmt.Sprintf("other/%d", len(block))
}

// One byte more than Flink wrote is refused too: Flink would ignore it, but
// no Flink release writes one, so the file is not what Flink wrote.
func TestBytesAfterPropertiesRefused(t *testing.T) {
	check := func(name string, b []byte) {
		md, err := ParseMetadata(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		longer := append(b[:len(b):len(b)], 0)
		_, err = ParseMetadata(longer)
		var me *MetadataEndError
		if !errors.As(err, &me) || me.Problem != TrailingBytes || me.Offset != int64(len(b)) {
			t.Errorf("%s with a byte appended: %v", name, err)
		}
		if want := int64(md.End); md.Version == 3 {
			if me != nil && me.PropertiesAt != -1 {
				t.Errorf("%s: version 3 error says properties start at %d", name, me.PropertiesAt)
			}
		} else if me != nil && me.PropertiesAt != want {
			t.Errorf("%s: properties start at %d, error says %d", name, want, me.PropertiesAt)
		}
	}
	for _, f := range realMetadataFiles(t) {
		check(f.name, f.b)
	}
	for name, b := range corpusMetadata(t) {
		check(name, b)
	}
}

// Version 3 (Flink 1.11 to 1.15) has no checkpoint properties: the corpus
// files end with the operator states, so a cut file fails in them.
func TestVersion3EndsWithOperatorStates(t *testing.T) {
	n := 0
	for name, b := range corpusMetadata(t) {
		if binary.BigEndian.Uint32(b[4:8]) != 3 {
			continue
		}
		n++
		md, err := ParseMetadata(b)
		if err != nil || md.End != len(b) {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := ParseMetadata(b[:len(b)-1]); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s one byte short: %v", name, err)
		}
	}
	if n == 0 {
		t.Fatal("no version 3 files in the corpus")
	}
}

// A changed byte inside the properties either breaks the stream, and the
// error says where, or lies in a value the grammar leaves open (string
// contents, serialVersionUIDs, booleans). Every distinct block in the
// fixtures is tried with every byte inverted.
func TestCorruptPropertiesRefused(t *testing.T) {
	type block struct {
		name    string
		b       []byte
		version int
		start   int
	}
	seen := map[string]bool{}
	var blocks []block
	add := func(name string, b []byte) {
		md, err := ParseMetadata(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if md.Version >= 4 && !seen[string(b[md.End:])] {
			seen[string(b[md.End:])] = true
			blocks = append(blocks, block{name, b, md.Version, md.End})
		}
	}
	for _, f := range realMetadataFiles(t) {
		add(f.name, f.b)
	}
	names := make([]string, 0)
	corpus := corpusMetadata(t)
	for name := range corpus {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		add(name, corpus[name])
	}
	if len(blocks) < 5 {
		t.Fatalf("only %d distinct properties blocks", len(blocks))
	}
	for _, bl := range blocks {
		free := map[int]bool{}
		d := &dataInput{b: bl.b, off: bl.start}
		r := &javaStreamReader{d: d, freeBytes: func(off, n int) {
			for i := off; i < off+n; i++ {
				free[i] = true
			}
		}}
		r.readJavaStreamObject()
		must(t, d.err)
		refused, accepted := 0, 0
		for p := bl.start; p < len(bl.b); p++ {
			c := bytes.Clone(bl.b)
			c[p] ^= 0xFF
			err := checkMetadataEnd(c, bl.version, bl.start)
			if err == nil {
				if !free[p] {
					t.Errorf("%s: inverting byte %d (%#02x, in the grammar's structure) still reads", bl.name, p, bl.b[p])
				}
				accepted++
				continue
			}
			var me *MetadataEndError
			if !errors.As(err, &me) || me.PropertiesAt != int64(bl.start) || me.Offset < int64(bl.start) || me.Offset > int64(len(c)) {
				t.Errorf("%s: inverting byte %d: %v", bl.name, p, err)
			}
			refused++
		}
		t.Logf("%s (%d bytes of properties from byte %d): %d inversions refused, %d in free values accepted",
			bl.name, len(bl.b)-bl.start, bl.start, refused, accepted)
	}
}

// The writer's savepoints pass the check, and are refused when cut.
func TestWriterPropertiesComplete(t *testing.T) {
	for _, version := range []int{4, 5} {
		dir := t.TempDir()
		must(t, WriteSavepoint(dir, SavepointSpec{MetadataVersion: version, OperatorUID: "agent", Markers: sampleMarkers(2)}))
		b, err := os.ReadFile(filepath.Join(dir, metadataFileName))
		must(t, err)
		md, err := ParseMetadata(b)
		if err != nil {
			t.Fatalf("v%d: %v", version, err)
		}
		if got := b[md.End:]; !bytes.Equal(got, savepointProperties()) {
			t.Fatalf("v%d: file ends with % x", version, got)
		}
		for n := md.End; n < len(b); n++ {
			if _, err := ParseMetadata(b[:n]); !errors.Is(err, ErrIncompleteMetadata) {
				t.Fatalf("v%d cut to %d bytes: %v", version, n, err)
			}
		}
	}
}

// writtenSavepoint writes a one-marker savepoint and returns its
// directory, its _metadata path and that file's bytes.
func writtenSavepoint(t *testing.T) (dir, meta string, b []byte) {
	t.Helper()
	dir = t.TempDir()
	must(t, WriteSavepoint(dir, SavepointSpec{MetadataVersion: 5, OperatorUID: "agent", Markers: sampleMarkers(1)}))
	meta = filepath.Join(dir, metadataFileName)
	b, err := os.ReadFile(meta)
	must(t, err)
	return dir, meta, b
}

// The error names the file and the byte, through the whole reader.
func TestIncompleteMetadataNamesFile(t *testing.T) {
	dir, meta, b := writtenSavepoint(t)
	must(t, os.WriteFile(meta, b[:len(b)-1], 0o644))
	_, err := ReadRecoveryMarkers(context.Background(), LocalStorage{}, dir, Selector{})
	var me *MetadataEndError
	if !errors.As(err, &me) || me.File != meta || me.Offset != int64(len(b)-1) || me.Problem != EndsEarly ||
		!errors.Is(err, ErrCorrupt) || errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%v", err)
	}
}
