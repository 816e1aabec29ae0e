//go:build unix

package checkpointstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpointstore/stalltest"
)

// Opening a named pipe blocks until a writer comes, so a FIFO where a
// checkpoint file should be hung the read forever, past any timeout and
// cancellation (the open(2) cannot be interrupted). Such paths are refused
// without being opened.

func TestFIFOWhereACheckpointFileShouldBe(t *testing.T) {
	r, err := New(Options{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()

	metadataFIFO := t.TempDir()
	stalltest.FIFO(t, filepath.Join(metadataFIFO, "_metadata"))

	pointerFIFO := filepath.Join(t.TempDir(), "_metadata")
	stalltest.FIFO(t, pointerFIFO)

	stateFIFO, _ := writeSavepoint(t, 5, 2)
	stateFile := filepath.Join(stateFIFO, stateFiles(t, stateFIFO)[0])
	if err := os.Remove(stateFile); err != nil {
		t.Fatal(err)
	}
	stalltest.FIFO(t, stateFile)

	metadataDir := t.TempDir()
	if err := os.Mkdir(filepath.Join(metadataDir, "_metadata"), 0o755); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name, pointer, names, is string
	}{
		{"_metadata is a FIFO", metadataFIFO, filepath.Join(metadataFIFO, "_metadata"), "a named pipe (FIFO)"},
		{"pointer is a FIFO", pointerFIFO, pointerFIFO, "a named pipe (FIFO)"},
		{"pointer is a FIFO, file: URI", "file://" + pointerFIFO, pointerFIFO, "a named pipe (FIFO)"},
		{"state file is a FIFO", stateFIFO, stateFile, "a named pipe (FIFO)"},
		{"_metadata is a directory", metadataDir, filepath.Join(metadataDir, "_metadata"), "a directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err, ended := endsWithin(t, c.name, stallMargin, func() error {
				_, err := checkpoint.ReadRecoveryMarkers(context.Background(), r, c.pointer, checkpoint.Selector{})
				return err
			})
			want := c.names + " is " + c.is + ", not a checkpoint file"
			if ended && (!errors.Is(err, checkpoint.ErrNotAFile) || !strings.Contains(fmt.Sprint(err), want)) {
				t.Errorf("got %v, want ErrNotAFile saying %q", err, want)
			}
		})
	}

	// The ranged read of a state file directly, and a listing that finds
	// the FIFO _metadata: the point is listed (it has a _metadata), reading
	// it is what fails.
	err, ended := endsWithin(t, "ranged read of a FIFO", stallMargin, func() error {
		_, err := r.ReadRange(context.Background(), stateFile, 0, 8)
		return err
	})
	if ended && !errors.Is(err, checkpoint.ErrNotAFile) {
		t.Errorf("ranged read of a FIFO: %v, want ErrNotAFile", err)
	}
	job := t.TempDir()
	if err := os.Mkdir(filepath.Join(job, "chk-1"), 0o755); err != nil {
		t.Fatal(err)
	}
	stalltest.FIFO(t, filepath.Join(job, "chk-1", "_metadata"))
	err, ended = endsWithin(t, "listing a job whose _metadata is a FIFO", stallMargin, func() error {
		points, err := checkpoint.FindRecoveryPoints(context.Background(), r, job, "")
		if err == nil && len(points) != 1 {
			t.Errorf("points %+v, want chk-1", points)
		}
		return err
	})
	if ended && err != nil {
		t.Errorf("listing: %v", err)
	}
}
