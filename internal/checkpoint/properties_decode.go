package checkpoint

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
)

// propertiesDecoder decodes a well-formed stream's CheckpointProperties
// object against the class table, keeping the first difference from what
// Flink writes: the field that differs, the byte where it differs (not the
// start of the structure holding it), and what Flink's own loader does with
// that difference, as far as Java's ObjectInputStream settles it.
type propertiesDecoder struct {
	// handles is the stream's handle table, to tell which byte of a
	// back-reference was changed: the one where it differs from a
	// reference to the handle Flink's stream names there.
	handles []javaHandle
	at      int
	what    string
	verdict FlinkVerdict
	problem string
}

// failf keeps the first difference: what names the part that differs,
// problem (from format) completes "<what> at byte <at> ...".
func (x *propertiesDecoder) failf(at int, what string, verdict FlinkVerdict, format string, args ...any) {
	if x.problem == "" {
		x.at, x.what, x.verdict, x.problem = at, what, verdict, fmt.Sprintf(format, args...)
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
		// Java reads any booleans. The one changed is one that differs
		// from a nearest set a factory of Flink's creates; when several
		// sets are as near, each is named.
		changed := p.nearestFlinkBooleans()
		names := make([]string, len(changed))
		for i, f := range changed {
			names[i] = checkpointPropertiesClass.fields[f].name
		}
		at := root.values[changed[0]].(javaPrimitive).at
		problem := fmt.Sprintf("makes %s, which no factory of Flink's creates", p)
		if len(changed) > 1 {
			var where []string
			for i, f := range changed {
				where = append(where, fmt.Sprintf("byte %d (%s)", root.values[f].(javaPrimitive).at, names[i]))
			}
			problem += "; a single change explains it at " + strings.Join(where, " or ")
		}
		x.failf(at, "field "+strings.Join(names, " or ")+" of "+checkpointPropertiesClassName, FlinkLoads, "%s", problem)
	}
	return p
}

// nearestFlinkBooleans are the indexes, among p's booleans, of the first
// that differs from each factory-made set nearest to p (fewest differing
// flags), in field order.
func (p checkpointProperties) nearestFlinkBooleans() []int {
	got := p.booleans()
	var changed []int
	bestDiff := len(got) + 1
	for _, t := range flinkSnapshotTypes {
		if t.class != p.checkpointType.class {
			continue
		}
		for _, forced := range []bool{false, true} {
			for _, d := range append(slices.Clone(checkpointDiscards), [5]bool{}) {
				q := checkpointProperties{discardCancelled: d[0], discardFailed: d[1], discardFinished: d[2], discardSubsumed: d[3], discardSuspended: d[4], forced: forced, checkpointType: t}
				if !q.madeByFlink() {
					continue
				}
				first, n := -1, 0
				for i, b := range q.booleans() {
					if *b != *got[i] {
						n++
						if first < 0 {
							first = i
						}
					}
				}
				switch {
				case n == 0 || n > bestDiff:
				case n < bestDiff:
					changed, bestDiff = []int{first}, n
				case !slices.Contains(changed, first):
					changed = append(changed, first)
				}
			}
		}
	}
	slices.Sort(changed)
	return changed
}

// class checks that c, with its superclasses, is want as Flink writes it.
func (x *propertiesDecoder) class(c, want *javaClass) bool {
	if c.pos.ref {
		return x.referredClass(c, want)
	}
	switch {
	case c.name != want.name:
		// Java resolves a class by its name and fails when none has it;
		// the one exception is java.lang.Enum above an enum, whose
		// descriptor Java reads but never resolves against the constant.
		verdict := FlinkRefuses
		if want == javaEnumBase {
			verdict = FlinkLoads
		}
		x.failf(textByte(c.pos.name, c.name, want.name), "class name "+quoteJava(want.name), verdict,
			"reads %s", quoteJava(c.name))
	case c.uid != want.uid:
		var got, w [8]byte
		binary.BigEndian.PutUint64(got[:], uint64(c.uid))
		binary.BigEndian.PutUint64(w[:], uint64(want.uid))
		x.failf(c.pos.uid+firstDifference(string(got[:]), string(w[:])), "serialVersionUID of "+want.name, FlinkRefuses,
			"is %#x where Flink writes %#x", uint64(c.uid), uint64(want.uid))
	case c.flags != want.flags:
		x.failf(c.pos.flags, "class flags of "+want.name, flagsVerdict(c.flags, want.flags),
			"are %#02x where Flink writes %#02x", c.flags, want.flags)
	case len(c.fields) != len(want.fields):
		x.failf(c.pos.flags+1, "field count of "+want.name, FlinkVerdictUnknown,
			"is %d where Flink writes %d (%s)", len(c.fields), len(want.fields), fieldList(want.fields))
	case (c.super == nil) != (want.super == nil):
		x.failf(c.pos.at, "superclass of "+want.name, FlinkVerdictUnknown, "differs from Flink's")
	default:
		for i, f := range c.fields {
			if !x.fieldDesc(f, want.fields[i], want) {
				return false
			}
		}
		if c.super != nil {
			return x.class(c.super, want.super)
		}
	}
	return x.problem == ""
}

// referredClass checks a descriptor reached through a back-reference: it
// names a descriptor read earlier, which was checked where it stands, so a
// difference here is the reference's own.
func (x *propertiesDecoder) referredClass(c, want *javaClass) bool {
	if !sameClass(c, want) {
		x.failf(x.referenceByte(c.pos.at, c.pos.handle, func(h javaHandle) bool { return h.kind == tcClassDesc && sameClass(h.class, want) }),
			"back-reference to the class descriptor of "+want.name, FlinkVerdictUnknown, "names %s instead", c.name)
	}
	return x.problem == ""
}

// referenceByte is the byte of the back-reference at at (naming handle
// got) that differs from a reference to the first handle meant accepts;
// the reference's first byte when no handle is accepted.
func (x *propertiesDecoder) referenceByte(at, got int, meant func(javaHandle) bool) int {
	i := slices.IndexFunc(x.handles, meant)
	if i < 0 {
		return at
	}
	var g, w [4]byte
	binary.BigEndian.PutUint32(g[:], uint32(javaBaseWireHandle+got))
	binary.BigEndian.PutUint32(w[:], uint32(javaBaseWireHandle+i))
	return at + 1 + firstDifference(string(g[:]), string(w[:]))
}

// sameClass is c equal to want as Flink writes it, superclasses included.
func sameClass(c, want *javaClass) bool {
	for c != nil && want != nil {
		if c.name != want.name || c.uid != want.uid || c.flags != want.flags || len(c.fields) != len(want.fields) {
			return false
		}
		for i, f := range c.fields {
			if !f.sameAs(want.fields[i]) {
				return false
			}
		}
		c, want = c.super, want.super
	}
	return c == nil && want == nil
}

// fieldDesc compares one field descriptor with Flink's. Java matches a stream's
// fields to the class's by name: a primitive of another type fails, an
// object field's type string is never compared (the value is checked when
// assigned), and a renamed field is skipped and the class's left at its
// default, with effects this reader does not follow.
func (x *propertiesDecoder) fieldDesc(f, want javaField, c *javaClass) bool {
	what := "field " + want.name + " of " + c.name
	switch {
	case f.typeCode != want.typeCode:
		verdict := FlinkVerdictUnknown
		if isJavaPrimitive(f) || isJavaPrimitive(want) {
			verdict = FlinkRefuses
		}
		x.failf(f.pos.at, "type code of "+what, verdict, "is %q where Flink writes %q", f.typeCode, want.typeCode)
	case f.name != want.name:
		x.failf(textByte(f.pos.name, f.name, want.name), "name of "+what, FlinkVerdictUnknown, "reads %s", quoteJava(f.name))
	case f.signature != want.signature:
		at := textByte(f.pos.signature, f.signature, want.signature)
		if f.pos.signatureRef >= 0 {
			at = x.referenceByte(f.pos.signature, f.pos.signatureRef, func(h javaHandle) bool { return h.kind == tcString && h.str == want.signature })
		}
		x.failf(at, "type signature of "+what, FlinkLoads, "reads %s where Flink writes %s", quoteJava(f.signature), quoteJava(want.signature))
	}
	return x.problem == ""
}

// flagsVerdict: Java acts on the serializable, externalizable, writeObject
// and enum bits of a descriptor's flags and ignores the rest (and the
// block-data bit of a class that is not externalizable); an enum's
// serializable bit is never consulted either.
func flagsVerdict(got, want byte) FlinkVerdict {
	diff := got ^ want
	switch {
	case diff&(scEnum|scExternalizable|scWriteMethod) != 0:
		return FlinkRefuses
	case diff&scSerializable != 0 && want&scEnum == 0:
		return FlinkRefuses
	}
	return FlinkLoads
}

// complete refuses an object whose field values were not all read: one
// that a field of its own refers back to while it is being read.
func (x *propertiesDecoder) complete(h javaHandle) bool {
	if len(h.values) != len(h.class.fields) {
		x.failf(h.at, "object "+h.class.name, FlinkVerdictUnknown, "refers to itself")
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
// Flink's, though Flink loads it.
func (x *propertiesDecoder) boolean(v any, field string) bool {
	b := v.(javaPrimitive)
	if b.b[0] > 1 {
		x.failf(b.at, "field "+field+" of "+checkpointPropertiesClassName, FlinkLoads,
			"holds %#02x where Flink writes a boolean as 0 or 1 (Java reads it as true)", b.b[0])
	}
	return b.b[0] == 1
}

// snapshotNames are the names Flink gives each snapshot type class, and
// enumConstants the constants of each enum Flink has (a name outside them
// fails Enum.valueOf when Java reads it).
var (
	snapshotNames = map[*javaClass][]string{
		checkpointTypeClass: {"Checkpoint", "Full Checkpoint"},
		savepointTypeClass:  {"Savepoint", "Suspend Savepoint", "Terminate Savepoint"},
	}
	enumConstants = map[*javaClass][]string{
		savepointFormatTypeClass:  {"CANONICAL", "NATIVE"},
		postCheckpointActionClass: {"NONE", "SUSPEND", "TERMINATE"},
		sharingFilesStrategyClass: {"FORWARD_BACKWARD", "FORWARD", "NO_SHARING"},
	}
)

func (x *propertiesDecoder) snapshotType(h javaHandle) snapshotType {
	t := snapshotType{}
	const field = "field checkpointType of " + checkpointPropertiesClassName
	if h.kind != tcObject {
		x.failf(h.at, field, FlinkRefuses, "is a %s where Flink writes a CheckpointType or a SavepointType", javaKindName(h.kind))
		return t
	}
	t.class = checkpointTypeClass
	if h.class.name == savepointTypeClass.name ||
		(h.class.name != checkpointTypeClass.name && nearest(h.class.name, []string{checkpointTypeClass.name, savepointTypeClass.name}) == savepointTypeClass.name) {
		t.class = savepointTypeClass
	}
	if !x.class(h.class, t.class) || !x.complete(h) {
		return t
	}
	if t.class == checkpointTypeClass {
		t.name, t.sharing = x.name(h.values[0], t.class), x.enum(h.values[1], sharingFilesStrategyClass)
	} else {
		t.format, t.name, t.action = x.enum(h.values[0], savepointFormatTypeClass), x.name(h.values[1], t.class), x.enum(h.values[2], postCheckpointActionClass)
	}
	if x.problem == "" && !slices.Contains(flinkSnapshotTypes, t) {
		x.failf(h.at, field, FlinkLoads, "is %s, which Flink never creates", t)
	}
	return t
}

// name reads a snapshot type's name: a plain string to Java, so any text
// loads, but Flink only ever writes its own names.
func (x *propertiesDecoder) name(v any, c *javaClass) string {
	h := v.(javaHandle)
	what := "field name of " + c.name
	if h.kind != tcString {
		x.failf(h.at, what, FlinkRefuses, "is a %s where Flink writes a string (Java cannot assign it)", javaKindName(h.kind))
		return h.str
	}
	if names := snapshotNames[c]; !slices.Contains(names, h.str) {
		x.failf(textAt(h, names), what, FlinkLoads, "reads %s where Flink writes one of %s", quoteJava(h.str), quoteAll(names))
	}
	return h.str
}

func (x *propertiesDecoder) enum(v any, want *javaClass) string {
	h := v.(javaHandle)
	if h.kind != tcEnum {
		x.failf(h.at, "constant of "+want.name, FlinkRefuses, "is a %s where Flink writes an enum constant", javaKindName(h.kind))
		return ""
	}
	if !x.class(h.class, want) {
		return h.str
	}
	if constants := enumConstants[want]; !slices.Contains(constants, h.str) {
		x.failf(textAt(h, constants), "constant of "+want.name, FlinkRefuses,
			"reads %s, which %s does not have (Java's Enum.valueOf fails)", quoteJava(h.str), want.name)
	}
	return h.str
}

// textAt is the byte where h's text differs from the nearest of
// candidates (textByte); h's position when h is a back-reference (the
// reference itself is what changed).
func textAt(h javaHandle, candidates []string) int {
	if h.ref {
		return h.strAt
	}
	return textByte(h.strAt, h.str, nearest(h.str, candidates))
}

// textByte is the byte where a writeUTF text starting at at (past its
// two-byte length) differs from want: where the texts differ, or, when
// one is the other cut short, in the length before it.
func textByte(at int, got, want string) int {
	i := firstDifference(got, want)
	if i < min(len(got), len(want)) || len(got) == len(want) || len(got) > 0xFFFF || len(want) > 0xFFFF {
		return at + i
	}
	g, w := []byte{byte(len(got) >> 8), byte(len(got))}, []byte{byte(len(want) >> 8), byte(len(want))}
	return at - 2 + firstDifference(string(g), string(w))
}

// nearest is the candidate most like got: the same length first (a byte
// changed in place keeps the length), then the fewest differing bytes.
func nearest(got string, candidates []string) string {
	best, bestScore := candidates[0], -1
	for _, c := range candidates {
		score := 0
		if len(c) == len(got) {
			score += 1 << 20
		}
		for i := 0; i < min(len(c), len(got)); i++ {
			if c[i] == got[i] {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// firstDifference is the offset of the first byte where got and want
// differ, or the shorter's length.
func firstDifference(got, want string) int {
	n := min(len(got), len(want))
	for i := range n {
		if got[i] != want[i] {
			return i
		}
	}
	return n
}

func quoteJava(s string) string { return fmt.Sprintf("%q", s) }

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quoteJava(s)
	}
	return strings.Join(q, ", ")
}
