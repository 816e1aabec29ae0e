package cleanupplan

import (
	"errors"
	"fmt"
)

// Sentinel errors, matched with errors.Is. Every returned error wraps one of
// these and carries the specifics (field, partition, offsets) in its text.
var (
	// ErrMalformedPlan: a plan or control record breaks a rule of the spec.
	ErrMalformedPlan = errors.New("malformed cleanup plan")
	// ErrLegacyMarker: a checkpoint holds pre-versioned HashMap markers,
	// which do not name the physical topic and so cannot authorize deletion.
	ErrLegacyMarker = errors.New("legacy recovery marker")
	// ErrInconsistentMarkers: markers of one checkpoint disagree on topic,
	// topic ID, schema version or partition set.
	ErrInconsistentMarkers = errors.New("inconsistent recovery markers")
	// ErrTombstone: the control topic holds a null value; boundaries are
	// permanent, so a deleted one means the history cannot be trusted.
	ErrTombstone = errors.New("tombstone in control topic")
	// ErrCorruptControlLog: a control record contradicts an earlier one
	// (same plan ID with another plan, APPLIED going back to COMMITTED, a key
	// that is not the plan ID inside).
	ErrCorruptControlLog = errors.New("corrupt control log")
	// ErrForeignPlan: a recorded plan names another topic, topic ID or
	// partition set than the rest of the history (or than the data topic).
	ErrForeignPlan = errors.New("foreign plan in control topic")
	// ErrIncomparablePlans: two recorded plans neither advance nor equal each
	// other, so there is no single boundary to enforce.
	ErrIncomparablePlans = errors.New("incomparable plans in control topic")
	// ErrBackwardMove: a plan would lower the boundary for some partition.
	ErrBackwardMove = errors.New("cleanup boundary would move backward")
)

func malformed(field, problem string) error {
	return fmt.Errorf("%w: %s %s", ErrMalformedPlan, field, problem)
}
