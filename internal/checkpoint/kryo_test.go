package checkpoint

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// The byte vectors below were produced by running Kryo 2.24.0 and 5.6.2 with
// Flink's configuration; spec/flink-checkpoint-format.md, section 8, explains
// their layout.

// asciiLastHigh is Kryo's ASCII string form: the bytes, last one | 0x80.
func asciiLastHigh(s string) []byte {
	b := []byte(s)
	b[len(b)-1] |= 0x80
	return b
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

var (
	kryo2MarkerName = cat([]byte{0xCB, 0x01}, []byte(markerClass)) // length form: 74+1 = 75 -> CB 01
	kryo5MarkerName = asciiLastHigh(markerClass)
	hashMapName     = asciiLastHigh(hashMapClass)
	topicIDBytes    = asciiLastHigh("AAAAAAAAAAAAAAAAAAAAAA")
)

// specMarker builds marker {schemaVersion=1, topic="t", topicId=AAA..., offsets={0:150}}.
func specMarker(name []byte, size byte) []byte {
	return cat(
		[]byte{0x01, 0x00}, name, []byte{0x01}, // marker class by name, new object
		[]byte{0x01, 0x01}, hashMapName, []byte{0x01}, // offsets: HashMap by name (id 1), new object
		[]byte{size, 0x01, 0x00, 0x01, 0xAC, 0x02}, // size, key 0, value 150
		[]byte{0x02},               // schemaVersion 1
		[]byte{0x01, 0x82, 0x74},   // topic "t"
		[]byte{0x01}, topicIDBytes, // topicId
	)
}

func TestKryoSpecVectors(t *testing.T) {
	want := Marker{SchemaVersion: 1, Topic: "t", TopicID: "AAAAAAAAAAAAAAAAAAAAAA", Offsets: map[int32]int64{0: 150}}
	legacy := Marker{Legacy: true, Offsets: map[int32]int64{0: 150}}
	cases := []struct {
		name    string
		dialect kryoDialect
		in      []byte
		want    Marker
	}{
		{"marker kryo2", kryo2, specMarker(kryo2MarkerName, 0x01), want},
		{"marker kryo5", kryo5, specMarker(kryo5MarkerName, 0x02), want},
		{"legacy kryo2", kryo2, cat([]byte{0x01, 0x00}, hashMapName, []byte{0x01, 0x01, 0x02, 0x00, 0x09, 0xAC, 0x02}), legacy},
		{"legacy kryo5", kryo5, cat([]byte{0x01, 0x00}, hashMapName, []byte{0x01, 0x02, 0x02, 0x00, 0x09, 0xAC, 0x02}), legacy},
		{"linked legacy kryo5", kryo5, cat([]byte{0x01, 0x00}, asciiLastHigh(linkedHashMapClass), []byte{0x01, 0x02, 0x02, 0x00, 0x09, 0xAC, 0x02}), legacy},
		{"topic==topicId back-ref", kryo5, cat(specMarker(kryo5MarkerName, 0x02)[:len(specMarker(kryo5MarkerName, 0x02))-23], []byte{0x04}),
			Marker{SchemaVersion: 1, Topic: "t", TopicID: "t", Offsets: map[int32]int64{0: 150}}},
		{"back-ref without map", kryo5, cat([]byte{0x01, 0x00}, kryo5MarkerName, []byte{0x01, 0x00, 0x02, 0x01, 0x82, 0x74, 0x03}),
			Marker{SchemaVersion: 1, Topic: "t", TopicID: "t"}},
		{"null offsets, null topic, empty topicId", kryo2, cat([]byte{0x01, 0x00}, kryo2MarkerName, []byte{0x01, 0x00, 0x02, 0x00, 0x01, 0x81}),
			Marker{SchemaVersion: 1}},
		{"empty map kryo2", kryo2, cat([]byte{0x01, 0x00}, kryo2MarkerName, []byte{0x01, 0x01, 0x01}, hashMapName, []byte{0x01, 0x00, 0x02, 0x00, 0x00}),
			Marker{SchemaVersion: 1, Offsets: map[int32]int64{}}},
		{"empty map kryo5", kryo5, cat([]byte{0x01, 0x00}, kryo5MarkerName, []byte{0x01, 0x01, 0x01}, hashMapName, []byte{0x01, 0x01, 0x02, 0x00, 0x00}),
			Marker{SchemaVersion: 1, Offsets: map[int32]int64{}}},
		{"key -1, value 1234567890123", kryo5, cat([]byte{0x01, 0x00}, kryo5MarkerName, []byte{0x01, 0x01, 0x01}, hashMapName,
			[]byte{0x01, 0x02, 0x01, 0x01, 0x01, 0x96, 0x93, 0xD8, 0x9F, 0xEE, 0x47, 0x02, 0x00, 0x00}),
			Marker{SchemaVersion: 1, Offsets: map[int32]int64{-1: 1234567890123}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := decodeMarker(c.in, c.dialect)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestKryoSpecVectorLengths(t *testing.T) {
	if n := len(specMarker(kryo2MarkerName, 1)); n != 132 {
		t.Errorf("Kryo 2.24 marker is %d bytes, spec says 132", n)
	}
	if n := len(specMarker(kryo5MarkerName, 2)); n != 130 {
		t.Errorf("Kryo 5 marker is %d bytes, spec says 130", n)
	}
}

// The wrong dialect must fail, not silently mis-decode: a one-entry map's size
// byte is 01 in Kryo 2.24 and 02 in Kryo 5.
func TestKryoWrongDialectFails(t *testing.T) {
	if _, err := decodeMarker(specMarker(kryo5MarkerName, 0x02), kryo2); err == nil {
		t.Error("Kryo 5 bytes decoded as Kryo 2.24")
	}
	if _, err := decodeMarker(specMarker(kryo2MarkerName, 0x01), kryo5); err == nil {
		t.Error("Kryo 2.24 bytes decoded as Kryo 5")
	}
}

func TestKryoErrors(t *testing.T) {
	good := specMarker(kryo5MarkerName, 0x02)
	cases := []struct {
		name string
		in   []byte
		is   error
	}{
		{"trailing byte", cat(good, []byte{0x00}), ErrCorrupt},
		{"truncated", good[:len(good)-1], ErrCorrupt},
		{"unknown class name", cat([]byte{0x01, 0x00}, asciiLastHigh("com.example.Other"), []byte{0x01}), ErrUnknownKryoClass},
		{"registered id 86", []byte{0x58, 0x01}, ErrUnknownKryoClass},
		{"null element", []byte{0x00}, ErrCorrupt},
		{"string element", []byte{0x03, 0x01, 0x82, 0x74}, ErrCorrupt},
		{"bad back-ref", cat([]byte{0x01, 0x00}, kryo5MarkerName, []byte{0x01, 0x00, 0x02, 0x09}), ErrCorrupt},
		{"null map key", cat([]byte{0x01, 0x00}, kryo5MarkerName, []byte{0x01, 0x01, 0x01}, hashMapName, []byte{0x01, 0x02, 0x00}), ErrCorrupt},
		{"huge string length", cat([]byte{0x01, 0x00}, kryo5MarkerName, []byte{0x01, 0x00, 0x02, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F}), ErrCorrupt},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := decodeMarker(c.in, kryo5)
			if !errors.Is(err, c.is) {
				t.Fatalf("err = %v, want %v", err, c.is)
			}
		})
	}
}

// The encoder must reproduce the Kryo vectors exactly, so the writer's
// checkpoints carry the bytes Flink would write.
func TestKryoEncodeMatchesSpec(t *testing.T) {
	m := Marker{SchemaVersion: 1, Topic: "t", TopicID: "AAAAAAAAAAAAAAAAAAAAAA", Offsets: map[int32]int64{0: 150}}
	legacy := Marker{Legacy: true, Offsets: map[int32]int64{0: 150}}
	cases := []struct {
		name string
		got  []byte
		want []byte
	}{
		{"marker kryo2", encodeMarker(m, kryo2), specMarker(kryo2MarkerName, 0x01)},
		{"marker kryo5", encodeMarker(m, kryo5), specMarker(kryo5MarkerName, 0x02)},
		{"legacy kryo2", encodeMarker(legacy, kryo2), cat([]byte{0x01, 0x00}, hashMapName, []byte{0x01, 0x01, 0x02, 0x00, 0x09, 0xAC, 0x02})},
		{"legacy kryo5", encodeMarker(legacy, kryo5), cat([]byte{0x01, 0x00}, hashMapName, []byte{0x01, 0x02, 0x02, 0x00, 0x09, 0xAC, 0x02})},
	}
	for _, c := range cases {
		if !bytes.Equal(c.got, c.want) {
			t.Errorf("%s:\n got % x\nwant % x", c.name, c.got, c.want)
		}
	}
}

func TestKryoRoundTrip(t *testing.T) {
	markers := []Marker{
		{SchemaVersion: 1, Topic: "orders-agent-action-state", TopicID: "q1Yw3mZ7QGu3c8m0b7o5Zg",
			Offsets: map[int32]int64{0: 0, 1: 1 << 40, 2: -1, 63: 9223372036854775807, 64: -9223372036854775808, -5: 7}},
		{SchemaVersion: -7, Topic: "tópico-ünïcode-✓-𝄞", TopicID: "a-very-long-topic-id-string-that-is-longer-than-sixty-four-characters-xx"},
		{SchemaVersion: 1, Topic: "", TopicID: "x", Offsets: map[int32]int64{}},
		{Legacy: true, Offsets: map[int32]int64{0: 1, 2147483647: 5, -2147483648: 6}},
	}
	for _, d := range []kryoDialect{kryo2, kryo5} {
		for _, m := range markers {
			got, err := decodeMarker(encodeMarker(m, d), d)
			if err != nil {
				t.Fatalf("%s %v: %v", d, m, err)
			}
			if !reflect.DeepEqual(got, m) {
				t.Errorf("%s: got %v, want %v", d, got, m)
			}
		}
	}
}
