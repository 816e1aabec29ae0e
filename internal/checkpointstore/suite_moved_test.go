package checkpointstore

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

// i64 size, UTF path.
func absolutize(t *testing.T, dir, base string) []string {
	t.Helper()
	mdPath := filepath.Join(dir, "_metadata")
	md, err := os.ReadFile(mdPath)
	if err != nil {
		t.Fatal(err)
	}
	utf := func(s string) []byte { return binary.BigEndian.AppendUint16(nil, uint16(len(s))) }
	names := stateFiles(t, dir)
	for _, name := range names {
		rel := append(append([]byte{6}, utf(name)...), name...)
		i := bytes.Index(md, rel)
		if i < 0 {
			t.Fatalf("no relative handle for %s", name)
		}
		size := md[i+len(rel) : i+len(rel)+8]
		abs := append(append(append([]byte{2}, size...), utf(base+"/"+name)...), base+"/"+name...)
		md = append(md[:i:i], append(abs, md[i+len(rel)+8:]...)...)
	}
	parsed, err := checkpoint.ParseMetadata(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, sub := range parsed.Operators[0].Subtasks {
		if sub.Managed != nil && (sub.Managed.Delegate.Kind != checkpoint.KindFile || !strings.HasPrefix(sub.Managed.Delegate.Path, base+"/")) {
			t.Fatalf("handle %+v after absolutize", sub.Managed.Delegate)
		}
	}
	if err := os.WriteFile(mdPath, md, 0o644); err != nil {
		t.Fatal(err)
	}
	return names
}

// A checkpoint copied elsewhere: _metadata names the state files at the old
// place, which no longer exists (and is not next to _metadata either).
func testMoved(t *testing.T, be *backend) {
	dir, _ := writeSavepoint(t, 5, 4)
	want := readMarkers(t, checkpoint.LocalStorage{}, dir)
	names := absolutize(t, dir, be.uri("old-job/shared"))
	for _, n := range names {
		b, _ := os.ReadFile(filepath.Join(dir, n))
		be.put(t, "moved-job/shared/"+n, b)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "_metadata"))
	be.put(t, "moved-job/chk-7/_metadata", b)

	ptr := be.uri("moved-job/chk-7")
	_, err := checkpoint.ReadRecoveryMarkers(context.Background(), newRouter(t, be), ptr, checkpoint.Selector{})
	if !errors.Is(err, checkpoint.ErrNotFound) || !strings.Contains(err.Error(), fmt.Sprintf("%q", be.bucket)) ||
		!strings.Contains(err.Error(), `"old-job/shared/`) {
		t.Errorf("without path_rewrite: %v", err)
	}
	for _, from := range []string{be.uri("old-job"), be.uri("old-job/")} {
		r := newRouter(t, be, Rewrite{From: from, To: be.uri("moved-job")})
		sameResult(t, readMarkers(t, r, ptr), want, ptr+"/_metadata")
	}
	// A rule for a sibling prefix must not apply: rules match whole segments.
	r := newRouter(t, be, Rewrite{From: be.uri("old"), To: be.uri("moved-job")})
	if _, err := checkpoint.ReadRecoveryMarkers(context.Background(), r, ptr, checkpoint.Selector{}); !errors.Is(err, checkpoint.ErrNotFound) {
		t.Errorf("prefix %s applied to old-job: %v", be.uri("old"), err)
	}
}

// With s3.entropy.key Flink writes state files under an entropy-injected
// path and _metadata with the entropy key removed; the absolute handles are
// read as written.
func testEntropy(t *testing.T, be *backend) {
	dir, _ := writeSavepoint(t, 4, 3)
	want := readMarkers(t, checkpoint.LocalStorage{}, dir)
	names := absolutize(t, dir, be.uri("e7f3/entropy-job/chk-9"))
	for _, n := range names {
		b, _ := os.ReadFile(filepath.Join(dir, n))
		be.put(t, "e7f3/entropy-job/chk-9/"+n, b)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "_metadata"))
	be.put(t, "entropy-job/chk-9/_metadata", b)
	ptr := be.uri("entropy-job/chk-9")
	sameResult(t, readMarkers(t, newRouter(t, be), ptr), want, ptr+"/_metadata")
}
