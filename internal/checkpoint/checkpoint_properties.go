package checkpoint

import (
	"fmt"
	"slices"
	"strings"
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

// propertiesDecoder decodes a well-formed stream's CheckpointProperties
// object against the class table, keeping the first difference from what
// Flink writes and where it is.
type propertiesDecoder struct {
	at      int
	problem string
}

func (x *propertiesDecoder) failf(at int, format string, args ...any) {
	if x.problem == "" {
		x.at, x.problem = at, fmt.Sprintf(format, args...)
	}
}

func (x *propertiesDecoder) properties(root javaHandle) checkpointProperties {
	var p checkpointProperties
	if !x.class(root.class, checkpointPropertiesClass) || !x.complete(root) {
		return p
	}
	for i, b := range p.booleans() {
		*b = x.boolean(root.values[i], checkpointPropertiesClass.fields[i].name)
	}
	p.checkpointType = x.snapshotType(root.values[len(root.values)-1].(javaHandle))
	if x.problem == "" && !p.madeByFlink() {
		x.failf(root.at, "no factory of Flink's CheckpointProperties creates %s", p)
	}
	return p
}

// class checks that c, with its superclasses, is want as Flink writes it.
func (x *propertiesDecoder) class(c, want *javaClass) bool {
	switch {
	case c.name != want.name:
		x.failf(c.at, "class %s where Flink writes %s", c.name, want.name)
	case c.uid != want.uid:
		x.failf(c.at, "unexpected serialVersionUID %#x for %s (Flink writes %#x)", uint64(c.uid), c.name, uint64(want.uid))
	case c.flags != want.flags:
		x.failf(c.at, "unexpected class flags %#02x for %s (Flink writes %#02x)", c.flags, c.name, want.flags)
	case !slices.Equal(c.fields, want.fields):
		x.failf(c.at, "class %s has the fields %s (Flink writes %s)", c.name, fieldList(c.fields), fieldList(want.fields))
	case (c.super == nil) != (want.super == nil):
		x.failf(c.at, "class %s has another superclass than Flink writes", c.name)
	case c.super != nil:
		return x.class(c.super, want.super)
	}
	return x.problem == ""
}

// complete refuses an object whose field values were not all read: one
// that a field of its own refers back to while it is being read.
func (x *propertiesDecoder) complete(h javaHandle) bool {
	if len(h.values) != len(h.class.fields) {
		x.failf(h.at, "%s refers to itself", h.class.name)
	}
	return x.problem == ""
}

func fieldList(fs []javaField) string {
	var parts []string
	for _, f := range fs {
		t := string(f.typeCode)
		if f.signature != "" {
			t = f.signature
		}
		parts = append(parts, t+" "+f.name)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// boolean reads a boolean field. Java reads any non-zero byte as true, but
// DataOutputStream.writeBoolean writes only 0 or 1: anything else is not
// Flink's.
func (x *propertiesDecoder) boolean(v any, field string) bool {
	b := v.(javaPrimitive)
	if b.b[0] > 1 {
		x.failf(b.at, "field %s of %s holds %#02x; Flink writes a boolean as 0 or 1", field, checkpointPropertiesClassName, b.b[0])
	}
	return b.b[0] == 1
}

func (x *propertiesDecoder) snapshotType(h javaHandle) snapshotType {
	t := snapshotType{}
	if h.kind != tcObject {
		x.failf(h.at, "checkpointType is a %s; Flink writes a CheckpointType or a SavepointType", javaKindName(h.kind))
		return t
	}
	switch h.class.name {
	case checkpointTypeClass.name:
		t.class = checkpointTypeClass
	case savepointTypeClass.name:
		t.class = savepointTypeClass
	default:
		x.failf(h.at, "checkpointType is a %s; Flink writes a CheckpointType or a SavepointType", h.class.name)
		return t
	}
	if !x.class(h.class, t.class) || !x.complete(h) {
		return t
	}
	if t.class == checkpointTypeClass {
		t.name, t.sharing = x.str(h.values[0], t.class, "name"), x.enum(h.values[1], sharingFilesStrategyClass)
	} else {
		t.format, t.name, t.action = x.enum(h.values[0], savepointFormatTypeClass), x.str(h.values[1], t.class, "name"), x.enum(h.values[2], postCheckpointActionClass)
	}
	if x.problem == "" && !slices.Contains(flinkSnapshotTypes, t) {
		x.failf(h.at, "checkpointType %s is not one Flink creates", t)
	}
	return t
}

func (x *propertiesDecoder) str(v any, c *javaClass, field string) string {
	h := v.(javaHandle)
	if h.kind != tcString {
		x.failf(h.at, "field %s of %s is a %s, not a string", field, c.name, javaKindName(h.kind))
	}
	return h.str
}

func (x *propertiesDecoder) enum(v any, want *javaClass) string {
	h := v.(javaHandle)
	if h.kind != tcEnum {
		x.failf(h.at, "a %s where Flink writes a constant of %s", javaKindName(h.kind), want.name)
		return ""
	}
	x.class(h.class, want)
	return h.str
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
