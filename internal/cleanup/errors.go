package cleanup

import "errors"

// Sentinel errors of the coordinator, matched with errors.Is. The plan
// model's sentinels (cleanupplan.ErrBackwardMove, ErrTombstone,
// ErrForeignPlan, ErrIncomparablePlans, ...) pass through unchanged.
var (
	// ErrTopicMismatch: the plan cleans another topic than the one the
	// caller bound (the boundary resource's action_state_topic).
	ErrTopicMismatch = errors.New("plan names another action-state topic")
	// ErrTopicIDChanged: the data topic's ID is not the plan's: it was
	// deleted and recreated, and the plan's offsets mean nothing for it.
	ErrTopicIDChanged = errors.New("action-state topic ID changed")
	// ErrActionStateTopicGone: the plan's topic no longer exists. A plan's
	// topic ID comes from a checkpoint, so the topic existed once: it was
	// deleted, not "not created yet". Unlike kafkaops.ErrTopicNotFound it is
	// never read as a topic the same apply will create.
	ErrActionStateTopicGone = errors.New("action-state topic no longer exists")
	// ErrTopicRecreatedDuringApply: the data topic was deleted or recreated
	// after this apply recorded the plan as COMMITTED. The error says
	// whether a DeleteRecords request was sent and, when it was, which
	// partitions of which topic ID it may have reached.
	ErrTopicRecreatedDuringApply = errors.New("action-state topic deleted or recreated during the apply")
	// ErrPartitionSetChanged: the data topic's partitions are not the plan's.
	ErrPartitionSetChanged = errors.New("action-state topic partition set changed")
	// ErrDataTopicSettings: cleanup.policy / retention.ms / retention.bytes
	// are not compact,delete / -1 / -1.
	ErrDataTopicSettings = errors.New("action-state topic settings do not allow cleanup")
	// ErrOffsetOutOfRange: a plan not recorded yet has an offset outside
	// its partition's available range (an *UnavailableOffsetError): below
	// the log start, records it needs were deleted out of band; above the
	// end, it does not come from this topic's history. Or the partition's
	// offsets were not answered.
	ErrOffsetOutOfRange = errors.New("plan offset outside the partition's available range")
	// ErrControlTopicIDChanged: the control topic's ID is not the one the
	// caller recorded: it was deleted and recreated, and the boundaries
	// recorded in the old one are not in it.
	ErrControlTopicIDChanged = errors.New("control topic ID changed")
	// ErrControlTopicChanging: the control topic's history changed after
	// every one of an apply's commit transactions validated it, so each was
	// aborted; a writer outside the transactional fencing is busy on it.
	ErrControlTopicChanging = errors.New("control topic kept changing during the apply")
	// ErrControlTopicMisconfigured: the control topic is missing, has more
	// than one partition, lets retention delete records, or is the data topic.
	ErrControlTopicMisconfigured = errors.New("control topic misconfigured")
	// ErrNotAuthorized: the principal lacks an ACL the whole protocol needs;
	// found before anything is committed.
	ErrNotAuthorized = errors.New("missing Kafka permission for cleanup")
	// ErrDeleteNotEffective: after DeleteRecords a partition still starts
	// below the target.
	ErrDeleteNotEffective = errors.New("records below the boundary are still present")
)
