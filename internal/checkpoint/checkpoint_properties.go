package checkpoint

import (
	"fmt"
	"slices"
)

// checkpointProperties is the value of Flink's CheckpointProperties, the
// object that ends a version 4+ _metadata. The writer encodes it and the
// reader decodes it through the same class table (javaser.go), and the
// reader accepts only values Flink's factories create: a file holding
// anything else was not written by Flink, and Flink's own loader refuses
// it (other classes, serialVersionUIDs or constants) or reads it as other
// properties than were written.
type checkpointProperties struct {
	discardCancelled, discardFailed, discardFinished, discardSubsumed, discardSuspended bool
	forced, unclaimed                                                                   bool
	checkpointType                                                                      snapshotType
}

// snapshotType is a checkpointType: a CheckpointType (name,
// sharingFilesStrategy) or a SavepointType (formatType, name,
// postCheckpointAction).
type snapshotType struct {
	class   *javaClass // checkpointTypeClass or savepointTypeClass
	name    string
	sharing string // CheckpointType's SnapshotType$SharingFilesStrategy
	format  string // SavepointType's SavepointFormatType
	action  string // SavepointType's PostCheckpointAction
}

// savepointNames pairs SavepointType's names with their post-checkpoint
// actions (SavepointType.savepoint, suspend, terminate).
var savepointNames = []struct{ name, action string }{
	{"Savepoint", "NONE"}, {"Suspend Savepoint", "SUSPEND"}, {"Terminate Savepoint", "TERMINATE"},
}

// flinkSnapshotTypes are every checkpointType Flink creates:
// CheckpointType.CHECKPOINT and FULL_CHECKPOINT, and the three
// SavepointTypes in each SavepointFormatType.
var flinkSnapshotTypes = func() []snapshotType {
	ts := []snapshotType{
		{class: checkpointTypeClass, name: "Checkpoint", sharing: "FORWARD_BACKWARD"},
		{class: checkpointTypeClass, name: "Full Checkpoint", sharing: "FORWARD"},
	}
	for _, format := range []string{"CANONICAL", "NATIVE"} {
		for _, s := range savepointNames {
			ts = append(ts, snapshotType{class: savepointTypeClass, name: s.name, format: format, action: s.action})
		}
	}
	return ts
}()

// checkpointDiscards are the discard flags (cancelled, failed, finished,
// subsumed, suspended) of CheckpointProperties.forCheckpoint's three
// retention policies: NEVER_RETAIN_AFTER_TERMINATION, RETAIN_ON_FAILURE,
// RETAIN_ON_CANCELLATION. Savepoints discard nothing.
var checkpointDiscards = [][5]bool{
	{true, true, true, true, true},
	{true, false, true, true, true},
	{false, false, true, true, false},
}

// flinkSavepointType is the SavepointType of that name in format.
func flinkSavepointType(name, format string) snapshotType {
	i := slices.IndexFunc(flinkSnapshotTypes, func(t snapshotType) bool { return t.name == name && t.format == format })
	return flinkSnapshotTypes[i]
}

// madeByFlink reports whether one of CheckpointProperties' factories
// creates p: forCheckpoint (forced when triggered by hand), forSavepoint and
// forSyncSavepoint. forUnclaimedSnapshot is left out: Flink builds it for a
// restored snapshot and never writes it.
func (p checkpointProperties) madeByFlink() bool {
	if !slices.Contains(flinkSnapshotTypes, p.checkpointType) || p.unclaimed {
		return false
	}
	discard := [5]bool{p.discardCancelled, p.discardFailed, p.discardFinished, p.discardSubsumed, p.discardSuspended}
	if p.checkpointType.class == savepointTypeClass {
		return discard == [5]bool{}
	}
	return slices.Contains(checkpointDiscards, discard)
}

// booleans are p's boolean fields in checkpointPropertiesClass's order.
func (p *checkpointProperties) booleans() []*bool {
	return []*bool{&p.discardCancelled, &p.discardFailed, &p.discardFinished, &p.discardSubsumed, &p.discardSuspended, &p.forced, &p.unclaimed}
}

// javaObject is p as the writer serializes it.
func (p checkpointProperties) javaObject() javaObject {
	var values []any
	for _, b := range p.booleans() {
		values = append(values, *b)
	}
	t := p.checkpointType
	typ := javaObject{class: t.class, values: []any{t.name, javaEnum{class: sharingFilesStrategyClass, name: t.sharing}}}
	if t.class == savepointTypeClass {
		typ.values = []any{javaEnum{class: savepointFormatTypeClass, name: t.format}, t.name, javaEnum{class: postCheckpointActionClass, name: t.action}}
	}
	return javaObject{class: checkpointPropertiesClass, values: append(values, typ)}
}

func (t snapshotType) String() string {
	if t.class == checkpointTypeClass {
		return fmt.Sprintf("CheckpointType{name %q, sharingFilesStrategy %s}", t.name, t.sharing)
	}
	return fmt.Sprintf("SavepointType{formatType %s, name %q, postCheckpointAction %s}", t.format, t.name, t.action)
}

func (p checkpointProperties) String() string {
	return fmt.Sprintf("CheckpointProperties{discardCancelled %t, discardFailed %t, discardFinished %t, discardSubsumed %t, discardSuspended %t, forced %t, unclaimed %t, %s}",
		p.discardCancelled, p.discardFailed, p.discardFinished, p.discardSubsumed, p.discardSuspended, p.forced, p.unclaimed, p.checkpointType)
}
