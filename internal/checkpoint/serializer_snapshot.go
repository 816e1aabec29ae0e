package checkpoint

// Serializer snapshots in the operator-state stream header. Flink restores
// every state's serializer from them (StateMetaInfoSnapshot, key
// "VALUE_SERIALIZER") and checks the serializer a reader asks for against
// it, so a stream Flink should read must carry the one Flink would have
// written. The layouts are the same in Flink 1.20 and 2.x: Kryo 2 and Kryo 5
// change element bytes, not the snapshot.

// elementSerializer is the serializer of a list state's elements.
type elementSerializer int

const (
	// kryoObjectSerializer is KryoSerializer<Object>, what
	// TypeInformation.of(Object.class) yields: recoveryMarker and
	// currentProcessingKeys.
	kryoObjectSerializer elementSerializer = iota
	// stringSerializer is Types.STRING: identifier_state.
	stringSerializer
)

const (
	// serializerSnapshotProxyVersion is TypeSerializerSnapshotSerializationProxy's
	// version (an i32 written before the snapshot class name).
	serializerSnapshotProxyVersion = 2

	kryoSerializerSnapshotClass   = "org.apache.flink.api.java.typeutils.runtime.kryo.KryoSerializerSnapshot"
	kryoSerializerSnapshotVersion = 2
	stringSerializerSnapshotClass = "org.apache.flink.api.common.typeutils.base.StringSerializer$StringSerializerSnapshot"
	// stringSerializerSnapshotVersion is SimpleTypeSerializerSnapshot's
	// version; its body is empty.
	stringSerializerSnapshotVersion = 3

	// linkedOptionalMapHeader starts every LinkedOptionalMapSerializer map.
	linkedOptionalMapHeader = 0x4F2C69A3D70

	// avroGenericArray is the key KryoSerializer always registers after the
	// type and user registrations (AvroUtils.addAvroGenericDataArrayRegistration);
	// without flink-avro on the classpath it maps to these placeholders.
	avroGenericArray         = "org.apache.avro.generic.GenericData$Array"
	dummyAvroRegisteredClass = "org.apache.flink.api.java.typeutils.runtime.kryo.Serializers$DummyAvroRegisteredClass"
	dummyAvroKryoSerializer  = "org.apache.flink.api.java.typeutils.runtime.kryo.Serializers$DummyAvroKryoSerializerClass"
	objectClass              = "java.lang.Object"
)

// KryoRegistration.SerializerDefinitionType ordinals.
const (
	registrationUnspecified = 0 // Kryo's default serializer
	registrationClass       = 1 // a serializer class name follows
)

// serializerSnapshot writes TypeSerializerSnapshot.writeVersionedSnapshot
// behind its proxy version.
func (o *dataOutput) serializerSnapshot(s elementSerializer) {
	o.i32(serializerSnapshotProxyVersion)
	switch s {
	case stringSerializer:
		o.utf(stringSerializerSnapshotClass)
		o.i32(stringSerializerSnapshotVersion)
	case kryoObjectSerializer:
		o.utf(kryoSerializerSnapshotClass)
		o.i32(kryoSerializerSnapshotVersion)
		o.kryoObjectSnapshotData()
	}
}

// kryoObjectSnapshotData is KryoSerializerSnapshotData for Object.class with
// Flink's default configuration: the type class, the registrations (the
// type itself, then the Avro placeholder; user registrations from
// pipeline.serialization-config would sit between them), and two empty maps
// of default Kryo serializers (instances, then classes).
func (o *dataOutput) kryoObjectSnapshotData() {
	o.utf(objectClass)
	o.optionalMapHeader(2)
	o.optionalMapEntry(objectClass, func(v *dataOutput) {
		v.utf(objectClass)
		v.i32(registrationUnspecified)
	})
	o.optionalMapEntry(avroGenericArray, func(v *dataOutput) {
		v.utf(dummyAvroRegisteredClass)
		v.i32(registrationClass)
		v.utf(dummyAvroKryoSerializer)
	})
	o.optionalMapHeader(0)
	o.optionalMapHeader(0)
}

func (o *dataOutput) optionalMapHeader(size int32) {
	o.i64(linkedOptionalMapHeader)
	o.i32(size)
}

// optionalMapEntry writes one entry whose key is a class-name string and
// whose key and value are both present: the name, then key and value each
// as a presence flag and a length-framed body, so that Flink can skip a
// value whose class it cannot load.
func (o *dataOutput) optionalMapEntry(name string, value func(*dataOutput)) {
	o.utf(name)
	o.framed(func(k *dataOutput) { k.utf(name) })
	o.framed(value)
}

func (o *dataOutput) framed(body func(*dataOutput)) {
	var inner dataOutput
	body(&inner)
	o.u8(1) // present
	o.i32(int32(len(inner.b)))
	o.b = append(o.b, inner.b...)
}
