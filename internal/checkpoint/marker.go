package checkpoint

import "fmt"

// Marker is one element of the "recoveryMarker" union state.
type Marker struct {
	// Legacy is true for the old element type, a bare HashMap<Integer,Long>
	// of offsets; it names no topic, so planning must reject it.
	Legacy bool
	// SchemaVersion, Topic and TopicID are zero for legacy markers. A Java
	// null String reads as "".
	SchemaVersion int32
	Topic         string
	TopicID       string
	// Offsets maps partition to the offset from which state is replayed;
	// nil when the Java field was null.
	Offsets map[int32]int64
}

// decodeMarker decodes one Kryo element (one union-state entry) and requires
// that it spans exactly b. Errors carry offsets relative to b.
func decodeMarker(b []byte, dialect kryoDialect) (Marker, error) {
	k := &kryoInput{b: b}
	m := k.element(dialect)
	if k.err == nil && k.off != len(b) {
		k.failf("element decoded in %d of its %d bytes (Kryo layout differs from %s?)", k.off, len(b), markerClass)
	}
	if k.err != nil {
		return Marker{}, k.err
	}
	return m, nil
}

func (k *kryoInput) element(dialect kryoDialect) Marker {
	cls := k.class("element")
	if k.err != nil {
		return Marker{}
	}
	switch cls {
	case classMarker, classMap:
	default:
		k.failf("element is %s, not %s or a HashMap", cls, markerClass)
		return Marker{}
	}
	// Every element is its own object graph, so the top object is always new.
	if _, present := k.refMarker("element"); k.err == nil && (!present || len(k.refs) != 0) {
		k.failf("element reference marker is not 'new object'")
	}
	if k.err != nil {
		return Marker{}
	}
	if cls == classMap {
		offsets := k.newMap()
		k.refs = append(k.refs, offsets)
		k.mapBody(dialect, offsets, false)
		return Marker{Legacy: true, Offsets: offsets}
	}
	m := &Marker{}
	k.refs = append(k.refs, m)
	// FieldSerializer writes fields sorted by name: offsets, schemaVersion, topic, topicId.
	m.Offsets = k.offsetsField(dialect)
	m.SchemaVersion = k.zigzag32("schemaVersion")
	m.Topic = k.stringField("topic")
	m.TopicID = k.stringField("topicId")
	return *m
}

// offsetsField reads a field of declared type Map<Integer,Long>: the
// runtime class, then (when not null) a reference marker and the map body
// with the field's generic types, so keys and values carry no class.
func (k *kryoInput) offsetsField(dialect kryoDialect) map[int32]int64 {
	cls := k.class("offsets")
	if k.err != nil || cls == classNull {
		return nil
	}
	if cls != classMap {
		k.failf("offsets field holds a %s, want a HashMap", cls)
		return nil
	}
	prev, present := k.refMarker("offsets")
	if k.err != nil || !present {
		return nil
	}
	if prev != nil {
		if m, ok := prev.(map[int32]int64); ok {
			return m
		}
		k.failf("offsets field refers back to a %T", prev)
		return nil
	}
	offsets := k.newMap()
	k.refs = append(k.refs, offsets)
	k.mapBody(dialect, offsets, true)
	return offsets
}

// newMap sizes the offsets map from the size varint ahead, without
// consuming it, so a 64-partition marker does not regrow its map; the hint
// is capped by the bytes left (each entry takes at least 4).
func (k *kryoInput) newMap() map[int32]int64 {
	peek := *k
	n := peek.varint("map size")
	if peek.err != nil {
		return map[int32]int64{}
	}
	return make(map[int32]int64, min(int(n), (len(k.b)-peek.off)/4))
}

// mapBody reads MapSerializer's entries into dst. With generics (a field
// declared Map<Integer,Long>) each key and value is a null flag byte and the
// zigzag number; without (the legacy top-level map) each is class + number.
func (k *kryoInput) mapBody(dialect kryoDialect, dst map[int32]int64, generic bool) {
	n := k.varint("map size")
	if dialect == kryo5 {
		if n == 0 {
			k.failf("null map body inside a non-null map")
			return
		}
		n--
	}
	for i := uint32(0); i < n && k.err == nil; i++ {
		start := k.off
		var key int32
		var val int64
		if generic {
			k.nonNullFlag("map key")
			key = k.zigzag32("map key")
			k.nonNullFlag("map value")
			val = k.zigzag64("map value")
		} else {
			if c := k.class("map key"); k.err == nil && c != classInteger {
				k.off = start
				k.failf("map key is %s, want java.lang.Integer", c)
			}
			key = k.zigzag32("map key")
			valStart := k.off
			if c := k.class("map value"); k.err == nil && c != classLong {
				k.off = valStart
				k.failf("map value is %s, want java.lang.Long", c)
			}
			val = k.zigzag64("map value")
		}
		dst[key] = val // as java.util.HashMap.put: a repeated key keeps the last value
	}
}

// nonNullFlag reads writeObjectOrNull's flag for an untracked type (Integer,
// Long): 1 present, 0 null. A null partition or offset has no meaning here.
func (k *kryoInput) nonNullFlag(what string) {
	switch f := k.byte1(what); {
	case k.err != nil:
	case f == 0:
		k.off--
		k.failf("%s is null", what)
	case f != 1:
		k.off--
		k.failf("%s: bad null flag %#02x", what, f)
	}
}

// stringField reads a String field (final type: reference marker, then the
// string on first occurrence).
func (k *kryoInput) stringField(what string) string {
	prev, present := k.refMarker(what)
	if k.err != nil || !present {
		return ""
	}
	if prev != nil {
		s, ok := prev.(string)
		if !ok {
			k.failf("%s refers back to a %T, want a string", what, prev)
		}
		return s
	}
	id := len(k.refs)
	k.refs = append(k.refs, nil)
	s, _ := k.str(what)
	k.refs[id] = s
	return s
}

func (m Marker) String() string {
	if m.Legacy {
		return fmt.Sprintf("legacy marker %v", m.Offsets)
	}
	return fmt.Sprintf("marker v%d %s (%s) %v", m.SchemaVersion, m.Topic, m.TopicID, m.Offsets)
}
