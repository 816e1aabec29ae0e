package cleanup

// Apply tells Request.Progress each step as it starts (for logs) and, with
// these names, each protocol milestone once it holds: what an operator
// watching one apply wants to see, in the order the protocol guarantees.
const (
	// StepCommitted: this apply recorded the plan COMMITTED; the runtime
	// enforces the boundary from here on. Fields: none beyond the plan's.
	StepCommitted = "COMMITTED recorded"
	// StepResumed: the plan was found COMMITTED (an interrupted apply, or
	// another writer) and this apply goes on from there.
	StepResumed = "COMMITTED found: resuming"
	// StepDeleted: DeleteRecords returned for every partition below the
	// target. Fields: partitions, records.
	StepDeleted = "DeleteRecords done"
	// StepVerified: every partition starts at or above the target and the
	// topic is still the one planned.
	StepVerified = "deletion verified"
	// StepApplied: APPLIED is recorded; the apply is over.
	StepApplied = "APPLIED recorded"
	// StepAlreadyApplied: the plan was APPLIED already, nothing below it
	// readable; nothing was written.
	StepAlreadyApplied = "already APPLIED"
	// StepAwaitingOtherApplier: another applier of the same control topic
	// fenced this one's transaction; this apply waits for the history to
	// show whether that applier finishes this plan.
	StepAwaitingOtherApplier = "fenced by another applier: waiting for it"
	// StepResumingFenced: the applier that fenced this one went quiet and
	// left this apply's plan COMMITTED (it was refused, failed or was
	// killed); this apply resumes the plan from the control topic itself.
	StepResumingFenced = "the other applier left the plan COMMITTED: resuming it"
	// StepAppliedByAnother: the applier that fenced this one recorded this
	// very plan APPLIED, nothing below it readable; this apply is over.
	StepAppliedByAnother = "APPLIED by another run"
)
