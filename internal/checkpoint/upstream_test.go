package checkpoint

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// These tests read snapshots written by real Flink releases (Flink's own
// test resources). None holds Kryo recovery markers, so they exercise path
// resolution, metadata parsing and the generic union-state reader; the
// elements are decoded with the serializers those jobs used.

var upstreamCheckpoints = []struct {
	dir     string
	version int
}{
	{"new-stateful-udf-migration-itcase-flink1.20-hashmap-checkpoint", 4},
	{"new-stateful-udf-migration-itcase-flink1.20-rocksdb-checkpoint", 4},
	{"new-stateful-udf-migration-itcase-flink2.0-hashmap-checkpoint", 5},
	{"new-stateful-udf-migration-itcase-flink2.0-rocksdb-savepoint", 5},
}

// flinkStringValue decodes one element written by Flink's StringSerializer
// (StringValue.writeString: varint length+1, then each char as a varint) and
// reports how many bytes it used.
func flinkStringValue(b []byte) (string, int, error) {
	off := 0
	varint := func() (int, error) {
		v, shift := 0, 0
		for {
			if off >= len(b) || shift > 28 {
				return 0, fmt.Errorf("truncated varint at %d", off)
			}
			c := b[off]
			off++
			v |= int(c&0x7F) << shift
			if c < 0x80 {
				return v, nil
			}
			shift += 7
		}
	}
	n, err := varint()
	if err != nil || n == 0 {
		return "", off, fmt.Errorf("bad length (null string?): %v", err)
	}
	var sb strings.Builder
	for i := 0; i < n-1; i++ {
		c, err := varint()
		if err != nil {
			return "", off, err
		}
		sb.WriteRune(rune(c))
	}
	return sb.String(), off, nil
}

func TestUpstreamUnionSourceState(t *testing.T) {
	ctx := context.Background()
	for _, c := range upstreamCheckpoints {
		t.Run(c.dir, func(t *testing.T) {
			loc, md, err := loadMetadata(ctx, LocalStorage{}, filepath.Join(upstream, c.dir))
			if err != nil {
				t.Fatal(err)
			}
			if md.Version != c.version {
				t.Fatalf("metadata version %d, want %d", md.Version, c.version)
			}
			var union []*Operator
			for i := range md.Operators {
				op := &md.Operators[i]
				if op.UID != "" && OperatorIDFromUID(op.UID) != op.ID {
					t.Errorf("operator %s: stored uid %q hashes to %x", op.IDHex(), op.UID, OperatorIDFromUID(op.UID))
				}
				if holdsUnionState(op, "source-state") {
					union = append(union, op)
				}
			}
			if len(union) != 1 {
				t.Fatalf("%d operators hold UNION source-state, want 1", len(union))
			}
			op := union[0]
			els, err := stateElements(ctx, LocalStorage{}, loc, op, "source-state")
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			for _, sub := range op.Subtasks {
				want += len(sub.Managed.State("source-state").Offsets)
			}
			if len(els) != want || want == 0 {
				t.Fatalf("%d elements, handles record %d offsets", len(els), want)
			}
			for _, e := range els {
				if e.Compressed || !strings.Contains(e.Stream, c.dir) {
					t.Errorf("element at %d: stream %s compressed=%v", e.Offset, e.Stream, e.Compressed)
				}
				s, used, err := flinkStringValue(e.Data)
				if err != nil || used != len(e.Data) || s == "" {
					t.Errorf("element at %d (%d bytes): decoded %q using %d bytes, err %v", e.Offset, len(e.Data), s, used, err)
				}
			}
		})
	}
}

// Subtasks must come out in ascending index. In these jobs each subtask
// stores the Java-serialized string uid+index, which makes order visible.
func TestUpstreamInlineOperatorState(t *testing.T) {
	ctx := context.Background()
	dirs, err := filepath.Glob(filepath.Join(upstream, "operatorstate", "*"))
	if err != nil || len(dirs) != 3 {
		t.Fatalf("operatorstate fixtures: %v %v", dirs, err)
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			// The file path form, not the directory, is accepted too.
			loc, md, err := loadMetadata(ctx, LocalStorage{}, filepath.Join(dir, "_metadata"))
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			for i := range md.Operators {
				op := &md.Operators[i]
				if len(stateNames(op)) == 0 {
					continue
				}
				els, err := stateElements(ctx, LocalStorage{}, loc, op, "_default_")
				if err != nil {
					t.Fatal(err)
				}
				if len(els) != len(op.Subtasks) {
					t.Fatalf("operator %s: %d elements for %d subtasks", op.IDHex(), len(els), len(op.Subtasks))
				}
				for j, e := range els {
					if !strings.HasPrefix(e.Stream, "inline state in ") {
						t.Errorf("stream %q, want an inline handle", e.Stream)
					}
					s, err := javaSerializedString(e.Data)
					if err != nil {
						t.Fatalf("operator %s subtask %d: %v", op.IDHex(), e.Subtask, err)
					}
					if int(e.Subtask) != j || !strings.HasSuffix(s, strconv.Itoa(j)) {
						t.Errorf("operator %s element %d: subtask %d holds %q", op.IDHex(), j, e.Subtask, s)
					}
					if op.UID != "" && s != op.UID+strconv.Itoa(j) {
						t.Errorf("operator uid %q subtask %d holds %q", op.UID, j, s)
					}
					checked++
				}
			}
			if checked == 0 {
				t.Fatal("no operator state elements found")
			}
		})
	}
}

// javaSerializedString decodes an ObjectOutputStream holding one String
// (AC ED 00 05, TC_STRING 0x74, u16 length, bytes) that must fill b exactly.
func javaSerializedString(b []byte) (string, error) {
	if len(b) < 7 || binary.BigEndian.Uint32(b) != 0xACED0005 || b[4] != 0x74 {
		return "", fmt.Errorf("not a Java-serialized string: % x", b)
	}
	n := int(binary.BigEndian.Uint16(b[5:]))
	if 7+n != len(b) {
		return "", fmt.Errorf("string of %d bytes in a %d-byte element", n, len(b))
	}
	return string(b[7:]), nil
}

// Without recovery markers the reader must refuse and say what it saw.
func TestUpstreamHasNoRecoveryMarkers(t *testing.T) {
	for _, c := range upstreamCheckpoints {
		_, err := ReadRecoveryMarkers(context.Background(), LocalStorage{}, filepath.Join(upstream, c.dir), Selector{})
		if !errors.Is(err, ErrOperatorNotFound) || !strings.Contains(err.Error(), "source-state") {
			t.Errorf("%s: %v", c.dir, err)
		}
	}
	// Selecting the source by its uid finds it, and then the state is missing.
	_, err := ReadRecoveryMarkers(context.Background(), LocalStorage{},
		filepath.Join(upstream, upstreamCheckpoints[2].dir), Selector{UID: "CheckpointingSource2"})
	if !errors.Is(err, ErrStateNotFound) || !strings.Contains(err.Error(), "[source-state]") {
		t.Errorf("by uid: %v", err)
	}
}
