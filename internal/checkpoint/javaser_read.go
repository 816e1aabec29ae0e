package checkpoint

// The reading side of the Java Object Serialization Stream Protocol
// (java.io.ObjectInputStream, protocol version 2), for one purpose: to tell
// whether bytes hold exactly what ObjectInputStream.readObject would read
// without failing. It checks the grammar and keeps the values of objects'
// fields and enum constants, so that the caller can check them against the
// classes Flink writes (javaser.go): Flink's loader refuses a _metadata whose
// trailing CheckpointProperties stream is cut short, malformed or of other
// classes, and so must we, but nothing in those properties is needed to read
// recovery markers.
//
// The grammar is the Java Object Serialization Specification, chapter 6.4,
// plus the checks ObjectInputStream makes while parsing that need no local
// classes (handle ranges, flag conflicts, field order, enum descriptors).
// Whether a serialVersionUID or an enum constant matches a class Flink has
// is checked by the caller (checkpoint_properties.go), not here. A class
// written by writeExternal in the old protocol version 1 has no length to
// skip by, so it is refused.
//
// Hostile input is bounded: every length is checked against the bytes left
// before anything is read or allocated, nesting is capped at
// javaMaxNesting, and the handle table at javaMaxHandles.

import "fmt"

const (
	tcArray          = 0x75
	tcClass          = 0x76
	tcBlockData      = 0x77
	tcReset          = 0x79
	tcBlockDataLong  = 0x7A
	tcException      = 0x7B
	tcLongString     = 0x7C
	tcProxyClassDesc = 0x7D

	scWriteMethod    = 0x01
	scExternalizable = 0x04
	scBlockData      = 0x08

	// javaMaxNesting bounds recursion (objects in fields, annotations and
	// arrays, class descriptors and their superclasses). Flink's
	// CheckpointProperties nest six deep; Java's own limit is the thread's
	// stack.
	javaMaxNesting = 64
	// javaMaxHandles bounds the handle table. Flink's CheckpointProperties
	// streams hold about 15 handles.
	javaMaxHandles = 1 << 12
)

// javaPrimitiveSize is the encoded size of each primitive type code.
var javaPrimitiveSize = map[byte]int{'B': 1, 'Z': 1, 'C': 2, 'S': 2, 'I': 4, 'F': 4, 'J': 8, 'D': 8}

// javaHandle is what a wire handle names: kind is the type code that
// created it (tcClassDesc for proxy descriptors too, tcString for long
// strings too).
type javaHandle struct {
	kind  byte
	at    int        // where the item starts in the stream
	class *javaClass // the descriptor, or the class of an object, enum or array
	str   string     // for tcString; an enum constant's name for tcEnum
	// values holds an object's field values in the order of its classes'
	// fields, topmost superclass first: a javaPrimitive, or the javaHandle
	// of an object field.
	values []any
	// ready is false while a class descriptor is still being read: Java
	// refuses references to it until then ("Class descriptor should be
	// initialized"), which also rules out cycles of superclasses.
	ready bool
	// ref is true when this position held a back-reference (at is then
	// the TC_REFERENCE, refTo the handle it names); the handle's other
	// fields are the referred item's.
	ref   bool
	refTo int
	// strAt is where the text of a string, or of an enum constant's name,
	// starts in the stream: past its length, or at the back-reference that
	// stands for it, which is where a change of that text shows.
	strAt int
}

// javaPrimitive is a primitive field's value: its bytes and where they are.
type javaPrimitive struct {
	at int
	b  []byte
}

// javaStreamReader reads one stream from d, starting at the stream header.
type javaStreamReader struct {
	d       *dataInput
	handles []javaHandle
	nesting int
	// freeBytes, when set, is told of every byte range whose value the
	// grammar leaves open (string contents, serialVersionUIDs, primitive
	// values, block data): tests use it to know which single-byte changes a
	// well-formedness check cannot detect.
	freeBytes func(off, n int)
}

// readJavaStreamObject reads a stream header and one top-level item, as
// new ObjectInputStream(in).readObject() does. It stops after that item;
// the caller decides what it may be and what may follow.
func (r *javaStreamReader) readJavaStreamObject() javaHandle {
	d := r.d
	start := d.off
	if magic := uint16(d.i16("stream magic")); d.err == nil && magic != javaStreamMagic {
		d.off = start
		d.failf("stream magic %04x, want %04x", magic, javaStreamMagic)
	}
	if version := d.i16("stream version"); d.err == nil && version != javaStreamVersion {
		d.off -= 2
		d.failf("stream version %d, want %d", version, javaStreamVersion)
	}
	// readObject skips resets before the object it returns.
	for d.err == nil && d.remaining() > 0 && d.b[d.off] == tcReset {
		d.off++
		r.handles = r.handles[:0]
	}
	return r.object("top-level object")
}

// object reads one item in object position (readObject0). A null is
// returned as kind tcNull.
func (r *javaStreamReader) object(what string) javaHandle {
	d := r.d
	if !r.nest(what) {
		return javaHandle{}
	}
	defer r.unnest()
	at := d.off
	ref := at < len(d.b) && d.b[at] == tcReference
	h := r.item(what)
	h.at, h.ref = at, ref
	switch {
	case ref:
		h.strAt = at
	case h.kind == tcString && d.b[at] == tcLongString:
		h.strAt = at + 9
	case h.kind == tcString:
		h.strAt = at + 3
	}
	return h
}

// item reads what object reads, from its type code on.
func (r *javaStreamReader) item(what string) javaHandle {
	d := r.d
	tc := d.u8(what)
	if d.err != nil {
		return javaHandle{}
	}
	switch tc {
	case tcNull:
		return javaHandle{kind: tcNull}
	case tcReference:
		return r.reference(what)
	case tcClassDesc, tcProxyClassDesc:
		d.off--
		return javaHandle{kind: tcClassDesc, class: r.classDesc(what), ready: true}
	case tcString:
		return r.assign(javaHandle{kind: tcString, str: r.utf(what)})
	case tcLongString:
		return r.assign(javaHandle{kind: tcString, str: r.longUTF(what)})
	case tcObject:
		c := r.nonNullClassDesc(what)
		slot := len(r.handles)
		h := r.assign(javaHandle{kind: tcObject, class: c})
		h.values = r.objectData(c)
		if d.err == nil {
			r.handles[slot].values = h.values
		}
		return h
	case tcEnum:
		at := d.off
		c := r.nonNullClassDesc(what)
		// The enum and its superclass java.lang.Enum are both marked as
		// enums; Java refuses to bind a descriptor whose mark differs from
		// its class's.
		for k := c; k != nil && d.err == nil; k = k.super {
			if k.flags&scEnum == 0 {
				d.off = at
				d.failf("%s: enum constant of %s, whose class %s is not marked as an enum", what, c.name, k.name)
			}
		}
		slot := len(r.handles)
		h := r.assign(javaHandle{kind: tcEnum, class: c})
		name := r.object("enum constant name")
		if d.err == nil && name.kind != tcString {
			d.failf("enum constant name of %s is a %s, not a string", c.name, javaKindName(name.kind))
		}
		if d.err == nil {
			h.str, h.strAt = name.str, name.strAt
			r.handles[slot].str = name.str
		}
		return h
	case tcArray:
		return r.array(what)
	case tcClass:
		c := r.nonNullClassDesc(what)
		return r.assign(javaHandle{kind: tcClass, class: c})
	case tcReset:
		d.off--
		d.failf("%s: reset inside an object (Java allows it only between top-level objects)", what)
	case tcException:
		d.off--
		d.failf("%s: the writer aborted and wrote an exception instead (TC_EXCEPTION)", what)
	case tcBlockData, tcBlockDataLong, tcEndBlockData:
		d.off--
		d.failf("%s: block data where an object belongs (type code %#02x)", what, tc)
	default:
		d.off--
		d.failf("%s: unknown type code %#02x", what, tc)
	}
	return javaHandle{}
}

// nest guards every recursive step; unnest undoes it.
func (r *javaStreamReader) nest(what string) bool {
	if r.nesting >= javaMaxNesting {
		r.d.failf("%s: nested deeper than %d objects and class descriptors", what, javaMaxNesting)
		return false
	}
	r.nesting++
	return true
}

func (r *javaStreamReader) unnest() { r.nesting-- }

func (r *javaStreamReader) assign(h javaHandle) javaHandle {
	d := r.d
	if d.err == nil && len(r.handles) >= javaMaxHandles {
		d.failf("more than %d objects in the stream", javaMaxHandles)
	}
	if d.err == nil {
		r.handles = append(r.handles, h)
	}
	return h
}

// reference reads a handle after TC_REFERENCE.
func (r *javaStreamReader) reference(what string) javaHandle {
	d := r.d
	at := d.off
	v := d.i32(what)
	if d.err != nil {
		return javaHandle{}
	}
	i := int64(v) - javaBaseWireHandle
	if i < 0 || i >= int64(len(r.handles)) {
		d.off = at
		d.failf("%s: back-reference %#08x to no object (%d objects read)", what, uint32(v), len(r.handles))
		return javaHandle{}
	}
	h := r.handles[i]
	h.refTo = int(i)
	return h
}

// objectData reads the data of a new object of class c: each serializable
// class from the topmost superclass down writes its field values, then,
// when it has a writeObject method, what that wrote up to TC_ENDBLOCKDATA.
// It returns the field values (see javaHandle.values).
func (r *javaStreamReader) objectData(c *javaClass) []any {
	d := r.d
	if d.err != nil {
		return nil
	}
	if c.flags&scExternalizable != 0 {
		if c.flags&scBlockData == 0 {
			d.failf("class %s was written by writeExternal in protocol version 1, which cannot be read without the class", c.name)
			return nil
		}
		r.annotation("external data of " + c.name)
		return nil
	}
	if c.flags&scSerializable == 0 {
		d.failf("object of class %s, which is not serializable", c.name)
		return nil
	}
	// Superclass chains are acyclic (see javaHandle.ready) and each class
	// took stream bytes, so this is bounded by the input.
	var chain []*javaClass
	for k := c; k != nil; k = k.super {
		chain = append(chain, k)
	}
	var values []any
	for i := len(chain) - 1; i >= 0 && d.err == nil; i-- {
		k := chain[i]
		if k.flags&scSerializable == 0 {
			continue
		}
		values = append(values, r.fieldValues(k)...)
		if k.flags&scWriteMethod != 0 {
			r.annotation("writeObject data of " + k.name)
		}
	}
	return values
}

// fieldValues reads the values of k's own fields: all primitives as one run
// of bytes, then each object field.
func (r *javaStreamReader) fieldValues(k *javaClass) []any {
	d := r.d
	prim := 0
	for _, f := range k.fields {
		prim += javaPrimitiveSize[f.typeCode]
	}
	at := d.off
	run := d.take(prim, "primitive field values of "+k.name)
	r.free(at, d.off-at)
	values := make([]any, len(k.fields))
	for i, f := range k.fields {
		if d.err != nil {
			return nil
		}
		if n, ok := javaPrimitiveSize[f.typeCode]; ok {
			values[i], run, at = javaPrimitive{at: at, b: run[:n]}, run[n:], at+n
			continue
		}
		values[i] = r.object("field " + f.name + " of " + k.name)
	}
	return values
}

// array reads an array after TC_ARRAY. The element type is the second
// character of the array class name ("[I", "[Ljava.lang.String;").
func (r *javaStreamReader) array(what string) javaHandle {
	d := r.d
	at := d.off
	c := r.nonNullClassDesc(what)
	if d.err != nil {
		return javaHandle{}
	}
	if len(c.name) < 2 || c.name[0] != '[' {
		d.off = at
		d.failf("%s: array of class %q, which is not an array class", what, c.name)
		return javaHandle{}
	}
	elem := c.name[1]
	size, isPrimitive := javaPrimitiveSize[elem]
	if !isPrimitive {
		size = 1 // every object takes at least its type code
		if elem != 'L' && elem != '[' {
			d.off = at
			d.failf("%s: array class %q has unknown element type", what, c.name)
			return javaHandle{}
		}
	}
	n := d.count("array length of "+c.name, size)
	h := r.assign(javaHandle{kind: tcArray, class: c})
	if isPrimitive {
		valuesAt := d.off
		d.take(n*size, "elements of "+c.name)
		r.free(valuesAt, d.off-valuesAt)
		return h
	}
	for i := 0; i < n && d.err == nil; i++ {
		r.object("element of " + c.name)
	}
	return h
}

// annotation reads block data and objects up to TC_ENDBLOCKDATA: a class
// annotation, or what a writeObject or block-mode writeExternal method wrote.
func (r *javaStreamReader) annotation(what string) {
	d := r.d
	for d.err == nil {
		if d.remaining() == 0 {
			d.take(1, what+" (end marker)")
			return
		}
		switch d.b[d.off] {
		case tcEndBlockData:
			d.off++
			return
		case tcBlockData:
			d.off++
			n := int(d.u8("block data length"))
			r.blockData(n, what)
		case tcBlockDataLong:
			d.off++
			r.blockData(d.count("block data length", 1), what)
		default:
			r.object(what)
		}
	}
}

func (r *javaStreamReader) blockData(n int, what string) {
	at := r.d.off
	r.d.take(n, "block data of "+what)
	r.free(at, r.d.off-at)
}

// utf reads a writeUTF string, reporting its contents as free bytes.
func (r *javaStreamReader) utf(what string) string {
	start := r.d.off
	s := r.d.utf(what)
	if r.d.err == nil {
		r.free(start+2, r.d.off-start-2)
	}
	return s
}

// longUTF reads the contents of TC_LONGSTRING: an i64 length, then
// modified UTF-8.
func (r *javaStreamReader) longUTF(what string) string {
	d := r.d
	at := d.off
	n := d.i64(what + " length")
	if d.err != nil {
		return ""
	}
	if n < 0 || n > int64(d.remaining()) {
		d.off = at
		d.failf("%s: long string of %d bytes, %d left", what, n, d.remaining()-8)
		d.ended = n >= 0
		return ""
	}
	start := d.off
	s, ok := decodeModifiedUTF8(d.take(int(n), what))
	if !ok {
		d.off = start
		d.failf("%s: invalid modified UTF-8", what)
		return ""
	}
	r.free(start, int(n))
	return s
}

func (r *javaStreamReader) free(off, n int) {
	if r.freeBytes != nil && n > 0 && r.d.err == nil {
		r.freeBytes(off, n)
	}
}

// javaKindName names a handle kind for error messages.
func javaKindName(kind byte) string {
	switch kind {
	case tcNull:
		return "null"
	case tcClassDesc:
		return "class descriptor"
	case tcString:
		return "string"
	case tcObject:
		return "object"
	case tcEnum:
		return "enum constant"
	case tcArray:
		return "array"
	case tcClass:
		return "class"
	}
	return fmt.Sprintf("type code %#02x", kind)
}
