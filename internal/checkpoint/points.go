package checkpoint

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Lister lists a directory, so recovery points can be discovered. Paths are
// what Storage receives: local paths for LocalStorage (file: URIs are
// normalized first), URIs for a remote store, whose List treats the path as a
// prefix ("directories" are common prefixes).
type Lister interface {
	// List returns the immediate children of dir, in any order. A missing
	// dir is an error wrapping fs.ErrNotExist.
	List(ctx context.Context, dir string) ([]Entry, error)
}

// Entry is one child of a listed directory.
type Entry struct {
	Name    string // the child's name, without the directory
	IsDir   bool
	ModTime time.Time // last modification of a file; unused for directories
}

var _ Lister = LocalStorage{}

// List implements Lister. Symbolic links are followed, as the reader follows
// them when it opens the files.
func (LocalStorage) List(ctx context.Context, dir string) ([]Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	local := filepath.FromSlash(dir)
	des, err := os.ReadDir(local)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(des))
	for _, de := range des {
		info, err := de.Info()
		if err == nil && info.Mode()&os.ModeSymlink != 0 {
			info, err = os.Stat(filepath.Join(local, de.Name()))
		}
		if errors.Is(err, os.ErrNotExist) {
			continue // removed since ReadDir (Flink subsumes checkpoints concurrently), or a dangling link
		}
		if err != nil {
			return nil, err
		}
		out = append(out, Entry{Name: de.Name(), IsDir: info.IsDir(), ModTime: info.ModTime()})
	}
	return out, nil
}

// PointKind says how a recovery point was taken.
type PointKind string

const (
	KindCheckpoint PointKind = "checkpoint"
	KindSavepoint  PointKind = "savepoint"
)

// RecoveryPoint is a complete checkpoint or savepoint found by
// FindRecoveryPoints. Its markers are not read.
type RecoveryPoint struct {
	// Path is the listed directory string as the caller gave it, joined with
	// the child's name ("file:/cp/job/" + "chk-42" = "file:/cp/job/chk-42"),
	// so it can be passed on unchanged as a plan's recovery point.
	Path string
	Kind PointKind
	// NameID is N of a chk-N directory; 0 for savepoints, whose ID is only
	// in _metadata.
	NameID int64
	// ModTime is the modification time of _metadata, which Flink writes
	// last, when the point completes.
	ModTime time.Time
}

// FindRecoveryPoints lists the complete recovery points under a job's
// checkpoint directory (the parent of its chk-N directories) and a savepoint
// directory (the parent of savepoint-* directories). Either may be empty.
// A point is complete when it holds a _metadata file: Flink writes it last,
// so a chk-N without one is in progress or aborted and is skipped.
//
// The result is newest first, in this total order: checkpoints by N,
// highest first (a job's checkpoint IDs only grow, whatever the clocks or
// copies did to file times); savepoints by _metadata time, newest first,
// equal times by directory name, descending; the two sequences merged by
// _metadata time, newest first, a checkpoint before a savepoint of the same
// time. Each sequence keeps its own order in the merge. File times change
// when a point is copied or synced, so this is only the listing's order:
// what a boundary may follow is ordered by markers (recoveryplan).
func FindRecoveryPoints(ctx context.Context, l Lister, checkpointDir, savepointDir string) ([]RecoveryPoint, error) {
	var checkpoints, savepoints []RecoveryPoint
	var err error
	if checkpointDir != "" {
		if checkpoints, err = listPoints(ctx, l, checkpointDir, KindCheckpoint); err != nil {
			return nil, err
		}
		slices.SortFunc(checkpoints, func(a, b RecoveryPoint) int { return cmp.Compare(b.NameID, a.NameID) })
	}
	if savepointDir != "" {
		if savepoints, err = listPoints(ctx, l, savepointDir, KindSavepoint); err != nil {
			return nil, err
		}
		slices.SortFunc(savepoints, func(a, b RecoveryPoint) int {
			if c := b.ModTime.Compare(a.ModTime); c != 0 {
				return c
			}
			return strings.Compare(b.Path, a.Path)
		})
	}
	out := make([]RecoveryPoint, 0, len(checkpoints)+len(savepoints))
	for len(checkpoints) > 0 && len(savepoints) > 0 {
		if !savepoints[0].ModTime.After(checkpoints[0].ModTime) {
			out, checkpoints = append(out, checkpoints[0]), checkpoints[1:]
		} else {
			out, savepoints = append(out, savepoints[0]), savepoints[1:]
		}
	}
	return append(append(out, checkpoints...), savepoints...), nil
}

// listPoints finds the complete points of one kind directly under dir.
func listPoints(ctx context.Context, l Lister, dir string, kind PointKind) ([]RecoveryPoint, error) {
	local, err := normalizePath(dir)
	if err != nil {
		return nil, err
	}
	entries, err := l.List(ctx, local)
	if err != nil {
		if notFound(err) {
			return nil, fmt.Errorf("%w: %s directory %s does not exist", ErrNotFound, kind, dir)
		}
		return nil, fmt.Errorf("list %s directory %s: %w", kind, dir, err)
	}
	var out []RecoveryPoint
	for _, e := range entries {
		if !e.IsDir {
			continue
		}
		p := RecoveryPoint{Path: joinPath(dir, e.Name), Kind: kind}
		switch kind {
		case KindCheckpoint:
			n, ok := checkpointNameID(e.Name)
			if !ok {
				continue // shared/, taskowned/ and anything else that is not chk-N
			}
			p.NameID = n
		case KindSavepoint:
			if !strings.HasPrefix(e.Name, "savepoint-") {
				continue
			}
		}
		mt, ok, err := metadataTime(ctx, l, joinPath(local, e.Name))
		if err != nil {
			return nil, err
		}
		if ok {
			p.ModTime = mt
			out = append(out, p)
		}
	}
	return out, nil
}

// metadataTime reports whether the point directory dir (a Lister path)
// holds a _metadata file, and its modification time. A directory removed
// meanwhile reports false: Flink deletes subsumed checkpoints at any time.
func metadataTime(ctx context.Context, l Lister, dir string) (time.Time, bool, error) {
	entries, err := l.List(ctx, dir)
	if notFound(err) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, fmt.Errorf("list %s: %w", dir, err)
	}
	for _, e := range entries {
		if e.Name == metadataFileName && !e.IsDir {
			return e.ModTime, true, nil
		}
	}
	return time.Time{}, false, nil
}

// checkpointNameID parses Flink's "chk-<id>" directory name.
func checkpointNameID(name string) (int64, bool) {
	digits, ok := strings.CutPrefix(name, "chk-")
	if !ok || digits == "" || digits[0] == '+' || digits[0] == '-' {
		return 0, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	return n, err == nil
}

// StillComplete reports whether p still holds its _metadata. Use it to tell
// a point that failed to read because Flink removed it after the listing
// (it is no longer a recovery point) from one that is damaged.
func (p RecoveryPoint) StillComplete(ctx context.Context, l Lister) (bool, error) {
	local, err := normalizePath(p.Path)
	if err != nil {
		return false, err
	}
	_, ok, err := metadataTime(ctx, l, local)
	return ok, err
}
