package cleanup

import "errors"

// WrittenBeforeError is a failure or refusal met after this apply wrote to
// Kafka (its own COMMITTED, or DeleteRecords): Written says what, so no
// message built on the error claims that nothing was written. Matched with
// errors.As; it unwraps to the failure.
type WrittenBeforeError struct {
	// Written is a sentence: "Before this, the apply recorded plan ... as
	// COMMITTED in the control topic with ID ...[, and deleted records of
	// ...]".
	Written string
	Err     error
}

func (e *WrittenBeforeError) Error() string { return e.Err.Error() + ". " + e.Written }

func (e *WrittenBeforeError) Unwrap() error { return e.Err }

// sayWritten wraps err in a *WrittenBeforeError when this apply wrote
// something before it; errors that say it already pass unchanged.
func (a *applier) sayWritten(err error) error {
	if err == nil || (!a.committedHere && a.deleted == nil) || errors.Is(err, ErrControlTopicIDChanged) || errors.Is(err, ErrTopicRecreatedDuringApply) {
		return err
	}
	if _, ok := errors.AsType[*WrittenBeforeError](err); ok {
		return err
	}
	return &WrittenBeforeError{Written: a.writtenSoFar(), Err: err}
}
