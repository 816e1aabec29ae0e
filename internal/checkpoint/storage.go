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
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.FromSlash(path))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > maxMetadataSize {
		return nil, fmt.Errorf("%s is %d bytes, larger than any _metadata this reader accepts (%d)", path, st.Size(), maxMetadataSize)
	}
	return io.ReadAll(f)
}

// ReadRange implements Storage.
func (LocalStorage) ReadRange(ctx context.Context, path string, off, n int64) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if off < 0 || n < 0 {
		return nil, fmt.Errorf("read %s: invalid range [%d, +%d)", path, off, n)
	}
	f, err := os.Open(filepath.FromSlash(path))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return nil, err
	} else if off+n > st.Size() || off+n < off {
		// Checked before allocating: a corrupt size must not become a huge buffer.
		return nil, fmt.Errorf("read %s: range [%d, %d) beyond end of file (%d bytes): %w", path, off, off+n, st.Size(), io.ErrUnexpectedEOF)
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
