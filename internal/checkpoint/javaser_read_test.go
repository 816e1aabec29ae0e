package checkpoint

import (
	"strings"
	"testing"
)

// javaStream builds test streams: bytes and writeUTF strings in order, after
// the stream header.
func javaStream(parts ...any) []byte {
	o := dataOutput{b: []byte{0xAC, 0xED, 0x00, 0x05}}
	for _, p := range parts {
		switch p := p.(type) {
		case int, byte: // type codes, flags: one byte
			switch v := p.(type) {
			case int:
				o.u8(byte(v))
			case byte:
				o.u8(v)
			}
		case []byte:
			o.b = append(o.b, p...)
		case string:
			o.utf(p)
		case int32:
			o.i32(p)
		case int64:
			o.i64(p)
		default:
			panic("javaStream: unsupported part")
		}
	}
	return o.b
}

func readStream(b []byte) (javaHandle, *dataInput) {
	d := &dataInput{b: b}
	root := (&javaStreamReader{d: d}).readJavaStreamObject()
	return root, d
}

const (
	h0 = int32(javaBaseWireHandle) // the first wire handle
	h1 = h0 + 1
	h2 = h0 + 2
)

// Streams using what Flink's properties do not, but the grammar allows:
// java.util.HashMap's writeObject block data, arrays, long strings,
// resets, proxies, class objects and block-mode externalizable data.
func TestJavaStreamReaderAccepts(t *testing.T) {
	tests := []struct {
		name, class string
		b           []byte
	}{
		{"HashMap with writeObject data", "java.util.HashMap", javaStream(tcObject, tcClassDesc, "java.util.HashMap", int64(0x0507DAC1C31660D1),
			scSerializable|scWriteMethod, []byte{0, 2}, byte('F'), "loadFactor", byte('I'), "threshold", tcEndBlockData, tcNull,
			[]byte{0x3F, 0x40, 0, 0}, int32(12), // field values
			tcBlockData, 8, int32(16), int32(1), // capacity, size
			tcString, "a", tcString, "b", tcEndBlockData)},
		{"int array", "[I", javaStream(tcArray, tcClassDesc, "[I", int64(0x4DBA602676EAB2A5), scSerializable, []byte{0, 0}, tcEndBlockData, tcNull,
			int32(3), int32(1), int32(2), int32(3))},
		{"string array with back-reference", "[Ljava.lang.String;", javaStream(tcArray, tcClassDesc, "[Ljava.lang.String;", int64(-0x522da9181ae284b9),
			scSerializable, []byte{0, 0}, tcEndBlockData, tcNull, int32(2), tcString, "x", tcReference, h2)},
		{"long string", "", javaStream(tcLongString, int64(3), []byte("abc"))},
		{"reset, then null", "", javaStream(tcReset, tcReset, tcNull)},
		{"writeObject data as a long block", "A", javaStream(tcObject, tcClassDesc, "A", int64(1), scSerializable|scWriteMethod, []byte{0, 0},
			tcEndBlockData, tcNull, tcBlockDataLong, int32(2), []byte{9, 9}, tcEndBlockData)},
		{"dynamic proxy", "dynamic proxy", javaStream(tcObject, tcProxyClassDesc, int32(1), "Foo", tcEndBlockData,
			tcClassDesc, "java.lang.reflect.Proxy", int64(1), scSerializable, []byte{0, 1},
			byte('L'), "h", tcString, "Ljava/lang/reflect/InvocationHandler;", tcEndBlockData, tcNull, tcNull)},
		{"class object", "A", javaStream(tcClass, tcClassDesc, "A", int64(1), scSerializable, []byte{0, 0}, tcEndBlockData, tcNull)},
		{"externalizable in block mode", "E", javaStream(tcObject, tcClassDesc, "E", int64(1), scExternalizable|scBlockData, []byte{0, 0},
			tcEndBlockData, tcNull, tcBlockData, 1, 0xAA, tcEndBlockData)},
		{"field types from the signature, arrays as objects", "A", javaStream(tcObject, tcClassDesc, "A", int64(1), scSerializable, []byte{0, 2},
			byte('J'), "n", byte('['), "xs", tcString, "[I", tcEndBlockData, tcNull, int64(7), tcNull)},
	}
	for _, tc := range tests {
		root, d := readStream(tc.b)
		if d.err != nil || d.off != len(tc.b) {
			t.Errorf("%s: stopped at %d of %d: %v", tc.name, d.off, len(tc.b), d.err)
			continue
		}
		if name := ""; root.class != nil && root.class.name != tc.class || root.class == nil && tc.class != "" {
			if root.class != nil {
				name = root.class.name
			}
			t.Errorf("%s: root class %q, want %q", tc.name, name, tc.class)
		}
		// Every cut is reported as the input ending, never as malformed.
		for n := 0; n < len(tc.b); n++ {
			if _, d := readStream(tc.b[:n]); d.err == nil || !d.ended {
				t.Fatalf("%s cut to %d bytes: err %v, ended %v", tc.name, n, d.err, d.ended)
			}
		}
	}
}

// What ObjectInputStream refuses, and hostile lengths and nesting, fail
// without allocating or recursing beyond the input.
func TestJavaStreamReaderRefuses(t *testing.T) {
	objectArray := func(n int32) []any {
		return []any{tcArray, tcClassDesc, "[Ljava.lang.Object;", int64(1), scSerializable, []byte{0, 0}, tcEndBlockData, tcNull, n}
	}
	var deep []any
	deep = append(deep, objectArray(1)...)
	for i := 0; i < 200; i++ {
		deep = append(deep, tcArray, tcReference, h0, int32(1))
	}
	many := objectArray(5000)
	for i := 0; i < 5000; i++ {
		many = append(many, tcString, "")
	}
	tests := []struct {
		name, want string
		ended      bool
		b          []byte
	}{
		{"wrong magic", "stream magic acee", false, []byte{0xAC, 0xEE, 0, 5, tcNull}},
		{"wrong version", "stream version 4", false, []byte{0xAC, 0xED, 0, 4, tcNull}},
		{"unknown type code", "unknown type code 0x6f", false, javaStream(0x6F)},
		{"block data at the top", "block data where an object belongs", false, javaStream(tcBlockData, 1, 0)},
		{"exception", "TC_EXCEPTION", false, javaStream(tcException, tcNull)},
		{"reference to nothing", "back-reference 0x007e0000 to no object", false, javaStream(tcReference, h0)},
		{"own superclass", "not a complete class descriptor", false, javaStream(tcObject, tcClassDesc, "A", int64(1), scSerializable, []byte{0, 0},
			tcEndBlockData, tcReference, h0)},
		{"conflicting flags", "serializable and externalizable flags conflict", false, javaStream(tcObject, tcClassDesc, "A", int64(1),
			scSerializable|scExternalizable, []byte{0, 0}, tcEndBlockData, tcNull)},
		{"externalizable, protocol 1", "protocol version 1", false, javaStream(tcObject, tcClassDesc, "E", int64(1), scExternalizable, []byte{0, 0},
			tcEndBlockData, tcNull, 0xAA)},
		{"illegal field order", "illegal field order", false, javaStream(tcObject, tcClassDesc, "A", int64(1), scSerializable, []byte{0, 2},
			byte('L'), "s", tcString, "Ljava/lang/String;", byte('I'), "i", tcEndBlockData, tcNull)},
		{"bad field type", "unknown type", false, javaStream(tcObject, tcClassDesc, "A", int64(1), scSerializable, []byte{0, 1},
			byte('Q'), "q", tcEndBlockData, tcNull)},
		{"null field type", "not a type signature", false, javaStream(tcObject, tcClassDesc, "A", int64(1), scSerializable, []byte{0, 1},
			byte('L'), "s", tcNull, tcEndBlockData, tcNull)},
		{"enum of a non-enum class", "not marked as an enum", false, javaStream(tcEnum, tcClassDesc, "A", int64(0), scSerializable, []byte{0, 0},
			tcEndBlockData, tcNull, tcString, "X")},
		{"enum with a serialVersionUID", "non-zero serialVersionUID", false, javaStream(tcEnum, tcClassDesc, "A", int64(5), scSerializable|scEnum,
			[]byte{0, 0}, tcEndBlockData, tcNull, tcString, "X")},
		{"enum named by null", "not a string", false, javaStream(tcEnum, tcClassDesc, "A", int64(0), scSerializable|scEnum, []byte{0, 0},
			tcEndBlockData, tcNull, tcNull)},
		{"reset inside an object", "reset inside an object", false, javaStream(append(objectArray(1), tcReset, tcNull)...)},
		{"negative array length", "count -1", false, javaStream(objectArray(-1)...)},
		{"huge array length", "does not fit", true, javaStream(tcArray, tcClassDesc, "[J", int64(1), scSerializable, []byte{0, 0},
			tcEndBlockData, tcNull, int32(0x7FFFFFFF))},
		{"huge long string", "long string of 9223372036854775807 bytes", true, javaStream(tcLongString, int64(1<<63-1))},
		{"huge field count", "field count 32767 does not fit", true, javaStream(tcObject, tcClassDesc, "A", int64(1), scSerializable,
			[]byte{0x7F, 0xFF}, tcEndBlockData, tcNull)},
		{"deep nesting", "nested deeper than 64", false, javaStream(deep...)},
		{"too many objects", "more than 4096 objects", false, javaStream(many...)},
	}
	for _, tc := range tests {
		_, d := readStream(tc.b)
		if d.err == nil || !strings.Contains(d.err.Error(), tc.want) || d.ended != tc.ended {
			t.Errorf("%s: err %v (ended %v), want %q (ended %v)", tc.name, d.err, d.ended, tc.want, tc.ended)
		}
	}
}
