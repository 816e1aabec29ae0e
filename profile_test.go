package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestStartProfile(t *testing.T) {
	t.Setenv(profileDirVariable, "")
	stop, err := startProfile()
	if err != nil {
		t.Fatal(err)
	}
	stop()

	dir := t.TempDir()
	t.Setenv(profileDirVariable, dir)
	if stop, err = startProfile(); err != nil {
		t.Fatal(err)
	}
	stop()
	info, err := os.Stat(filepath.Join(dir, fmt.Sprintf("cpu-%d.pprof", os.Getpid())))
	if err != nil || info.Size() == 0 {
		t.Fatalf("no profile written: %v", err)
	}

	t.Setenv(profileDirVariable, filepath.Join(dir, "missing"))
	if _, err := startProfile(); err == nil {
		t.Error("a directory that does not exist was accepted")
	}
}
