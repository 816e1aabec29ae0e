package checkpoint

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// The writer's Flink-facing bytes, compared with bytes real Flink wrote.
// scripts/check-writer-with-flink.sh proves the whole savepoint against
// Flink; these tests pin each part to Flink's own output and run anywhere.

// generatedSnapshots lists the real-Flink fixtures under testdata/generated
// with their oracle. It returns none when the fixtures are absent;
// TestGeneratedFixturesMatchOracle fails for that.
func generatedSnapshots(t *testing.T) map[string]oracle {
	t.Helper()
	out := map[string]oracle{}
	_ = filepath.WalkDir(generatedFixtures, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "oracle.json" {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var o oracle
		if err := json.Unmarshal(raw, &o); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[filepath.Join(filepath.Dir(p), o.SnapshotPath)] = o
		return nil
	})
	return out
}

func TestSavepointPropertiesAreFlinks(t *testing.T) {
	want := savepointProperties()
	paths := []string{
		upstream + "/operatorstate/nonKeyed-flink1.20",
		upstream + "/operatorstate/nonKeyed-flink2.0",
		upstream + "/new-stateful-udf-migration-itcase-flink2.0-rocksdb-savepoint",
	}
	for snapshot, o := range generatedSnapshots(t) {
		if o.Kind == "savepoint" && o.Format == "canonical" {
			paths = append(paths, snapshot)
		}
	}
	for _, p := range paths {
		_, md, err := loadMetadata(context.Background(), LocalStorage{}, p)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(filepath.Join(p, "_metadata"))
		if err != nil {
			t.Fatal(err)
		}
		if got := raw[md.End:]; !bytes.Equal(got, want) {
			t.Errorf("%s: Flink's checkpoint properties\n%x\nours\n%x", p, got, want)
		}
	}
}

// Every state meta info in the agent operator's streams, as Flink 1.20 and
// 2.x wrote them, equals what encodeOperatorStream writes for that state:
// the Kryo and String serializer snapshots are the same in every line.
func TestOperatorStateHeaderIsFlinks(t *testing.T) {
	ctx := context.Background()
	serializers := map[string]elementSerializer{
		recoveryMarkerState:     kryoObjectSerializer,
		"currentProcessingKeys": kryoObjectSerializer,
		"identifier_state":      stringSerializer,
	}
	snapshots := generatedSnapshots(t)
	if len(snapshots) == 0 {
		t.Fatal("no real-Flink fixtures under " + generatedFixtures + ": run fixturegen/flink/generate.sh")
	}
	checked := map[string]int{}
	for snapshot, o := range snapshots {
		store := movedStorage{from: o.OriginalDir, to: filepath.Dir(snapshot)}
		loc, md, err := loadMetadata(ctx, store, snapshot)
		if err != nil {
			t.Fatal(err)
		}
		for i := range md.Operators {
			op := &md.Operators[i]
			if !holdsUnionState(op, recoveryMarkerState) {
				continue
			}
			for _, sub := range op.Subtasks {
				if sub.Managed == nil || sub.Managed.State(recoveryMarkerState) == nil {
					continue
				}
				s, err := openStream(ctx, store, loc, sub.Managed.Delegate)
				if err != nil {
					t.Fatal(err)
				}
				b, err := s.read(ctx, store, 0, min(s.size, 64<<10))
				if err != nil {
					t.Fatal(err)
				}
				if v := binary.BigEndian.Uint32(b); v != maxProxyVersion || b[4] > 1 {
					t.Fatalf("%s subtask %d: header %x", snapshot, sub.Index, b[:5])
				}
				n := int(binary.BigEndian.Uint16(b[5:]))
				pos := 7
				for range n {
					name := string(b[pos+2 : pos+2+int(binary.BigEndian.Uint16(b[pos:]))])
					ser, ok := serializers[name]
					info := sub.Managed.State(name)
					if !ok || info == nil {
						t.Fatalf("%s subtask %d: unexpected state %q", snapshot, sub.Index, name)
					}
					ours := &dataOutput{}
					ours.stateMetaInfo(listState{Name: name, Mode: info.Mode, Serializer: ser})
					if !bytes.HasPrefix(b[pos:], ours.b) {
						t.Fatalf("Flink %s, %s subtask %d, state %q:\nFlink %x\nours  %x",
							o.FlinkVersion, snapshot, sub.Index, name, b[pos:min(len(b), pos+len(ours.b))], ours.b)
					}
					pos += len(ours.b)
					checked[o.FlinkVersion]++
				}
				if broadcast := binary.BigEndian.Uint16(b[pos:]); broadcast != 0 {
					t.Fatalf("%s subtask %d: %d broadcast states", snapshot, sub.Index, broadcast)
				}
			}
		}
	}
	t.Logf("state meta infos equal to Flink's, per Flink version: %v", checked)
}

var uuidForm = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// Flink merges inline handles with equal names when it redistributes union
// state (ByteStreamStateHandle.equals compares names), so each needs its own.
func TestPlaceStreamNamesAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, toFile := range []bool{false, false, true} {
		h, err := placeStream(t.TempDir(), []byte{1}, toFile)
		if err != nil {
			t.Fatal(err)
		}
		if !uuidForm.MatchString(h.Path) || seen[h.Path] {
			t.Fatalf("handle name %q: not a fresh UUID (seen %v)", h.Path, seen)
		}
		seen[h.Path] = true
	}
}
