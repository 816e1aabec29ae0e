package cleanupplan

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A strict JSON reader. encoding/json silently keeps the last of duplicate
// keys and accepts invalid UTF-8; the runtime and the Java tool parse plan
// files and control records with Jackson's STRICT_DUPLICATE_DETECTION and
// FAIL_ON_TRAILING_TOKENS, so a document they reject must be rejected here
// too: a duplicate key anywhere, or anything but whitespace after the one
// JSON object (a *TrailingContentError). Numbers are kept as their literal
// text so integral-ness and range can be judged exactly.

type jsonKind uint8

const (
	jsonObject jsonKind = iota
	jsonString
	jsonNumber
	jsonOther // true, false, null, arrays: never valid in a plan
)

func (k jsonKind) String() string {
	switch k {
	case jsonObject:
		return "an object"
	case jsonString:
		return "a string"
	case jsonNumber:
		return "a number"
	}
	return "not an object, string or number"
}

type jsonValue struct {
	kind    jsonKind
	text    string // decoded string, or the number's literal
	members []jsonMember
}

type jsonMember struct {
	key string
	val jsonValue
}

// maxJSONDepth bounds recursion on hostile input (nested arrays).
const maxJSONDepth = 32

// linearDuplicateCheckMax is the member count up to which an object's keys
// are checked for duplicates by scanning the members already read; a larger
// object (the offsets of a big topic) switches to a set. Scanning alone is
// quadratic, and anyone able to write one record to a control topic could
// then make every plan and apply take minutes. Small objects keep the scan,
// which allocates nothing.
const linearDuplicateCheckMax = 16

// utf8BOM is U+FEFF, the byte-order mark, encoded in UTF-8.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// bomRule says what a leading byte-order mark means to parseSingleObject.
type bomRule bool

const (
	// skipBOM: plan files. More lenient than the runtime's tool, which
	// reads a plan file into a String before Jackson sees it and so refuses
	// a leading UTF-8 BOM (Jackson skips one only in bytes): the mark
	// precedes the JSON text, changes no field and no plan ID, and never
	// reaches a control record (spec/conformance.md, T3).
	skipBOM bomRule = true
	// refuseBOM: control records. Both tools write them with Jackson's
	// writeValueAsBytes, which never emits a BOM, so one means the record
	// came from somewhere else.
	refuseBOM bomRule = false
)

type jsonReader struct {
	data []byte
	pos  int
}

// parseSingleObject parses data as one JSON object followed only by
// whitespace (space, tab, \n, \r: what Jackson skips between tokens).
// Anything else after the object is a *TrailingContentError, returned with
// the object so a caller can say what the document held.
func parseSingleObject(data []byte, bom bomRule) (jsonValue, error) {
	invalid := -1 // the first byte that is not UTF-8, if any
	if !utf8.Valid(data) {
		invalid = firstInvalidUTF8(data)
	}
	notUTF8 := func() error { return fmt.Errorf("at byte %d: input is not valid UTF-8", invalid) }
	r := jsonReader{data: data}
	if bytes.HasPrefix(data, utf8BOM) {
		if bom == refuseBOM {
			return jsonValue{}, r.errorf("input starts with a UTF-8 byte-order mark (bytes EF BB BF), which no tool of this protocol writes")
		}
		r.pos = len(utf8BOM)
	}
	r.skipSpace()
	if bytes.HasPrefix(data[r.pos:], utf8BOM) {
		return jsonValue{}, r.errorf("a UTF-8 byte-order mark (bytes EF BB BF) after leading whitespace; a mark is ignored only as the very first bytes of a plan file, as Jackson ignores it")
	}
	if invalid >= 0 && invalid <= r.pos {
		return jsonValue{}, notUTF8()
	}
	if r.pos >= len(data) || data[r.pos] != '{' {
		return jsonValue{}, r.errorf("expected a JSON object")
	}
	v, err := r.value(0)
	// Only bytes up to where parsing stopped have been read; an invalid one
	// among them is the first thing wrong. One after the object is
	// trailing content like any other (Java reads it as U+FFFD).
	if invalid >= 0 && (invalid < r.pos || (err != nil && invalid == r.pos)) {
		return jsonValue{}, notUTF8()
	}
	if err != nil {
		return jsonValue{}, err
	}
	r.skipSpace()
	if r.pos != len(data) {
		return v, &TrailingContentError{Offset: r.pos, Length: len(data) - r.pos}
	}
	return v, nil
}

// firstInvalidUTF8 is the offset of the first byte that does not begin a
// valid UTF-8 sequence; only called once utf8.Valid has failed.
func firstInvalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(data)
}

func (r *jsonReader) errorf(format string, args ...any) error {
	return fmt.Errorf("at byte %d: %s", r.pos, fmt.Sprintf(format, args...))
}

func (r *jsonReader) skipSpace() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

func (r *jsonReader) value(depth int) (jsonValue, error) {
	if depth > maxJSONDepth {
		return jsonValue{}, r.errorf("nesting deeper than %d", maxJSONDepth)
	}
	r.skipSpace()
	if r.pos >= len(r.data) {
		return jsonValue{}, r.errorf("unexpected end of input")
	}
	switch c := r.data[r.pos]; {
	case c == '{':
		return r.object(depth)
	case c == '[':
		return r.array(depth)
	case c == '"':
		s, err := r.str()
		return jsonValue{kind: jsonString, text: s}, err
	case c == '-' || (c >= '0' && c <= '9'):
		n, err := r.number()
		return jsonValue{kind: jsonNumber, text: n}, err
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if len(r.data)-r.pos >= len(lit) && string(r.data[r.pos:r.pos+len(lit)]) == lit {
				r.pos += len(lit)
				return jsonValue{kind: jsonOther, text: lit}, nil
			}
		}
		return jsonValue{}, r.errorf("unexpected character %q", c)
	}
}

func (r *jsonReader) object(depth int) (jsonValue, error) {
	r.pos++ // '{'
	v := jsonValue{kind: jsonObject}
	var seen map[string]struct{} // keys, once the object outgrows the scan
	r.skipSpace()
	if r.pos < len(r.data) && r.data[r.pos] == '}' {
		r.pos++
		return v, nil
	}
	for {
		r.skipSpace()
		if r.pos >= len(r.data) || r.data[r.pos] != '"' {
			return v, r.errorf("expected a field name in double quotes")
		}
		key, err := r.str()
		if err != nil {
			return v, err
		}
		if len(v.members) < linearDuplicateCheckMax {
			for _, m := range v.members {
				if m.key == key {
					return v, r.errorf("duplicate field %q", key)
				}
			}
		} else {
			if seen == nil {
				seen = make(map[string]struct{}, 2*len(v.members))
				for _, m := range v.members {
					seen[m.key] = struct{}{}
				}
			}
			if _, dup := seen[key]; dup {
				return v, r.errorf("duplicate field %q", key)
			}
			seen[key] = struct{}{}
		}
		r.skipSpace()
		if r.pos >= len(r.data) || r.data[r.pos] != ':' {
			return v, r.errorf("expected ':' after field %q", key)
		}
		r.pos++
		val, err := r.value(depth + 1)
		if err != nil {
			return v, err
		}
		v.members = append(v.members, jsonMember{key: key, val: val})
		r.skipSpace()
		if r.pos >= len(r.data) {
			return v, r.errorf("unexpected end of input in object")
		}
		switch r.data[r.pos] {
		case ',':
			r.pos++
		case '}':
			r.pos++
			return v, nil
		default:
			return v, r.errorf("expected ',' or '}'")
		}
	}
}

func (r *jsonReader) array(depth int) (jsonValue, error) {
	r.pos++ // '['
	r.skipSpace()
	if r.pos < len(r.data) && r.data[r.pos] == ']' {
		r.pos++
		return jsonValue{kind: jsonOther, text: "array"}, nil
	}
	for {
		if _, err := r.value(depth + 1); err != nil {
			return jsonValue{}, err
		}
		r.skipSpace()
		if r.pos >= len(r.data) {
			return jsonValue{}, r.errorf("unexpected end of input in array")
		}
		switch r.data[r.pos] {
		case ',':
			r.pos++
		case ']':
			r.pos++
			return jsonValue{kind: jsonOther, text: "array"}, nil
		default:
			return jsonValue{}, r.errorf("expected ',' or ']'")
		}
	}
}

func (r *jsonReader) str() (string, error) {
	r.pos++ // opening quote
	start := r.pos
	// Fast path: no escapes.
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		if c == '"' {
			s := string(r.data[start:r.pos])
			r.pos++
			return s, nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		r.pos++
	}
	out := append([]byte(nil), r.data[start:r.pos]...)
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		switch {
		case c == '"':
			r.pos++
			return string(out), nil
		case c < 0x20:
			return "", r.errorf("unescaped control character in string")
		case c != '\\':
			out = append(out, c)
			r.pos++
			continue
		}
		r.pos++
		if r.pos >= len(r.data) {
			break
		}
		esc := r.data[r.pos]
		r.pos++
		switch esc {
		case '"', '\\', '/':
			out = append(out, esc)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r1, err := r.hex4()
			if err != nil {
				return "", err
			}
			if utf16.IsSurrogate(r1) && r.pos+6 <= len(r.data) && r.data[r.pos] == '\\' && r.data[r.pos+1] == 'u' {
				save := r.pos
				r.pos += 2
				r2, err := r.hex4()
				if err != nil {
					return "", err
				}
				if dec := utf16.DecodeRune(r1, r2); dec != utf8.RuneError {
					out = utf8.AppendRune(out, dec)
					continue
				}
				r.pos = save
			}
			out = utf8.AppendRune(out, r1) // a lone surrogate becomes U+FFFD
		default:
			return "", r.errorf("invalid escape \\%c", esc)
		}
	}
	return "", r.errorf("unterminated string")
}

func (r *jsonReader) hex4() (rune, error) {
	if r.pos+4 > len(r.data) {
		return 0, r.errorf("truncated \\u escape")
	}
	n, err := strconv.ParseUint(string(r.data[r.pos:r.pos+4]), 16, 16)
	if err != nil {
		return 0, r.errorf("invalid \\u escape")
	}
	r.pos += 4
	return rune(n), nil
}

// number scans an RFC 8259 number literal (no leading zeros, no '+').
func (r *jsonReader) number() (string, error) {
	start := r.pos
	if r.data[r.pos] == '-' {
		r.pos++
	}
	digits := func() int {
		n := 0
		for r.pos < len(r.data) && r.data[r.pos] >= '0' && r.data[r.pos] <= '9' {
			r.pos++
			n++
		}
		return n
	}
	intStart := r.pos
	if digits() == 0 {
		return "", r.errorf("invalid number")
	}
	if r.data[intStart] == '0' && r.pos-intStart > 1 {
		return "", r.errorf("number with a leading zero")
	}
	if r.pos < len(r.data) && r.data[r.pos] == '.' {
		r.pos++
		if digits() == 0 {
			return "", r.errorf("invalid number")
		}
	}
	if r.pos < len(r.data) && (r.data[r.pos] == 'e' || r.data[r.pos] == 'E') {
		r.pos++
		if r.pos < len(r.data) && (r.data[r.pos] == '+' || r.data[r.pos] == '-') {
			r.pos++
		}
		if digits() == 0 {
			return "", r.errorf("invalid number")
		}
	}
	return string(r.data[start:r.pos]), nil
}
