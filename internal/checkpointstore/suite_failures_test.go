package checkpointstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

func testMissing(t *testing.T, be *backend) {
	ctx := context.Background()
	r := newRouter(t, be)
	_, err := checkpoint.ReadRecoveryMarkers(ctx, r, be.uri("nowhere/chk-1"), checkpoint.Selector{})
	if !errors.Is(err, checkpoint.ErrNotFound) || !strings.Contains(err.Error(), be.uri("nowhere/chk-1")) {
		t.Errorf("missing pointer: %v", err)
	}
	_, err = r.Stat(ctx, be.uri("nowhere/chk-1/_metadata"))
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), fmt.Sprintf("bucket %q", be.bucket)) && !strings.Contains(err.Error(), fmt.Sprintf("container %q", be.bucket)) ||
		!strings.Contains(err.Error(), `"nowhere/chk-1/_metadata"`) {
		t.Errorf("stat of a missing object: %v", err)
	}

	be.put(t, "incomplete/chk-3/4b1e0f2a-state", []byte("partial"))
	_, err = checkpoint.ReadRecoveryMarkers(ctx, r, be.uri("incomplete/chk-3"), checkpoint.Selector{})
	if !errors.Is(err, checkpoint.ErrMissingMetadata) {
		t.Errorf("directory without _metadata: %v", err)
	}

	dir, _ := writeSavepoint(t, 5, 3)
	names := stateFiles(t, dir)
	if err := os.Remove(filepath.Join(dir, names[0])); err != nil {
		t.Fatal(err)
	}
	uploadDir(t, be, dir, "missing-state/sp")
	_, err = checkpoint.ReadRecoveryMarkers(ctx, r, be.uri("missing-state/sp"), checkpoint.Selector{})
	wantKey := fmt.Sprintf("%q", "missing-state/sp/"+names[0])
	if !errors.Is(err, checkpoint.ErrNotFound) || !strings.Contains(err.Error(), wantKey) || !strings.Contains(err.Error(), fmt.Sprintf("%q", be.bucket)) {
		t.Errorf("missing state file: %v, want bucket %q and key %s named", err, be.bucket, wantKey)
	}
}

func testDenied(t *testing.T, be *backend) {
	ctx := context.Background()
	r := newRouter(t, be)
	dir, _ := writeSavepoint(t, 5, 2)
	uploadDir(t, be, dir, "denied/sp")
	_, err := checkpoint.ReadRecoveryMarkers(ctx, r, be.uri("denied/sp"), checkpoint.Selector{})
	if !errors.Is(err, ErrAccessDenied) || !strings.Contains(err.Error(), fmt.Sprintf("%q", be.bucket)) || !strings.Contains(err.Error(), `"denied/sp"`) {
		t.Errorf("denied pointer: %v", err)
	}

	// _metadata readable, the state files it names are not.
	dir, _ = writeSavepoint(t, 5, 2)
	names := absolutize(t, dir, be.uri("denied/shared"))
	b, _ := os.ReadFile(filepath.Join(dir, "_metadata"))
	be.put(t, "granted/chk-1/_metadata", b)
	_, err = checkpoint.ReadRecoveryMarkers(ctx, r, be.uri("granted/chk-1"), checkpoint.Selector{})
	if !errors.Is(err, ErrAccessDenied) || !strings.Contains(err.Error(), fmt.Sprintf("%q", be.bucket)) ||
		!strings.Contains(err.Error(), `"denied/shared/`) || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("denied state file: %v", err)
	}
	var oe *ObjectError
	if !errors.As(err, &oe) || !strings.Contains(oe.Error(), "Storage Blob Data Reader") {
		t.Errorf("no permission hint in %v", err)
	}
	_ = names

	if _, err := r.List(ctx, be.uri("denied")); !errors.Is(err, ErrAccessDenied) {
		t.Errorf("denied listing: %v", err)
	}
}
