package checkpoint

import (
	"sort"
	"unicode/utf16"
)

// kryoOutput writes the Kryo encodings the reader understands, for the
// test writer. It mirrors what Flink's Kryo produces for the marker class
// and the legacy map (spec/flink-checkpoint-format.md, section 8), not Kryo
// in general.
type kryoOutput struct {
	b       []byte
	dialect kryoDialect
}

func (k *kryoOutput) varint(v uint32) {
	for v >= 0x80 {
		k.b = append(k.b, byte(v)|0x80)
		v >>= 7
	}
	k.b = append(k.b, byte(v))
}

func (k *kryoOutput) varlong(v uint64) {
	for i := 0; i < 8 && v >= 0x80; i++ {
		k.b = append(k.b, byte(v)|0x80)
		v >>= 7
	}
	k.b = append(k.b, byte(v)) // the 9th byte, if reached, carries 8 bits
}

func (k *kryoOutput) zigzag32(v int32) { k.varint(uint32(v<<1) ^ uint32(v>>31)) }
func (k *kryoOutput) zigzag64(v int64) { k.varlong(uint64(v<<1) ^ uint64(v>>63)) }

// str is Output.writeString: short ASCII strings as bytes with the last
// one's high bit set (2..63 chars in Kryo 2.24, 2..32 in Kryo 5), all others
// as a char count + 1 header and UTF-8-style chars.
func (k *kryoOutput) str(s string) {
	units := utf16.Encode([]rune(s))
	maxASCII := 63
	if k.dialect == kryo5 {
		maxASCII = 32
	}
	if len(units) > 1 && len(units) <= maxASCII && isASCII(s) {
		k.ascii(s)
		return
	}
	k.utf8Length(uint32(len(units) + 1))
	for _, c := range units {
		switch {
		case c <= 0x7F:
			k.b = append(k.b, byte(c))
		case c > 0x7FF:
			k.b = append(k.b, 0xE0|byte(c>>12&0x0F), 0x80|byte(c>>6&0x3F), 0x80|byte(c&0x3F))
		default:
			k.b = append(k.b, 0xC0|byte(c>>6&0x1F), 0x80|byte(c&0x3F))
		}
	}
}

func (k *kryoOutput) ascii(s string) {
	k.b = append(k.b, s...)
	k.b[len(k.b)-1] |= 0x80
}

func (k *kryoOutput) utf8Length(n uint32) {
	if n < 1<<6 {
		k.b = append(k.b, byte(n)|0x80)
		return
	}
	k.b = append(k.b, byte(n&0x3F)|0xC0)
	k.varint(n >> 6)
}

// className is DefaultClassResolver.writeName's string: Kryo 2.24 uses
// writeString, Kryo 5 writeAscii (no length limit) for ASCII names.
func (k *kryoOutput) className(name string) {
	if k.dialect == kryo5 && len(name) > 1 {
		k.ascii(name)
		return
	}
	k.str(name)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// encodeMarker is KryoSerializer.serialize(marker) in the given dialect.
// Offsets are written in ascending partition order, which is also
// java.util.HashMap's iteration order for small non-negative keys.
func encodeMarker(m Marker, dialect kryoDialect) []byte {
	k := &kryoOutput{dialect: dialect}
	if m.Legacy {
		k.b = append(k.b, 0x01, 0x00) // class by name, name id 0
		k.className(hashMapClass)
		k.b = append(k.b, 0x01) // new object
		k.mapEntries(m.Offsets, false)
		return k.b
	}
	k.b = append(k.b, 0x01, 0x00)
	k.className(markerClass)
	k.b = append(k.b, 0x01)
	if m.Offsets == nil {
		k.b = append(k.b, 0x00) // null class: a null field
	} else {
		k.b = append(k.b, 0x01, 0x01) // class by name, name id 1
		k.className(hashMapClass)
		k.b = append(k.b, 0x01)
		k.mapEntries(m.Offsets, true)
	}
	k.zigzag32(m.SchemaVersion)
	for _, s := range []string{m.Topic, m.TopicID} {
		k.b = append(k.b, 0x01) // new String (Java instances are distinct)
		k.str(s)
	}
	return k.b
}

func (k *kryoOutput) mapEntries(offsets map[int32]int64, generic bool) {
	n := uint32(len(offsets))
	if k.dialect == kryo5 {
		n++
	}
	k.varint(n)
	keys := make([]int32, 0, len(offsets))
	for p := range offsets {
		keys = append(keys, p)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	for _, p := range keys {
		if generic {
			k.b = append(k.b, 0x01) // not null
		} else {
			k.varint(regInteger + 2)
		}
		k.zigzag32(p)
		if generic {
			k.b = append(k.b, 0x01)
		} else {
			k.varint(regLong + 2)
		}
		k.zigzag64(offsets[p])
	}
}
