package recoveryplan

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// Point is a complete recovery point with the plan its markers merge to.
type Point struct {
	checkpoint.RecoveryPoint
	Result
}

// readPoints derives the plan of every listed point. A point that fails to
// read because it is gone (Flink retired it after the listing) is no longer
// a recovery point: it is left out and named in retired. Any other failure
// is returned with the point, never skipped: a point whose markers are
// unknown cannot be kept restorable.
func readPoints(ctx context.Context, st Store, listed []checkpoint.RecoveryPoint, sel checkpoint.Selector) (points []Point, retired []string, failed checkpoint.RecoveryPoint, err error) {
	for _, p := range listed {
		res, err := FromPoint(ctx, st, p, sel)
		if err != nil && mayBeRetired(err) {
			if still, serr := p.StillComplete(ctx, st); serr == nil && !still {
				retired = append(retired, p.Path)
				continue
			}
		}
		if err != nil {
			return nil, retired, p, err
		}
		points = append(points, Point{RecoveryPoint: p, Result: res})
	}
	return points, retired, checkpoint.RecoveryPoint{}, nil
}

// OrderNewestFirst sorts points newest first by their markers
// (cleanupplan.SortByOffsets), never by file times: copying, syncing or
// touching a point changes its _metadata time, not its markers. Points
// with equal markers are equally restorable under any boundary; among
// them checkpoints are newer than savepoints, a higher checkpoint ID newer
// than a lower one, and savepoints are ordered by path, so the choice (and
// the plan ID, which names the point) is the same on every run.
func OrderNewestFirst(points []Point) error {
	err := cleanupplan.SortByOffsets(points, func(p Point) cleanupplan.Plan { return p.Plan }, func(a, b Point) int {
		if a.Kind != b.Kind {
			if a.Kind == checkpoint.KindSavepoint {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(a.NameID, b.NameID); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	slices.Reverse(points)
	return err
}
