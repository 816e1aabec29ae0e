package checkpoint

// The part of the Java Object Serialization Stream Protocol
// (java.io.ObjectOutputStream, protocol version 2) that Flink's _metadata
// needs: from version 4 on, MetadataV4Serializer ends the file with the
// CheckpointProperties object written by ObjectOutputStream.writeObject, and
// Flink's loader (including the State Processor API) refuses a file without
// it ("Couldn't deserialize checkpoint properties").
//
// Only what that object graph uses is supported: serializable classes with
// default field serialization, strings, enums, booleans and back-references.

const (
	javaStreamMagic   = 0xACED
	javaStreamVersion = 5

	tcNull         = 0x70
	tcReference    = 0x71
	tcClassDesc    = 0x72
	tcObject       = 0x73
	tcString       = 0x74
	tcEndBlockData = 0x78
	tcEnum         = 0x7E

	javaBaseWireHandle = 0x7E0000

	scSerializable = 0x02
	scEnum         = 0x10
)

// javaClass is a class descriptor. Fields must be listed as
// ObjectStreamClass orders them (primitives first, then objects, each
// group sorted by name), which is also the order values are written in.
type javaClass struct {
	name   string
	uid    int64 // serialVersionUID: declared, or the JVM's computed hash
	flags  byte
	fields []javaField
	super  *javaClass
	// pos is where a descriptor read from a stream has each part, so that
	// a difference from Flink's class is reported at its own byte.
	pos javaClassPos
}

// javaClassPos locates a class descriptor's parts in a stream: at the
// descriptor (TC_CLASSDESC), name the class name's first byte after its
// length, uid and flags theirs. For a descriptor reached through a
// back-reference, ref is set and at is the TC_REFERENCE: any difference
// there is the reference's.
type javaClassPos struct {
	at, name, uid, flags int
	ref                  bool
	handle               int // the handle a back-reference names
}

type javaField struct {
	typeCode  byte // a primitive's type code ('Z' boolean, ...), or 'L' or '[' for an object
	name      string
	signature string // JVM type signature, for 'L' fields
	// pos locates a field read from a stream: its type code, its name's
	// first byte after the length, and its signature's text (or the
	// back-reference standing for it, naming handle signatureRef; -1 for
	// a string written in place).
	pos struct{ at, name, signature, signatureRef int }
}

// sameAs compares what a field declares, wherever it was read.
func (f javaField) sameAs(o javaField) bool {
	return f.typeCode == o.typeCode && f.name == o.name && f.signature == o.signature
}

// javaObject is an instance of a class with only serializable fields and no
// serializable superclass; values follow class.fields (bool, string,
// javaObject or javaEnum).
type javaObject struct {
	class  *javaClass
	values []any
}

type javaEnum struct {
	class *javaClass
	name  string
}

// javaEnumBase is java.lang.Enum, the serializable superclass descriptor of
// every enum (enum descriptors always carry serialVersionUID 0).
var javaEnumBase = &javaClass{name: "java.lang.Enum", flags: scSerializable | scEnum}

func javaEnumClass(name string) *javaClass {
	return &javaClass{name: name, flags: scSerializable | scEnum, super: javaEnumBase}
}

// javaWriter assigns wire handles in write order, as ObjectOutputStream's
// handle table does, so repeated class descriptors and interned type
// signatures become back-references.
type javaWriter struct {
	o       dataOutput
	handles map[any]int32
}

// javaSerialize is ObjectOutputStream.writeObject(root) on a fresh stream.
func javaSerialize(root javaObject) []byte {
	w := &javaWriter{handles: map[any]int32{}}
	w.o.b = append(w.o.b, javaStreamMagic>>8, javaStreamMagic&0xFF, 0, javaStreamVersion)
	w.object(root)
	return w.o.b
}

func (w *javaWriter) assign(key any) {
	if key != nil {
		w.handles[key] = javaBaseWireHandle + int32(len(w.handles))
		return
	}
	// A handle nothing refers back to still takes a slot.
	w.handles[new(int)] = javaBaseWireHandle + int32(len(w.handles))
}

func (w *javaWriter) backReference(key any) bool {
	h, ok := w.handles[key]
	if ok {
		w.o.u8(tcReference)
		w.o.i32(h)
	}
	return ok
}

func (w *javaWriter) classDesc(c *javaClass) {
	if c == nil {
		w.o.u8(tcNull)
		return
	}
	if w.backReference(c) {
		return
	}
	w.o.u8(tcClassDesc)
	w.o.utf(c.name)
	w.o.i64(c.uid)
	w.assign(c)
	w.o.u8(c.flags)
	w.o.i16(int16(len(c.fields)))
	for _, f := range c.fields {
		w.o.u8(f.typeCode)
		w.o.utf(f.name)
		if f.typeCode == 'L' {
			w.typeSignature(f.signature)
		}
	}
	w.o.u8(tcEndBlockData) // no class annotation
	w.classDesc(c.super)
}

// typeSignature writes a field's type string. The JVM interns these, so an
// equal signature written before is a back-reference.
func (w *javaWriter) typeSignature(s string) {
	key := "signature:" + s
	if w.backReference(key) {
		return
	}
	w.o.u8(tcString)
	w.o.utf(s)
	w.assign(key)
}

// newString writes a string instance not written before.
func (w *javaWriter) newString(s string) {
	w.o.u8(tcString)
	w.o.utf(s)
	w.assign(nil)
}

func (w *javaWriter) object(v javaObject) {
	w.o.u8(tcObject)
	w.classDesc(v.class)
	w.assign(nil)
	for _, val := range v.values {
		switch val := val.(type) {
		case bool:
			if val {
				w.o.u8(1)
			} else {
				w.o.u8(0)
			}
		case string:
			w.newString(val)
		case javaObject:
			w.object(val)
		case javaEnum:
			w.o.u8(tcEnum)
			w.classDesc(val.class)
			w.assign(nil)
			w.newString(val.name)
		default:
			panic("javaSerialize: unsupported field value") // programming error in this file
		}
	}
}

// Flink's classes in the CheckpointProperties graph, identical in Flink 1.20
// to 2.3 (checked against _metadata written by 1.20, 2.0, 2.1, 2.2 and 2.3).
// SavepointType and CheckpointType declare no serialVersionUID: the values
// are the ones the JVM computes for them, as they appear in those files; a
// Flink release that changes a class changes its value, and the reader
// refuses its files until the class is added here.
var (
	snapshotTypeSignature = "Lorg/apache/flink/runtime/checkpoint/SnapshotType;"
	stringSignature       = "Ljava/lang/String;"

	checkpointPropertiesClass = &javaClass{
		name:  checkpointPropertiesClassName,
		uid:   2,
		flags: scSerializable,
		fields: []javaField{
			{typeCode: 'Z', name: "discardCancelled"},
			{typeCode: 'Z', name: "discardFailed"},
			{typeCode: 'Z', name: "discardFinished"},
			{typeCode: 'Z', name: "discardSubsumed"},
			{typeCode: 'Z', name: "discardSuspended"},
			{typeCode: 'Z', name: "forced"},
			{typeCode: 'Z', name: "unclaimed"},
			{typeCode: 'L', name: "checkpointType", signature: snapshotTypeSignature},
		},
	}
	savepointTypeClass = &javaClass{
		name:  "org.apache.flink.runtime.checkpoint.SavepointType",
		uid:   -0x5f782cf75ba7eb48, // 0xa087d308a45814b8
		flags: scSerializable,
		fields: []javaField{
			{typeCode: 'L', name: "formatType", signature: "Lorg/apache/flink/core/execution/SavepointFormatType;"},
			{typeCode: 'L', name: "name", signature: stringSignature},
			{typeCode: 'L', name: "postCheckpointAction", signature: "Lorg/apache/flink/runtime/checkpoint/SavepointType$PostCheckpointAction;"},
		},
	}
	checkpointTypeClass = &javaClass{
		name:  "org.apache.flink.runtime.checkpoint.CheckpointType",
		uid:   -0x2921b0fcfa51e2c6, // 0xd6de4f0305ae1d3a
		flags: scSerializable,
		fields: []javaField{
			{typeCode: 'L', name: "name", signature: stringSignature},
			{typeCode: 'L', name: "sharingFilesStrategy", signature: "Lorg/apache/flink/runtime/checkpoint/SnapshotType$SharingFilesStrategy;"},
		},
	}
	savepointFormatTypeClass  = javaEnumClass("org.apache.flink.core.execution.SavepointFormatType")
	postCheckpointActionClass = javaEnumClass("org.apache.flink.runtime.checkpoint.SavepointType$PostCheckpointAction")
	sharingFilesStrategyClass = javaEnumClass("org.apache.flink.runtime.checkpoint.SnapshotType$SharingFilesStrategy")
)

// savepointProperties is CheckpointProperties.forSavepoint(forced=true,
// CANONICAL): what a canonical savepoint taken while the job keeps running
// ("flink savepoint <jobId>") records; nothing in it is ever discarded by
// Flink.
func savepointProperties() []byte {
	return javaSerialize(checkpointProperties{forced: true, checkpointType: flinkSavepointType("Savepoint", "CANONICAL")}.javaObject())
}
