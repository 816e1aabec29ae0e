package diagnostics

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

// The errors below come from the real reader, so the advice is checked
// against what it actually reports.

// savepointDir writes a savepoint with two subtasks whose state streams are
// files beside _metadata, and returns it with the names of those files.
func savepointDir(t *testing.T) (dir string, stateFiles []string) {
	t.Helper()
	dir = t.TempDir()
	marker := checkpoint.Marker{SchemaVersion: 1, Topic: "orders-action-state", TopicID: "q1Yw3mZ7QGu3c8m0b7o5Zg", Offsets: map[int32]int64{0: 5}}
	err := checkpoint.WriteSavepoint(dir, checkpoint.SavepointSpec{MetadataVersion: 5, CheckpointID: 3, OperatorUID: "agent",
		Markers: [][]checkpoint.Marker{{marker}, {marker}}, StateFiles: true})
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "_metadata" {
			stateFiles = append(stateFiles, filepath.Join(dir, e.Name()))
		}
	}
	if len(stateFiles) != 2 {
		t.Fatalf("state files %v, want 2", stateFiles)
	}
	return dir, stateFiles
}

func readErr(t *testing.T, dir string, sel checkpoint.Selector) error {
	t.Helper()
	_, err := checkpoint.ReadRecoveryMarkers(context.Background(), checkpoint.LocalStorage{}, dir, sel)
	if err == nil {
		t.Fatal("the checkpoint was read; the test needs a failure")
	}
	return err
}

// A missing state file is not a wrong checkpoint_path: the diagnostic says
// the checkpoint is incomplete and names the file.
func TestCheckpointStateFileMissing(t *testing.T) {
	dir, files := savepointDir(t)
	if err := os.Remove(files[1]); err != nil {
		t.Fatal(err)
	}
	doing := fmt.Sprintf("reading recovery markers from %q", dir)
	err := readErr(t, dir, checkpoint.Selector{})
	d := FromCheckpointError(doing, err)
	assertShapeOf(t, d, doing, "Checkpoint State File Missing", "The checkpoint is incomplete: its _metadata ("+filepath.Join(dir, "_metadata")+
		") references the state file "+files[1]+", which does not exist.", err)
	for _, wrong := range []string{"checkpoint_path", "path_rewrite", files[0]} {
		if strings.Contains(strings.TrimSuffix(d.Detail(), err.Error()), wrong) {
			t.Errorf("advice mentions %q:\n%s", wrong, d.Detail())
		}
	}
}

// A file named by the absolute path Flink recorded is also missing when the
// checkpoint was moved: the advice adds path_rewrite.
func TestCheckpointStateFileMissingOutsideCheckpoint(t *testing.T) {
	err := fmt.Errorf("operator 0a subtask 1: %w", &checkpoint.MissingStateFileError{
		Metadata: "/ckpt/job/chk-7/_metadata", File: "/old/ckpt/job/shared/9f2c", Err: os.ErrNotExist})
	d := FromCheckpointError("reading recovery markers", err)
	assertShapeOf(t, d, "reading recovery markers", "Checkpoint State File Missing", "storage.path_rewrite", err)
	if !strings.Contains(d.Detail(), "references the state file /old/ckpt/job/shared/9f2c") {
		t.Errorf("detail:\n%s", d.Detail())
	}
}

// A _metadata cut short, damaged at its end, or longer than Flink wrote
// gives no plan, and the diagnostic says where.
func TestCheckpointMetadataIncomplete(t *testing.T) {
	dir, _ := savepointDir(t)
	meta := filepath.Join(dir, "_metadata")
	whole, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	props := bytes.LastIndex(whole, []byte{0xAC, 0xED, 0x00, 0x05})
	damaged := bytes.Clone(whole)
	damaged[props+4] = 0x6F // the root object's type code
	tests := []struct {
		name string
		b    []byte
		next string
	}{
		{"one byte short", whole[:len(whole)-1], fmt.Sprintf("The _metadata file at %s ends at byte %d, inside its checkpoint properties (which start at byte %d)",
			meta, len(whole)-1, props)},
		{"cut where the properties start", whole[:props], fmt.Sprintf("ends at byte %d, inside", props)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(meta, tt.b, 0o644); err != nil {
				t.Fatal(err)
			}
			err := readErr(t, dir, checkpoint.Selector{})
			assertShapeOf(t, FromCheckpointError("planning", err), "planning", "Checkpoint Metadata Incomplete", tt.next, err)
		})
	}
	altered := []struct {
		name string
		b    []byte
		next string
	}{
		{"damaged", damaged, fmt.Sprintf("The _metadata file at %s is malformed at byte %d, in its checkpoint properties", meta, props+4)},
		{"a byte appended", append(bytes.Clone(whole), 0), fmt.Sprintf("The _metadata file at %s has unexpected bytes from byte %d on", meta, len(whole))},
	}
	for _, tt := range altered {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(meta, tt.b, 0o644); err != nil {
				t.Fatal(err)
			}
			err := readErr(t, dir, checkpoint.Selector{})
			assertShapeOf(t, FromCheckpointError("planning", err), "planning", "Checkpoint Metadata Altered", tt.next, err)
		})
	}
}

// A _metadata real Flink wrote (1.20 and 2.2), changed in one byte of its
// checkpoint properties: the diagnostic says "altered", names the part and
// the byte that changed, and says Flink refuses the file only where Java's
// deserialization does.
func TestCheckpointMetadataAlteredOnRealFlinkFiles(t *testing.T) {
	for _, fixture := range []string{"1.20-savepoint-canonical-p1", "2.2-savepoint-canonical-p1"} {
		metas, err := filepath.Glob(filepath.Join("..", "checkpoint", "testdata", "generated", fixture, "savepoint-*", "_metadata"))
		if err != nil || len(metas) != 1 {
			t.Fatalf("%s: %v %v", fixture, metas, err)
		}
		whole, err := os.ReadFile(metas[0])
		if err != nil {
			t.Fatal(err)
		}
		props := bytes.LastIndex(whole, []byte{0xAC, 0xED, 0x00, 0x05}) // the properties' stream header
		// find is the first occurrence of s in the properties.
		find := func(s string) int {
			i := bytes.Index(whole[props:], []byte(s))
			if i < 0 {
				t.Fatalf("%s: no %q", fixture, s)
			}
			return props + i
		}
		savepointType := "org.apache.flink.runtime.checkpoint.SavepointType"
		uidByte := find(savepointType) + len(savepointType) + 7 // the last byte of its serialVersionUID
		sigByte := find("Ljava/lang/String;") + 5               // inside a field's type signature
		boolByte := find("\x78\x70") + 2                        // discardCancelled: after CheckpointProperties' descriptor
		for _, c := range []struct {
			name          string
			at            int
			to            byte
			part, flink   string
			refusedClaims bool
		}{
			{"serialVersionUID", uidByte, whole[uidByte] ^ 0x01, "serialVersionUID of " + savepointType, "Flink fails to load the file too.", true},
			{"type signature", sigByte, whole[sigByte] ^ 0x01, "type signature of field name of " + savepointType, "Flink itself would still load it", false},
			{"boolean read as true", boolByte, 0x02, "field discardCancelled of org.apache.flink.runtime.checkpoint.CheckpointProperties", "Flink itself would still load it", false},
		} {
			t.Run(fixture+"/"+c.name, func(t *testing.T) {
				dir := t.TempDir()
				b := bytes.Clone(whole)
				b[c.at] = c.to
				if err := os.WriteFile(filepath.Join(dir, "_metadata"), b, 0o644); err != nil {
					t.Fatal(err)
				}
				err := readErr(t, dir, checkpoint.Selector{})
				d := FromCheckpointError("planning", err)
				assertShapeOf(t, d, "planning", "Checkpoint Metadata Altered",
					fmt.Sprintf("was altered at byte %d, in its checkpoint properties (which start at byte %d): the %s is not what Flink writes", c.at, props, c.part), err)
				if !strings.Contains(d.Detail(), c.flink) || strings.Contains(d.Detail(), "fails to load") != c.refusedClaims {
					t.Errorf("detail does not say %q, or claims a refusal it should not:\n%s", c.flink, d.Detail())
				}
				if strings.Contains(d.Detail(), "ncomplete") {
					t.Errorf("an altered file is called incomplete:\n%s", d.Detail())
				}
			})
		}
	}
}

// The operators the checkpoint holds are listed in the original error, at
// the end of the detail: the advice must point there, not "above".
func TestOperatorNotFoundPointsAtTheList(t *testing.T) {
	dir, _ := savepointDir(t)
	err := readErr(t, dir, checkpoint.Selector{UID: "another-operator"})
	d := FromCheckpointError("planning", err)
	assertShapeOf(t, d, "planning", "Operator Not Found In Checkpoint", "listed in the original error below", err)
	advice, list := strings.Index(d.Detail(), "listed in the original error below"), strings.Index(d.Detail(), "operators: ")
	if strings.Contains(d.Detail(), "above") || list < advice {
		t.Errorf("the advice does not point at the list (advice at %d, list at %d):\n%s", advice, list, d.Detail())
	}
}

// A checkpoint path that does not exist keeps its advice.
func TestCheckpointNotFoundStillAboutThePath(t *testing.T) {
	err := readErr(t, filepath.Join(t.TempDir(), "chk-9"), checkpoint.Selector{})
	if !errors.Is(err, checkpoint.ErrNotFound) {
		t.Fatal(err)
	}
	assertShapeOf(t, FromCheckpointError("planning", err), "planning", "Checkpoint Not Found", "Check checkpoint_path", err)
}

// A pinned chk-N that Flink retired gets the way out of pinning: the
// checkpoint_dir to write instead, derived from the path as written.
func TestPinnedCheckpointGoneSuggestsCheckpointDir(t *testing.T) {
	job := t.TempDir()
	for _, tc := range []struct{ src, dir string }{
		{filepath.Join(job, "chk-9"), job},
		{"file:" + filepath.Join(job, "chk-9") + "/", "file:" + job},
		{filepath.Join(job, "chk-9", "_metadata"), job},
	} {
		err := readErr(t, tc.src, checkpoint.Selector{})
		d := FromCheckpointPathError("planning", tc.src, err)
		assertShapeOf(t, d, "planning", "Checkpoint Not Found", fmt.Sprintf("replace checkpoint_path with\n\n  checkpoint_dir = %q", tc.dir), err)
		if !strings.Contains(d.Detail(), "Or pin a savepoint") {
			t.Errorf("%s: no savepoint advice:\n%s", tc.src, d.Detail())
		}
	}

	// A chk-N whose _metadata is being deleted: incomplete, same way out.
	chk := filepath.Join(job, "chk-10")
	if err := os.MkdirAll(chk, 0o755); err != nil {
		t.Fatal(err)
	}
	err := readErr(t, chk, checkpoint.Selector{})
	assertShapeOf(t, FromCheckpointPathError("planning", chk, err), "planning", "Checkpoint Is Incomplete", fmt.Sprintf("checkpoint_dir = %q", job), err)

	// A savepoint that is gone is not retired by Flink: the general advice.
	sp := filepath.Join(job, "savepoint-1a2b3c-0123456789ab")
	err = readErr(t, sp, checkpoint.Selector{})
	d := FromCheckpointPathError("planning", sp, err)
	assertShapeOf(t, d, "planning", "Checkpoint Not Found", "set checkpoint_dir or savepoint_dir instead", err)
}

func TestRetainedCheckpointParent(t *testing.T) {
	for src, want := range map[string]string{
		"/ckpt/job/chk-42":                 "/ckpt/job",
		"s3://bucket/flink/job/chk-42/":    "s3://bucket/flink/job",
		"file:///ckpt/job/chk-7/_metadata": "file:///ckpt/job",
		"/chk-1":                           "/",
		"file:/chk-1":                      "file:/",
		"file:///chk-1":                    "file:///",
		"chk-3":                            ".",
		`C:\flink\job\chk-5`:               `C:\flink\job`,
	} {
		if got, ok := retainedCheckpointParent(src); !ok || got != want {
			t.Errorf("%s: %q %v, want %q", src, got, ok, want)
		}
	}
	for _, src := range []string{"/ckpt/job/chk-", "/ckpt/job/chk-4a", "/sp/savepoint-1-2", "/ckpt/job/chk--1", ""} {
		if got, ok := retainedCheckpointParent(src); ok {
			t.Errorf("%s: %q, want no retained checkpoint", src, got)
		}
	}
}

// A job's checkpoint directory given as checkpoint_path is no incomplete
// checkpoint: the diagnostic says first what the path is, and gives the
// checkpoint_dir to write instead, whether the path came plain or as a URI.
func TestJobDirectoryAsCheckpointPathNamesCheckpointDir(t *testing.T) {
	job := filepath.Join(t.TempDir(), "7f3a9c4e1b2d3c5a6f7e8d9c0b1a2f3e")
	if err := os.MkdirAll(filepath.Join(job, "chk-3"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{job, "file://" + job + "/"} {
		err := readErr(t, src, checkpoint.Selector{})
		d := FromCheckpointPathError("planning", src, err)
		assertShapeOf(t, d, "planning", "Checkpoint Path Is A Job Directory",
			fmt.Sprintf("checkpoint_dir = %q", strings.TrimSuffix(src, "/")), err)
		if first := strings.SplitN(d.Detail(), "\n\n", 3)[1]; !strings.HasPrefix(first, "checkpoint_path names a directory that holds no _metadata") {
			t.Errorf("%s: the advice does not start with what the path is:\n%s", src, first)
		}
	}

	// A savepoint directory still being written is what it looks like.
	sp := filepath.Join(t.TempDir(), "savepoint-1a2b3c-0123456789ab")
	if err := os.MkdirAll(sp, 0o755); err != nil {
		t.Fatal(err)
	}
	err := readErr(t, sp, checkpoint.Selector{})
	assertShapeOf(t, FromCheckpointPathError("planning", sp, err), "planning", "Checkpoint Is Incomplete", "Use a completed checkpoint or savepoint", err)
}
