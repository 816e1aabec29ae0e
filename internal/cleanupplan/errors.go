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
	// ErrUnorderedRecoveryPoints: two recovery points' markers name
	// different topics or partition sets, or each is ahead of the other on
	// some partition, so neither is older: no boundary can be derived
	// without guessing which of them may become unrestorable.
	ErrUnorderedRecoveryPoints = errors.New("recovery points cannot be ordered by their markers")
	// ErrBackwardMove: a plan would lower the boundary for some partition.
	ErrBackwardMove = errors.New("cleanup boundary would move backward")
	// ErrUnreadableRecord: a control record's value is not a control record
	// this protocol reads (not UTF-8, not JSON, too large, a byte-order mark,
	// or a plan breaking the spec's rules). Matched by a *RecordError; unlike
	// a malformed plan_json, nobody can regenerate it: it sits in the topic.
	ErrUnreadableRecord = errors.New("unreadable control record")
)

// RecordError is a control record that Log.Add refused, with where it was
// read, so a diagnostic can say how to inspect it. It unwraps to the
// reason: ErrTombstone, ErrCorruptControlLog or ErrMalformedPlan.
type RecordError struct {
	Offset int64
	Key    []byte
	// Size is the value's length in bytes.
	Size int
	Err  error
}

func (e *RecordError) Error() string {
	return fmt.Sprintf("control record at offset %d: %v", e.Offset, e.Err)
}

func (e *RecordError) Unwrap() error { return e.Err }

// Is makes a record whose value could not be read at all match
// ErrUnreadableRecord. A tombstone or a key that is not the plan ID inside
// was read fine and keeps its own sentinel.
func (e *RecordError) Is(target error) bool {
	return target == ErrUnreadableRecord && errors.Is(e.Err, ErrMalformedPlan)
}

// KeyMismatchError is a control record whose key is not the ID of the plan
// inside it: read fine, but not written by a tool of this protocol, which
// keys every record by its plan's ID. It matches ErrCorruptControlLog.
type KeyMismatchError struct {
	Key    []byte
	PlanID string
}

func (e *KeyMismatchError) Error() string {
	return fmt.Sprintf("%v: record key %q is not the ID of the plan inside it (%s)", ErrCorruptControlLog, e.Key, e.PlanID)
}

func (e *KeyMismatchError) Unwrap() error { return ErrCorruptControlLog }

func malformed(field, problem string) error {
	return fmt.Errorf("%w: %s %s", ErrMalformedPlan, field, problem)
}

// TrailingContentError is a plan file or control record whose one JSON
// object is followed by more than whitespace. The runtime reads both with
// Jackson's FAIL_ON_TRAILING_TOKENS and refuses them, so a record like this
// in a control topic fails every restore of a job configured with it.
type TrailingContentError struct {
	// Offset is the first byte after the object that is not whitespace.
	Offset int
	// Length is how many bytes follow from Offset.
	Length int
	// Record is what the object before the content holds, for a control
	// record whose object is itself a readable record; nil otherwise.
	Record *Record
}

func (e *TrailingContentError) Error() string {
	return fmt.Sprintf("at byte %d: unexpected content after the JSON object (%d bytes); the runtime's readers refuse content after the JSON document too",
		e.Offset, e.Length)
}
