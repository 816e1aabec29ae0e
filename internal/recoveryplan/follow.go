package recoveryplan

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

// Store is what following a job's directories needs: listing them to find
// the recovery points, reading the chosen one.
type Store interface {
	checkpoint.Storage
	checkpoint.Lister
}

// Follow says which of a job's complete recovery points a plan is derived
// from. The zero value follows the oldest.
//
// A pinned chk-N breaks once Flink retires it (state.checkpoints.num-retained);
// a position in the list of retained points moves forward with the job
// instead. Points are ordered by their markers (OrderNewestFirst), so the
// oldest is the one whose markers are at or below every other point's on
// every partition: following it keeps every listed point restorable.
type Follow struct {
	// NthNewest is the chosen point's position in the newest-first order
	// of markers, from 1 (the newest): 3 leaves the two newer points
	// restorable from above the boundary as well. 0 follows the oldest.
	// When fewer points exist the oldest is followed (Chosen.Clamped): every
	// listed point stays restorable either way, and a young job gets a plan
	// as soon as it has one point instead of an error.
	NthNewest int
}

// Chosen is the point a plan follows, and where it stood in the listing.
type Chosen struct {
	Point checkpoint.RecoveryPoint
	// Position is the point's place in the newest-first order, from 1; 0
	// when the call failed before choosing (Point is then the point that
	// failed to read, if one did).
	Position int
	// Listed is how many complete points the directories held.
	Listed int
	// Clamped reports that Follow.NthNewest asked for a point beyond the
	// oldest, which was chosen instead.
	Clamped bool
	// Points are all complete points read, newest first, with their plans:
	// the ones a boundary from the chosen point may make unrestorable.
	Points []Point
}

var (
	// ErrNoRecoveryPoints reports directories that exist but hold no
	// complete recovery point yet (the job has not completed a checkpoint).
	ErrNoRecoveryPoints = errors.New("no complete recovery point")
	// ErrRetiredWhileReading reports that every point FromDirs listed was
	// deleted before it could be read, followAttempts times in a row.
	ErrRetiredWhileReading = errors.New("recovery points deleted while being read")
)

// followAttempts bounds how often FromDirs lists again because every point
// it listed was retired while being read. Flink retires at most a few
// checkpoints per completed checkpoint, so three rounds in a row only happen
// when something deletes points much faster than Flink does.
const followAttempts = 3

// choose applies f to points, which are newest first and not empty.
func (f Follow) choose(points []Point) Chosen {
	pos, clamped := len(points), false
	if f.NthNewest > 0 {
		pos = f.NthNewest
		if pos > len(points) {
			pos, clamped = len(points), true
		}
	}
	return Chosen{Point: points[pos-1].RecoveryPoint, Position: pos, Listed: len(points), Clamped: clamped, Points: points}
}

// FromDirs derives the plan of the point f chooses among the complete
// recovery points under checkpointDir (the parent of a job's chk-N
// directories) and savepointDir (the parent of savepoint-* directories);
// either may be empty. The plan's sourceRecoveryPoint is the chosen point's
// path (FindRecoveryPoints: the directory string as given, joined with the
// child's name).
//
// Every listed point is read, and the points are ordered by their markers
// (OrderNewestFirst), not by file times: a savepoint copied with cp -r or
// an object-store sync has the newest _metadata time but keeps its old
// markers, and a boundary above them would make it unrestorable. Points
// that cannot be ordered (cleanupplan.ErrUnorderedRecoveryPoints) fail the
// call rather than be guessed.
//
// Flink retires checkpoints at any moment. A point that is gone when it is
// read (its directory or _metadata removed, so it is no longer a recovery
// point) is no error: it is left out, and when every listed point went that
// way the directories are listed again. A point that fails to read while it
// is still complete fails the call, never skipped: its damage is the
// operator's to see, and its markers are unknown. That includes a
// checkpoint caught mid-retirement, its state files deleted and its
// _metadata not yet (the next read finds it gone).
//
// Errors: checkpoint.ErrNotFound when a directory does not exist and
// ErrNoRecoveryPoints when they hold no complete point, both with an empty
// Chosen; ErrRetiredWhileReading; FromPoint's for a point that failed to
// read, which Chosen.Point names; cleanupplan.ErrUnorderedRecoveryPoints.
func FromDirs(ctx context.Context, st Store, checkpointDir, savepointDir string, f Follow, sel checkpoint.Selector) (Result, Chosen, error) {
	var retired []string
	for range followAttempts {
		listed, err := checkpoint.FindRecoveryPoints(ctx, st, checkpointDir, savepointDir)
		if err != nil {
			return Result{}, Chosen{}, err
		}
		if len(listed) == 0 && len(retired) == 0 {
			return Result{}, Chosen{}, fmt.Errorf("%w in %s", ErrNoRecoveryPoints, describeDirs(checkpointDir, savepointDir))
		}
		points, gone, failed, err := readPoints(ctx, st, listed, sel)
		retired = append(retired, gone...)
		if err != nil {
			return Result{}, Chosen{Point: failed, Listed: len(listed)}, err
		}
		if len(points) == 0 {
			continue
		}
		if err := OrderNewestFirst(points); err != nil {
			return Result{}, Chosen{Listed: len(points), Points: points}, err
		}
		chosen := f.choose(points)
		return points[chosen.Position-1].Result, chosen, nil
	}
	return Result{}, Chosen{}, fmt.Errorf("%w: each recovery point listed in %s was deleted before it could be read (%s)",
		ErrRetiredWhileReading, describeDirs(checkpointDir, savepointDir), strings.Join(retired, ", "))
}

// mayBeRetired reports a read failure that a point's deletion explains: a
// file that is gone.
func mayBeRetired(err error) bool {
	return errors.Is(err, checkpoint.ErrNotFound) || errors.Is(err, checkpoint.ErrMissingMetadata)
}

func describeDirs(checkpointDir, savepointDir string) string {
	switch {
	case checkpointDir == "":
		return "savepoint directory " + savepointDir
	case savepointDir == "":
		return "checkpoint directory " + checkpointDir
	}
	return fmt.Sprintf("checkpoint directory %s and savepoint directory %s", checkpointDir, savepointDir)
}
