package cleanupplan

import (
	"strconv"
	"unicode/utf8"
)

// File returns the plan file exactly as the Java tool writes it: Jackson's
// default pretty printer (two-space indent, " : " between name and value),
// fields in spec order, partitions ascending numerically, one trailing "\n"
// (the JVM's line.separator on the Unix hosts the tool runs on).
func (p Plan) File() []byte {
	buf := make([]byte, 0, 256+32*len(p.Offsets))
	buf = p.appendJSON(buf, true)
	return append(buf, '\n')
}

// CompactJSON returns the plan object as Jackson writes it without a pretty
// printer: the form embedded in control records.
func (p Plan) CompactJSON() []byte {
	return p.appendJSON(make([]byte, 0, 192+24*len(p.Offsets)), false)
}

func (p Plan) appendJSON(buf []byte, pretty bool) []byte {
	w := jsonWriter{buf: buf, pretty: pretty}
	w.open('{')
	w.field("schemaVersion")
	w.buf = strconv.AppendInt(w.buf, SchemaVersion, 10)
	w.field("planId")
	w.buf = appendJacksonString(w.buf, p.ID())
	w.field("sourceRecoveryPoint")
	w.buf = appendJacksonString(w.buf, p.SourceRecoveryPoint)
	w.field("topic")
	w.buf = appendJacksonString(w.buf, p.Topic)
	w.field("topicId")
	w.buf = appendJacksonString(w.buf, p.TopicID)
	w.field("offsets")
	w.open('{')
	var key [12]byte
	for _, part := range p.Offsets.Partitions() {
		w.field(string(strconv.AppendInt(key[:0], int64(part), 10)))
		w.buf = strconv.AppendInt(w.buf, p.Offsets[part], 10)
	}
	w.close('}')
	w.close('}')
	return w.buf
}

// jsonWriter reproduces the layout of Jackson's DefaultPrettyPrinter (or
// none): "{" newline, two spaces per level, `"name" : value`, ",\n" between
// members, newline and outdent before "}". Only non-empty objects occur in
// plans, so Jackson's "{ }" form for empty objects is not needed.
type jsonWriter struct {
	buf     []byte
	pretty  bool
	depth   int
	members []int // members written so far, per open object
}

func (w *jsonWriter) open(c byte) {
	w.buf = append(w.buf, c)
	w.depth++
	w.members = append(w.members, 0)
}

func (w *jsonWriter) close(c byte) {
	w.depth--
	w.members = w.members[:len(w.members)-1]
	if w.pretty {
		w.newline()
	}
	w.buf = append(w.buf, c)
}

func (w *jsonWriter) field(name string) {
	n := &w.members[len(w.members)-1]
	if *n > 0 {
		w.buf = append(w.buf, ',')
	}
	*n++
	if w.pretty {
		w.newline()
	}
	w.buf = appendJacksonString(w.buf, name)
	if w.pretty {
		w.buf = append(w.buf, " : "...)
	} else {
		w.buf = append(w.buf, ':')
	}
}

func (w *jsonWriter) newline() {
	w.buf = append(w.buf, '\n')
	for range w.depth {
		w.buf = append(w.buf, ' ', ' ')
	}
}

const upperHex = "0123456789ABCDEF"

// appendJacksonString quotes s the way Jackson's default escaping does:
// only '"', '\\' and control characters below 0x20 are escaped (\b \t \n \f
// \r short forms, others as \u00XX with upper-case hex); non-ASCII is written
// as raw UTF-8 and '<', '>', '&' are left alone (unlike Go's encoder).
// Invalid UTF-8 cannot come from Java, so it is replaced with U+FFFD as
// Java's String decoding would.
func appendJacksonString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				buf = utf8.AppendRune(buf, utf8.RuneError)
			} else {
				buf = append(buf, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch c {
		case '"', '\\':
			buf = append(buf, '\\', c)
		case '\b':
			buf = append(buf, '\\', 'b')
		case '\t':
			buf = append(buf, '\\', 't')
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\f':
			buf = append(buf, '\\', 'f')
		case '\r':
			buf = append(buf, '\\', 'r')
		default:
			if c < 0x20 {
				buf = append(buf, '\\', 'u', '0', '0', upperHex[c>>4], upperHex[c&0xF])
			} else {
				buf = append(buf, c)
			}
		}
		i++
	}
	return append(buf, '"')
}
