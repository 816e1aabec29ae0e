package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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
// Each changed file is refused with an error that says where and what (an
// altered part at the changed byte, and what Flink's loader does with it:
// checkAlteredNamesTheByte), or reads as exactly the properties Flink
// wrote, with one argued exception:
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
					checkAlteredNamesTheByte(t, fmt.Sprintf("%s: byte %d (%#02x) %s", bl.name, p, bl.b[p], m.name), me, p, c[p],
						landmarks(bl.b, bl.start, booleansAt))
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

// propertiesLandmarks are the bytes of a properties block whose changes
// Flink's loader does not refuse (Java's deserialization never checks
// them): the type signatures of object fields, the name of java.lang.Enum
// above each enum, and the boolean values.
type propertiesLandmarks struct {
	signatures, enumBase map[int]bool
	booleans             [2]int // [first, end)
}

func landmarks(b []byte, start, booleansAt int) propertiesLandmarks {
	l := propertiesLandmarks{signatures: map[int]bool{}, enumBase: map[int]bool{}, booleans: [2]int{-1, -1}}
	mark := func(set map[int]bool, text string) {
		for i := start; ; {
			j := bytes.Index(b[i:], []byte(text))
			if j < 0 {
				return
			}
			for k := range len(text) {
				set[i+j+k] = true
			}
			i += j + len(text)
		}
	}
	for _, c := range []*javaClass{checkpointPropertiesClass, savepointTypeClass, checkpointTypeClass} {
		for _, f := range c.fields {
			if f.signature != "" {
				mark(l.signatures, f.signature)
			}
		}
	}
	mark(l.enumBase, javaEnumBase.name)
	if booleansAt >= 0 {
		l.booleans = [2]int{start + booleansAt + 2, start + booleansAt + 2 + 7}
	}
	return l
}

// checkAlteredNamesTheByte holds an error for a block changed at byte p
// (now holding changed) to what the issue asks of it: an altered part is
// named with the byte that was changed, never the start of the structure
// holding it; the message claims Flink refuses only what Java's
// deserialization refuses, and says Flink loads what it never checks.
func checkAlteredNamesTheByte(t *testing.T, name string, me *MetadataEndError, p int, changed byte, l propertiesLandmarks) {
	t.Helper()
	refuses := strings.Contains(me.Reason, "Flink fails to load")
	loads := strings.Contains(me.Reason, "Flink would load")
	if refuses != (me.Flink == FlinkRefuses) || loads != (me.Flink == FlinkLoads) {
		t.Errorf("%s: verdict %d but the message says %q", name, me.Flink, me.Reason)
	}
	switch me.Problem {
	case AlteredProperties:
	case MalformedProperties, EndsEarly:
		if me.Flink != FlinkRefuses {
			t.Errorf("%s: a stream Java cannot read is not reported as refused by Flink: %v", name, me.Reason)
		}
		return
	default:
		return
	}
	if !strings.Contains(me.Reason, "were altered after Flink wrote them") || me.Part == "" ||
		!strings.Contains(me.Reason, fmt.Sprintf("the %s at byte %d ", me.Part, me.Offset)) {
		t.Errorf("%s: the altered part and its byte are not named: %v", name, me.Reason)
	}
	if me.Offset != int64(p) && !strings.Contains(me.Reason, fmt.Sprintf("byte %d (", p)) {
		t.Errorf("%s: reported at byte %d: %v", name, me.Offset, me.Reason)
	}
	switch {
	case l.signatures[p], l.enumBase[p], p >= l.booleans[0] && p < l.booleans[1] && changed > 1:
		if me.Flink != FlinkLoads {
			t.Errorf("%s: Java never checks this byte, so Flink loads the file, but the error says otherwise: %v", name, me.Reason)
		}
	}
}

// The error names the file, the changed byte itself (not the class
// descriptor holding it) and the part it belongs to, through the whole
// reader, and says that Flink refuses this change too.
func TestPropertiesWrongUIDNamesFileAndClass(t *testing.T) {
	dir, meta, b := writtenSavepoint(t)
	name := []byte(savepointTypeClass.name)
	at := bytes.Index(b, name) + len(name) + 7 // the last byte of its serialVersionUID
	b[at] ^= 0x01
	must(t, os.WriteFile(meta, b, 0o644))
	_, err := ReadRecoveryMarkers(context.Background(), LocalStorage{}, dir, Selector{})
	var me *MetadataEndError
	if !errors.As(err, &me) || me.File != meta || me.Offset != int64(at) || me.Problem != AlteredProperties || me.Flink != FlinkRefuses ||
		me.Part != "serialVersionUID of org.apache.flink.runtime.checkpoint.SavepointType" ||
		!strings.Contains(err.Error(), fmt.Sprintf("were altered after Flink wrote them: the serialVersionUID of org.apache.flink.runtime.checkpoint.SavepointType at byte %d is 0xa087d308a45814b9 where Flink writes 0xa087d308a45814b8; Java's deserialization refuses this", at)) {
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
