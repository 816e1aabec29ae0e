package checkpoint

import (
	"encoding/binary"
	"fmt"
	"unicode/utf16"
)

// dataInput decodes Java DataOutputStream encodings (big-endian) from a byte
// slice. The first error sticks: later reads return zero values, so parsers
// can read a whole structure and check err once. Every length is checked
// against the remaining bytes before anything is allocated.
type dataInput struct {
	b    []byte
	off  int
	base int64  // position of b[0] in the file, for error messages
	ctx  string // the structure being parsed, prefixed to error reasons
	err  error
	// ended is set when err is a read past the end of b (or a count too
	// large for what is left): the input may be a cut-off copy rather than
	// malformed.
	ended bool
}

// enter sets the error context and returns the previous one for leave; it
// keeps per-field error text constant so parsing allocates no strings.
func (d *dataInput) enter(ctx string) string {
	old := d.ctx
	d.ctx = ctx
	return old
}

func (d *dataInput) leave(old string) { d.ctx = old }

func (d *dataInput) remaining() int { return len(d.b) - d.off }

// failf records a CorruptError at the current position (the first one wins).
func (d *dataInput) failf(format string, args ...any) {
	if d.err == nil {
		reason := fmt.Sprintf(format, args...)
		if d.ctx != "" {
			reason = d.ctx + ": " + reason
		}
		d.err = &CorruptError{Offset: d.base + int64(d.off), Reason: reason}
	}
}

func (d *dataInput) take(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > d.remaining() {
		d.failf("truncated: %s needs %d bytes, %d left", what, n, d.remaining())
		d.ended = n >= 0
		return nil
	}
	s := d.b[d.off : d.off+n : d.off+n]
	d.off += n
	return s
}

func (d *dataInput) u8(what string) byte {
	s := d.take(1, what)
	if s == nil {
		return 0
	}
	return s[0]
}

func (d *dataInput) i16(what string) int16 {
	s := d.take(2, what)
	if s == nil {
		return 0
	}
	return int16(binary.BigEndian.Uint16(s))
}

func (d *dataInput) i32(what string) int32 {
	s := d.take(4, what)
	if s == nil {
		return 0
	}
	return int32(binary.BigEndian.Uint32(s))
}

func (d *dataInput) i64(what string) int64 {
	s := d.take(8, what)
	if s == nil {
		return 0
	}
	return int64(binary.BigEndian.Uint64(s))
}

// count reads an i32 element count and checks that count elements of at
// least minSize bytes each can still follow, so a corrupt count can neither
// allocate nor loop beyond the input.
func (d *dataInput) count(what string, minSize int) int {
	start := d.off
	n := d.i32(what)
	if d.err != nil {
		return 0
	}
	if n < 0 || int64(n)*int64(minSize) > int64(d.remaining()) {
		d.off = start
		d.failf("%s: count %d does not fit in the %d remaining bytes", what, n, d.remaining()-4)
		d.ended = n >= 0
		return 0
	}
	return int(n)
}

// skip discards n bytes.
func (d *dataInput) skip(n int, what string) { d.take(n, what) }

// utf reads Java's writeUTF: u16 length then modified UTF-8 (NUL as C0 80,
// supplementary characters as two 3-byte surrogates).
func (d *dataInput) utf(what string) string {
	s := d.take(2, what)
	if s == nil {
		return ""
	}
	n := int(binary.BigEndian.Uint16(s))
	raw := d.take(n, what)
	if raw == nil {
		return ""
	}
	str, ok := decodeModifiedUTF8(raw)
	if !ok {
		d.off -= n
		d.failf("%s: invalid modified UTF-8", what)
		return ""
	}
	return str
}

// skipUTF skips a writeUTF string the caller does not keep.
func (d *dataInput) skipUTF(what string) {
	if s := d.take(2, what); s != nil {
		d.skip(int(binary.BigEndian.Uint16(s)), what)
	}
}

// decodeModifiedUTF8 decodes Java's modified UTF-8. Pure ASCII, the common
// case, is returned without conversion.
func decodeModifiedUTF8(b []byte) (string, bool) {
	ascii := true
	for _, c := range b {
		if c == 0 || c >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b), true
	}
	units := make([]uint16, 0, len(b))
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c < 0x80 && c != 0:
			units = append(units, uint16(c))
			i++
		case c&0xE0 == 0xC0 && i+1 < len(b) && b[i+1]&0xC0 == 0x80:
			units = append(units, uint16(c&0x1F)<<6|uint16(b[i+1]&0x3F))
			i += 2
		case c&0xF0 == 0xE0 && i+2 < len(b) && b[i+1]&0xC0 == 0x80 && b[i+2]&0xC0 == 0x80:
			units = append(units, uint16(c&0x0F)<<12|uint16(b[i+1]&0x3F)<<6|uint16(b[i+2]&0x3F))
			i += 3
		default:
			return "", false
		}
	}
	return string(utf16.Decode(units)), true
}
