package checkpoint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Storage is the file access the reader needs. Paths are the strings the
// reader derives from the user's pointer and the _metadata handles: local
// paths for LocalStorage, or URIs (s3://…, gs://…) for a remote
// implementation. Implementations must return errors wrapping fs.ErrNotExist
// for missing files, so the reader can report ErrNotFound.
type Storage interface {
	// ReadFile returns a whole file; used only for _metadata.
	ReadFile(ctx context.Context, path string) ([]byte, error)
	// ReadRange returns exactly n bytes starting at off, or an error
	// (io.ErrUnexpectedEOF when the file is shorter).
	ReadRange(ctx context.Context, path string, off, n int64) ([]byte, error)
	// Stat says whether path is a directory and how large it is.
	Stat(ctx context.Context, path string) (FileInfo, error)
}

// ConcurrentStorage is a Storage whose methods may be called from several
// goroutines at once. The reader then fetches up to ReadConcurrency()
// subtasks' state streams at a time instead of one after another: on an
// object store each read is a round trip, and a job with parallelism 64 would
// otherwise wait for 64 of them in a row. LocalStorage does not opt in
// because local reads gain nothing from it.
type ConcurrentStorage interface {
	Storage
	ReadConcurrency() int
}

// FileInfo is what Stat reports.
type FileInfo struct {
	IsDir bool
	Size  int64
}

// LocalStorage reads the local filesystem. Paths use '/' separators and are
// converted with filepath.FromSlash.
type LocalStorage struct{}

var _ Storage = LocalStorage{}

// maxMetadataSize bounds ReadFile: _metadata of even very large jobs is a
// few megabytes (state lives in separate files unless inlined, and inlining
// is capped at 1 MB per handle by Flink), so anything bigger is not ours.
const maxMetadataSize = 1 << 30

// ReadFile implements Storage.
func (LocalStorage) ReadFile(ctx context.Context, path string) ([]byte, error) {
	f, size, err := openRegular(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > maxMetadataSize {
		return nil, fmt.Errorf("%s is %d bytes, larger than any _metadata this reader accepts (%d)", path, size, maxMetadataSize)
	}
	// Read in chunks so that a cancelled or timed-out read of a large
	// _metadata (or a slow network mount) stops between chunks.
	buf := make([]byte, 0, size)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // grew since the stat: keep reading
		}
		n, err := f.Read(buf[len(buf):min(cap(buf), len(buf)+localChunk)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
	}
}

// localChunk is how much ReadFile reads between checks of its context.
const localChunk = 1 << 20

// ReadRange implements Storage.
func (LocalStorage) ReadRange(ctx context.Context, path string, off, n int64) ([]byte, error) {
	if off < 0 || n < 0 {
		return nil, fmt.Errorf("read %s: invalid range [%d, +%d)", path, off, n)
	}
	f, size, err := openRegular(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if off+n > size || off+n < off {
		// Checked before allocating: a corrupt size must not become a huge buffer.
		return nil, fmt.Errorf("read %s: range [%d, %d) beyond end of file (%d bytes): %w", path, off, off+n, size, io.ErrUnexpectedEOF)
	}
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, off); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("read %s [%d, %d): %w", path, off, off+n, err)
	}
	return buf, nil
}

// openRegular opens path for reading only if it is a regular file (after
// following symbolic links), and returns its size. Anything else is refused
// before open(2): opening a named pipe blocks until a writer appears, which
// for a FIFO left where a checkpoint file should be is forever, and a
// device or socket is never a checkpoint either.
func openRegular(ctx context.Context, path string) (*os.File, int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	local := filepath.FromSlash(path)
	st, err := os.Stat(local)
	if err != nil {
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		return nil, 0, &FileTypeError{Path: path, Mode: st.Mode()}
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	f, err := os.Open(local)
	if err != nil {
		return nil, 0, err
	}
	// The path may have been replaced between the stat and the open; what
	// counts is the file actually opened.
	if st, err = f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = &FileTypeError{Path: path, Mode: st.Mode()}
		}
		return nil, 0, err
	}
	return f, st.Size(), nil
}

// Stat implements Storage.
func (LocalStorage) Stat(ctx context.Context, path string) (FileInfo, error) {
	if err := ctx.Err(); err != nil {
		return FileInfo{}, err
	}
	st, err := os.Stat(filepath.FromSlash(path))
	if err != nil {
		return FileInfo{}, err
	}
	return FileInfo{IsDir: st.IsDir(), Size: st.Size()}, nil
}

// notFound reports whether err means a missing file.
func notFound(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// stopped reports whether err means the read ran out of time or was
// cancelled, rather than anything about the file.
func stopped(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}
