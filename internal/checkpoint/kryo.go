package checkpoint

import (
	"fmt"
	"unicode/utf16"
)

// kryoDialect is the Kryo major version that wrote an element. Flink 1.x
// uses Kryo 2.24, Flink 2.x Kryo 5; the only difference that matters here
// is the map size (Kryo 5 writes size+1 so that 0 can mean null). Flink 2
// re-serializes all operator state at every snapshot, so the dialect follows
// the metadata version.
type kryoDialect uint8

const (
	kryo2 kryoDialect = 2
	kryo5 kryoDialect = 5
)

func dialectForMetadataVersion(v int) kryoDialect {
	if v <= 4 {
		return kryo2
	}
	return kryo5
}

func (k kryoDialect) String() string {
	if k == kryo2 {
		return "Kryo 2.24"
	}
	return "Kryo 5"
}

// Class names and registration ids this reader understands. HashMap and the
// marker are unregistered in Flink's Kryo setup, so they are written by
// name; Integer and Long are Kryo built-ins.
const (
	markerClass        = "org.apache.flink.agents.runtime.actionstate.KafkaActionStateRecoveryMarker"
	hashMapClass       = "java.util.HashMap"
	linkedHashMapClass = "java.util.LinkedHashMap"
	regInteger         = 0
	regString          = 1
	regLong            = 7
)

// kryoClass identifies a decoded class marker.
type kryoClass uint8

const (
	classNull kryoClass = iota
	classInteger
	classString
	classLong
	classMap // HashMap or LinkedHashMap, read with Kryo's MapSerializer
	classMarker
)

var registeredNames = map[int]string{regInteger: "java.lang.Integer", regString: "java.lang.String", regLong: "java.lang.Long"}

// kryoInput reads one Kryo element. Like dataInput, the first error sticks.
type kryoInput struct {
	b     []byte
	off   int
	err   error
	names map[uint32]string // class-name ids, reset per element (Kryo autoReset)
	refs  []any             // reference table: *Marker, map[int32]int64 or string
}

func (k *kryoInput) failf(format string, args ...any) {
	if k.err == nil {
		k.err = &CorruptError{Offset: int64(k.off), Reason: fmt.Sprintf(format, args...)}
	}
}

func (k *kryoInput) byte1(what string) byte {
	if k.err != nil {
		return 0
	}
	if k.off >= len(k.b) {
		k.failf("truncated Kryo element: %s", what)
		return 0
	}
	c := k.b[k.off]
	k.off++
	return c
}

// varint is Kryo's readVarInt: 7-bit little-endian groups; the 5th byte
// contributes all its bits, truncated to 32 bits as in Java.
func (k *kryoInput) varint(what string) uint32 {
	var v uint32
	for i := 0; i < 5; i++ {
		c := k.byte1(what)
		if i == 4 {
			return v | uint32(c)<<28
		}
		v |= uint32(c&0x7F) << (7 * i)
		if c&0x80 == 0 {
			break
		}
	}
	return v
}

// varlong is readVarLong: like varint, up to 9 bytes, the 9th one whole.
func (k *kryoInput) varlong(what string) uint64 {
	var v uint64
	for i := 0; i < 9; i++ {
		c := k.byte1(what)
		if i == 8 {
			return v | uint64(c)<<56
		}
		v |= uint64(c&0x7F) << (7 * i)
		if c&0x80 == 0 {
			break
		}
	}
	return v
}

func (k *kryoInput) zigzag32(what string) int32 {
	v := k.varint(what)
	return int32(v>>1) ^ -int32(v&1)
}

func (k *kryoInput) zigzag64(what string) int64 {
	v := k.varlong(what)
	return int64(v>>1) ^ -int64(v&1)
}

// str is Kryo's readString. Returns ok=false for a null string.
func (k *kryoInput) str(what string) (s string, ok bool) {
	if k.err != nil {
		return "", false
	}
	if k.off >= len(k.b) {
		k.failf("truncated Kryo element: %s", what)
		return "", false
	}
	if k.b[k.off]&0x80 == 0 {
		// ASCII form: bytes up to one with the high bit set, which ends it.
		start := k.off
		for k.off < len(k.b) && k.b[k.off]&0x80 == 0 {
			k.off++
		}
		if k.off == len(k.b) {
			k.failf("truncated Kryo ASCII string: %s", what)
			return "", false
		}
		k.off++
		buf := make([]byte, k.off-start)
		copy(buf, k.b[start:k.off])
		buf[len(buf)-1] &= 0x7F
		return string(buf), true
	}
	n := k.utf8Length(what)
	switch {
	case k.err != nil:
		return "", false
	case n == 0:
		return "", false
	case n == 1:
		return "", true
	}
	chars := int(n - 1)
	if chars > len(k.b)-k.off {
		k.failf("%s: string of %d chars exceeds the %d remaining bytes", what, chars, len(k.b)-k.off)
		return "", false
	}
	units := make([]uint16, 0, chars)
	for i := 0; i < chars && k.err == nil; i++ {
		c := k.byte1(what)
		switch c >> 4 {
		case 0, 1, 2, 3, 4, 5, 6, 7:
			units = append(units, uint16(c))
		case 12, 13:
			units = append(units, uint16(c&0x1F)<<6|uint16(k.byte1(what)&0x3F))
		case 14:
			c1, c2 := k.byte1(what), k.byte1(what)
			units = append(units, uint16(c&0x0F)<<12|uint16(c1&0x3F)<<6|uint16(c2&0x3F))
		default:
			k.off--
			k.failf("%s: invalid Kryo UTF-8 lead byte %#02x", what, c)
		}
	}
	return string(utf16.Decode(units)), k.err == nil
}

// utf8Length reads the char-count header of a non-ASCII Kryo string: the
// first byte holds 6 bits and a continuation flag (0x40), then a varint.
func (k *kryoInput) utf8Length(what string) uint32 {
	c := k.byte1(what)
	n := uint32(c & 0x3F)
	if c&0x40 == 0 {
		return n
	}
	shift := uint(6)
	for i := 0; i < 4; i++ {
		c = k.byte1(what)
		if i == 3 {
			return n | uint32(c)<<shift
		}
		n |= uint32(c&0x7F) << shift
		if c&0x80 == 0 {
			break
		}
		shift += 7
	}
	return n
}

// class reads a class marker: 0 null, 1 by name (name id, then the name on
// its first use in the element), otherwise registration id + 2.
func (k *kryoInput) class(what string) kryoClass {
	c := k.varint(what)
	if k.err != nil {
		return classNull
	}
	switch c {
	case 0:
		return classNull
	case 1:
		id := k.varint(what)
		name, seen := k.names[id]
		if !seen {
			var ok bool
			if name, ok = k.str(what); !ok {
				k.failf("%s: null class name", what)
				return classNull
			}
			if k.names == nil {
				k.names = make(map[uint32]string)
			}
			k.names[id] = name
		}
		switch name {
		case hashMapClass, linkedHashMapClass:
			return classMap
		case markerClass:
			return classMarker
		}
		if k.err == nil {
			k.err = &KryoClassError{Class: name, RegID: -1}
		}
		return classNull
	}
	switch c - 2 {
	case regInteger:
		return classInteger
	case regString:
		return classString
	case regLong:
		return classLong
	}
	if k.err == nil {
		k.err = &KryoClassError{RegID: int(c - 2)}
	}
	return classNull
}

func (c kryoClass) String() string {
	switch c {
	case classNull:
		return "null"
	case classInteger:
		return registeredNames[regInteger]
	case classString:
		return registeredNames[regString]
	case classLong:
		return registeredNames[regLong]
	case classMap:
		return hashMapClass
	case classMarker:
		return markerClass
	}
	return "?"
}

// refMarker reads the reference marker of a tracked object: returns
// (nil, true) for a new object that the caller must register, the earlier
// object for a back-reference, or (nil, false) for null.
func (k *kryoInput) refMarker(what string) (backRef any, present bool) {
	m := k.varint(what)
	switch {
	case k.err != nil, m == 0:
		return nil, false
	case m == 1:
		return nil, true
	}
	id := uint64(m) - 2
	if id >= uint64(len(k.refs)) {
		k.failf("%s: back-reference to object #%d, only %d objects read", what, id, len(k.refs))
		return nil, false
	}
	return k.refs[id], true
}
