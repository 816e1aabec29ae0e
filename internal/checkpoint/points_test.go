package checkpoint

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// point makes dir/name, with a _metadata of the given time unless at is zero
// (an in-progress or aborted point).
func point(t *testing.T, dir, name string, at time.Time) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if at.IsZero() {
		return
	}
	md := filepath.Join(p, "_metadata")
	if err := os.WriteFile(md, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(md, at, at); err != nil {
		t.Fatal(err)
	}
}

func TestFindRecoveryPointsOrder(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	cp, sp := filepath.Join(root, "cp", "job"), filepath.Join(root, "sp")
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

	point(t, cp, "chk-9", at(10))
	point(t, cp, "chk-10", at(5)) // copied: an older file time, yet newer than chk-9 by ID
	point(t, cp, "chk-2", at(1))
	point(t, cp, "chk-11", time.Time{}) // in progress: skipped
	point(t, cp, "shared", at(20))
	point(t, cp, "taskowned", at(20))
	point(t, cp, "chk-x", at(20))
	point(t, cp, "chk-+3", at(20))
	if err := os.WriteFile(filepath.Join(cp, "chk-12"), nil, 0o644); err != nil { // a file, not a point
		t.Fatal(err)
	}
	point(t, sp, "savepoint-aa0000-000000000001", at(30))
	point(t, sp, "savepoint-aa0000-000000000002", at(5)) // same time as chk-10
	point(t, sp, "savepoint-aa0000-000000000003", at(5)) // same time: name descending
	point(t, sp, "savepoint-aa0000-000000000004", at(0))
	point(t, sp, "savepoint-aa0000-000000000005", time.Time{}) // incomplete
	point(t, sp, "not-a-savepoint", at(40))

	got, err := FindRecoveryPoints(ctx, LocalStorage{}, "file:"+cp+"/", sp)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		path string
		kind PointKind
		id   int64
		at   time.Time
	}{
		{sp + "/savepoint-aa0000-000000000001", KindSavepoint, 0, at(30)},
		// chk-10 (time 5) is still before chk-9 (time 10): the merge keeps
		// checkpoint order, and chk-10 is the head when time 10 is compared.
		{"file:" + cp + "/chk-10", KindCheckpoint, 10, at(5)},
		{"file:" + cp + "/chk-9", KindCheckpoint, 9, at(10)},
		{sp + "/savepoint-aa0000-000000000003", KindSavepoint, 0, at(5)},
		{sp + "/savepoint-aa0000-000000000002", KindSavepoint, 0, at(5)},
		{"file:" + cp + "/chk-2", KindCheckpoint, 2, at(1)},
		{sp + "/savepoint-aa0000-000000000004", KindSavepoint, 0, at(0)},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d points %+v, want %d", len(got), got, len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Path != w.path || g.Kind != w.kind || g.NameID != w.id || !g.ModTime.Equal(w.at) {
			t.Errorf("point %d = %+v, want %+v", i, g, w)
		}
	}
}

func TestFindRecoveryPointsTieCheckpointFirst(t *testing.T) {
	root := t.TempDir()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	point(t, root, "chk-4", at)
	point(t, root, "savepoint-bb0000-000000000001", at)
	got, err := FindRecoveryPoints(context.Background(), LocalStorage{}, root, root)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Kind != KindCheckpoint || got[1].Kind != KindSavepoint {
		t.Fatalf("got %+v, want the checkpoint first on equal times", got)
	}
}

func TestFindRecoveryPointsErrors(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	if _, err := FindRecoveryPoints(ctx, LocalStorage{}, filepath.Join(root, "missing"), ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing checkpoint dir: %v, want ErrNotFound", err)
	}
	if _, err := FindRecoveryPoints(ctx, LocalStorage{}, "", "file://otherhost/sp"); err == nil {
		t.Error("a file URI naming a remote host was accepted")
	}
	got, err := FindRecoveryPoints(ctx, LocalStorage{}, root, "")
	if err != nil || len(got) != 0 {
		t.Errorf("empty dir: %v, %v", got, err)
	}
}

func TestStillComplete(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	point(t, root, "chk-1", time.Now())
	got, err := FindRecoveryPoints(ctx, LocalStorage{}, "file://localhost"+root, "")
	if err != nil || len(got) != 1 {
		t.Fatalf("%v, %v", got, err)
	}
	if ok, err := got[0].StillComplete(ctx, LocalStorage{}); !ok || err != nil {
		t.Errorf("StillComplete = %v, %v before removal", ok, err)
	}
	if err := os.RemoveAll(filepath.Join(root, "chk-1")); err != nil {
		t.Fatal(err)
	}
	if ok, err := got[0].StillComplete(ctx, LocalStorage{}); ok || err != nil {
		t.Errorf("StillComplete = %v, %v after Flink removed the point", ok, err)
	}
}

func TestLocalListFollowsLinks(t *testing.T) {
	root := t.TempDir()
	target := filepath.Join(root, "elsewhere")
	point(t, target, "chk-7", time.Now())
	job := filepath.Join(root, "job")
	if err := os.MkdirAll(job, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(target, "chk-7"), filepath.Join(job, "chk-7")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "gone"), filepath.Join(job, "chk-8")); err != nil {
		t.Fatal(err)
	}
	got, err := FindRecoveryPoints(context.Background(), LocalStorage{}, job, "")
	if err != nil || len(got) != 1 || got[0].NameID != 7 {
		t.Fatalf("got %+v, %v; want chk-7 through its link, the dangling chk-8 ignored", got, err)
	}
}
