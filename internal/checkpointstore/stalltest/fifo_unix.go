//go:build unix

package stalltest

import (
	"errors"
	"os"
	"syscall"
	"testing"
)

// FIFO makes a named pipe at path. Opening it for reading blocks until a
// writer opens it; should the code under test do that (the bug these tests
// catch), cleanup opens the write end once so the blocked reader returns
// and the test binary can exit.
func FIFO(t testing.TB, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatalf("mkfifo %s: %v", path, err)
	}
	t.Cleanup(func() {
		w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			w.Close()
		} else if !errors.Is(err, syscall.ENXIO) { // ENXIO: no reader, nothing to release
			t.Logf("releasing readers of %s: %v", path, err)
		}
	})
}
