package checkpointstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"sort"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

func testList(t *testing.T, be *backend) {
	ctx := context.Background()
	r := newRouter(t, be)
	sp, _ := writeSavepoint(t, 5, 2)
	uploadDir(t, be, sp, "list/job/chk-3")
	uploadDir(t, be, sp, "list/savepoints/savepoint-5f1c2e-9a8b7c6d5e4f")
	be.put(t, "list/job/chk-5/0c1d-inprogress", []byte("x"))
	be.put(t, "list/job/shared/ab12", []byte("x"))
	be.put(t, "list/job/taskowned/cd34", []byte("x"))

	for _, dir := range []string{be.uri("list/job"), be.uri("list/job/")} {
		entries, err := r.List(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range entries {
			got = append(got, fmt.Sprintf("%s dir=%v", e.Name, e.IsDir))
		}
		sort.Strings(got)
		want := []string{"chk-3 dir=true", "chk-5 dir=true", "shared dir=true", "taskowned dir=true"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("List(%s) = %v, want %v", dir, got, want)
		}
	}
	entries, err := r.List(ctx, be.uri("list/job/chk-3"))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range entries {
		if e.Name == "_metadata" {
			found = !e.IsDir && !e.ModTime.IsZero()
		}
	}
	if !found || len(entries) != 1+len(stateFiles(t, sp)) {
		t.Errorf("List(chk-3) = %+v", entries)
	}
	if _, err := r.List(ctx, be.uri("list/nojob")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("listing a missing directory: %v", err)
	}

	points, err := checkpoint.FindRecoveryPoints(ctx, r, be.uri("list/job"), be.uri("list/savepoints"))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, p := range points {
		paths = append(paths, p.Path)
	}
	sort.Strings(paths)
	want := []string{be.uri("list/job/chk-3"), be.uri("list/savepoints/savepoint-5f1c2e-9a8b7c6d5e4f")}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("recovery points %v, want %v", paths, want)
	}
}
