package datasources_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

type terraformState = terraform.State

// removeStateFile deletes one of the state files beside dir/_metadata, as
// a partial copy or Flink's cleanup would, and returns its name.
func removeStateFile(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "_metadata" {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
			return e.Name()
		}
	}
	t.Fatalf("no state file beside %s/_metadata", dir)
	return ""
}

// cutMetadata rewrites dir/_metadata one byte short, keeping its
// modification time, and returns the new length.
func cutMetadata(t *testing.T, dir string) int {
	t.Helper()
	meta := filepath.Join(dir, "_metadata")
	st, err := os.Stat(meta)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(meta, b[:len(b)-1], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(meta, st.ModTime(), st.ModTime()); err != nil {
		t.Fatal(err)
	}
	return len(b) - 1
}
