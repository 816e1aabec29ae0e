package invariant

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSecretScanFindsEachOccurrenceOnce(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "provider.log")
	state := filepath.Join(dir, "terraform.tfstate")
	allowed := filepath.Join(dir, "server.properties")
	must(t, os.WriteFile(log, []byte("harmless\n"), 0o644))
	must(t, os.WriteFile(state, []byte(`{"a":"b"}`), 0o644))
	must(t, os.WriteFile(allowed, []byte("password=s3cr3t-value"), 0o644))
	s := &SecretScan{Roots: []string{dir}, Secrets: []string{"s3cr3t-value"}, Allowed: []string{allowed}}
	if hits, _, err := s.Scan(); err != nil || len(hits) != 0 {
		t.Fatalf("first scan: %v %v", hits, err)
	}
	// A log that grows across the secret, split between two writes.
	f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteString("leak: s3cr3t")
	must(t, err)
	if hits, _, err := s.Scan(); err != nil || len(hits) != 0 {
		t.Fatalf("half a secret: %v %v", hits, err)
	}
	_, err = f.WriteString("-value\n")
	must(t, err)
	must(t, f.Close())
	if hits, _, err := s.Scan(); err != nil || len(hits) != 1 {
		t.Fatalf("after the secret's end: %v %v", hits, err)
	}
	if hits, _, err := s.Scan(); err != nil || len(hits) != 0 {
		t.Fatalf("found again: %v %v", hits, err)
	}
	// A file rewritten in place, as Terraform rewrites its state.
	must(t, os.WriteFile(state, []byte(`{"x":"s3cr3t-value"}`), 0o644))
	if hits, _, err := s.Scan(); err != nil || len(hits) != 1 {
		t.Fatalf("rewritten state: %v %v", hits, err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
