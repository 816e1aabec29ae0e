package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// propertiesMutations are the changes tried on every byte of a properties
// block: single bits at either end, every bit, and the two values a
// boolean can take.
var propertiesMutations = []struct {
	name string
	f    func(byte) byte
}{
	{"^0x01", func(b byte) byte { return b ^ 0x01 }},
	{"^0x80", func(b byte) byte { return b ^ 0x80 }},
	{"^0xff", func(b byte) byte { return b ^ 0xFF }},
	{"=0x00", func(byte) byte { return 0x00 }},
	{"=0x01", func(byte) byte { return 0x01 }},
}

// TestPropertiesSweepRefusesWhatFlinkRefuses changes every byte of every
// distinct trailing properties block real Flink wrote (1.20 to 2.3, and
// the upstream corpus back to 1.16) in every way of propertiesMutations.
// Each changed file is refused with an error that says where and what, or
// reads as exactly the properties Flink wrote, with one argued exception:
// a boolean byte turned from 0 to 1 or back can make other properties that
// Flink itself creates (forced, or another retention policy's discard
// flags). Such a file is well-formed and Flink loads it as those
// properties; no reader can tell it from an original without a checksum,
// and none of those flags changes which recovery markers are read.
func TestPropertiesSweepRefusesWhatFlinkRefuses(t *testing.T) {
	started := time.Now()
	type block struct {
		name  string
		b     []byte
		start int
		want  *checkpointProperties
	}
	seen := map[string]bool{}
	var blocks []block
	add := func(name string, b []byte) {
		md, err := ParseMetadata(b)
		must(t, err)
		if md.Version < 4 || seen[string(b[md.End:])] {
			return
		}
		seen[string(b[md.End:])] = true
		want, err := readMetadataProperties(b, md.End)
		must(t, err)
		blocks = append(blocks, block{name, b, md.End, want})
	}
	for _, f := range realMetadataFiles(t) {
		add(f.name, f.b)
	}
	for name, b := range corpusMetadata(t) {
		add("corpus/"+name, b)
	}
	if len(blocks) < 8 {
		t.Fatalf("only %d distinct properties blocks", len(blocks))
	}
	kinds := map[string]bool{}
	for _, bl := range blocks {
		if bl.want != nil {
			kinds[bl.want.checkpointType.name] = true
		}
		booleansAt := bytes.Index(bl.b[bl.start:], []byte("\x78\x70")) // the end of CheckpointProperties' descriptor, no superclass
		refused, tolerated := 0, 0
		for p := bl.start; p < len(bl.b); p++ {
			for _, m := range propertiesMutations {
				c := bytes.Clone(bl.b)
				if c[p] = m.f(c[p]); c[p] == bl.b[p] {
					continue
				}
				got, err := readMetadataProperties(c, bl.start)
				if p%16 == 0 { // a sample through the whole reader, which a plan is derived from
					if _, whole := ParseMetadata(c); (whole == nil) != (err == nil) {
						t.Errorf("%s: byte %d %s: ParseMetadata says %v, the properties reader %v", bl.name, p, m.name, whole, err)
					}
				}
				if err != nil {
					var me *MetadataEndError
					if !errors.As(err, &me) || !errors.Is(err, ErrCorrupt) || me.PropertiesAt != int64(bl.start) ||
						me.Offset < int64(bl.start) || me.Offset > int64(len(c)) || me.Reason == "" {
						t.Errorf("%s: byte %d %s: imprecise error %v", bl.name, p, m.name, err)
					}
					refused++
					continue
				}
				switch {
				case bl.want == nil || got == nil:
					t.Errorf("%s: byte %d %s: read as %v, want %v", bl.name, p, m.name, got, bl.want)
				case *got == *bl.want:
				case booleansAt >= 0 && p-bl.start >= booleansAt+2 && p-bl.start < booleansAt+2+7 && got.madeByFlink():
					tolerated++
				default:
					t.Errorf("%s: byte %d (%#02x) %s: read as %v, Flink wrote %v", bl.name, p, bl.b[p], m.name, got, bl.want)
				}
			}
		}
		t.Logf("%s: %d bytes of properties, %d changes refused, %d turned into other properties Flink writes", bl.name, len(bl.b)-bl.start, refused, tolerated)
	}
	for _, k := range []string{"Checkpoint", "Savepoint", "Suspend Savepoint"} {
		if !kinds[k] {
			t.Errorf("no fixture holds a %s", k)
		}
	}
	// How long the sweep takes is logged, not asserted: on a loaded machine
	// it varies tenfold. A mutation that made the reader loop or allocate
	// without bound would not end here at all, and go test's timeout would
	// fail it.
	t.Logf("the sweep took %v", time.Since(started).Round(time.Millisecond))
}

// The error names the file, the byte and the class whose
// serialVersionUID differs, through the whole reader.
func TestPropertiesWrongUIDNamesFileAndClass(t *testing.T) {
	dir, meta, b := writtenSavepoint(t)
	name := []byte(savepointTypeClass.name)
	at := bytes.Index(b, name) - 3 // TC_CLASSDESC and the name's length
	b[at+3+len(name)+7] ^= 0x01    // the last byte of its serialVersionUID
	must(t, os.WriteFile(meta, b, 0o644))
	_, err := ReadRecoveryMarkers(context.Background(), LocalStorage{}, dir, Selector{})
	var me *MetadataEndError
	if !errors.As(err, &me) || me.File != meta || me.Offset != int64(at) || me.Problem != MalformedProperties ||
		!strings.Contains(err.Error(), "unexpected serialVersionUID 0xa087d308a45814b9 for org.apache.flink.runtime.checkpoint.SavepointType (Flink writes 0xa087d308a45814b8)") {
		t.Fatalf("%v", err)
	}
}

// The class table writes, byte for byte, every block real Flink wrote:
// writer and reader share one description of Flink's classes.
func TestPropertiesTableWritesFlinkBytes(t *testing.T) {
	n := 0
	for _, f := range realMetadataFiles(t) {
		md, err := ParseMetadata(f.b)
		must(t, err)
		p, err := readMetadataProperties(f.b, md.End)
		must(t, err)
		if p == nil {
			continue
		}
		if got := javaSerialize(p.javaObject()); !bytes.Equal(got, f.b[md.End:]) {
			t.Errorf("%s: %v written as\n% x\nFlink wrote\n% x", f.name, p, got, f.b[md.End:])
		}
		n++
	}
	if n == 0 {
		t.Fatal("no properties read")
	}
}
