package cleanupplan

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The runtime's blank rule is Java's trim().isEmpty(): only chars at or
// below U+0020, controls included, are blank; Unicode spaces are text.
// quoted is the value as Jackson writes it inside a JSON string (empty for
// blank values, which never reach the writer).
var javaTrimCases = []struct {
	name   string
	value  string
	blank  bool
	quoted string
}{
	{"U+0001", "\u0001", true, ""},
	{"controls and a space", "\u001f\u0001 ", true, ""},
	{"spaces", "   ", true, ""},
	{"empty", "", true, ""},
	{"NUL tab newline return", "\x00\t\n\r", true, ""},
	{"no-break space", "\u00a0", false, "\"\u00a0\""},
	{"em space", "\u2003", false, "\"\u2003\""},
	{"next line", "\u0085", false, "\"\u0085\""},
	{"figure and narrow no-break spaces", "\u2007\u202f", false, "\"\u2007\u202f\""},
	{"control inside a path", "file:/ckpt/a\u0001b/chk-1", false, `"file:/ckpt/a\u0001b/chk-1"`},
	{"unit separator inside", "x\u001fy", false, `"x\u001Fy"`},
	{"padded name", " \torders ", false, `" \torders "`},
}

// planWith returns the spec's example plan with one string field replaced,
// unvalidated, so that refusals can be fed to every reader.
func planWith(field, value string) Plan {
	p := Plan{SourceRecoveryPoint: "file:/var/flink/checkpoints/7f3a/chk-42", Topic: "orders-agent-action-state", TopicID: "q1Yw3mZ7QGu3c8m0b7o5Zg", Offsets: Offsets{0: 150, 1: 100, 2: 0}}
	switch field {
	case "sourceRecoveryPoint":
		p.SourceRecoveryPoint = value
	case "topic":
		p.Topic = value
	case "topicId":
		p.TopicID = value
	}
	return p
}

// specID computes the plan ID from the spec's formula, independently of
// Plan.ID.
func specID(p Plan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "1\n%s\n%s\n%s\n", p.SourceRecoveryPoint, p.Topic, p.TopicID)
	for _, part := range p.Offsets.Partitions() {
		fmt.Fprintf(&b, "%d=%d\n", part, p.Offsets[part])
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

func TestBlankIsJavaTrimEmptyEverywhere(t *testing.T) {
	for _, field := range []string{"sourceRecoveryPoint", "topic", "topicId"} {
		for _, c := range javaTrimCases {
			t.Run(field+"/"+c.name, func(t *testing.T) {
				p := planWith(field, c.value)
				marker := Marker{SchemaVersion: 1, Topic: p.Topic, TopicID: p.TopicID, Offsets: p.Offsets}
				file := p.File()
				key, value := EncodeRecord(StatusCommitted, p)
				var l Log
				paths := map[string]error{}
				_, paths["New"] = New(p.SourceRecoveryPoint, p.Topic, p.TopicID, p.Offsets)
				_, paths["FromMarkers"] = FromMarkers(p.SourceRecoveryPoint, []Marker{marker})
				_, paths["Parse"] = Parse(file)
				_, paths["DecodeRecord"] = DecodeRecord(key, value)
				paths["Log.Add"] = l.Add(3, key, value)
				for path, err := range paths {
					if !c.blank {
						if err != nil {
							t.Errorf("%s refused %q, which the runtime accepts: %v", path, c.value, err)
						}
						continue
					}
					if !errors.Is(err, ErrMalformedPlan) || !strings.Contains(err.Error(), field+" must not be") {
						t.Errorf("%s: err = %v, want ErrMalformedPlan naming %s", path, err, field)
					}
				}
				if !c.blank {
					checkJacksonExact(t, p, field, c.quoted)
					return
				}
				// A blank field in a control record fails the read closed,
				// as a record that cannot be read, at its offset.
				var rec *RecordError
				if err := paths["Log.Add"]; !errors.Is(err, ErrUnreadableRecord) || !errors.As(err, &rec) || rec.Offset != 3 {
					t.Errorf("Log.Add: err = %v, want a RecordError at offset 3 matching ErrUnreadableRecord", err)
				}
				if len(l.Operations()) != 0 {
					t.Errorf("a refused record entered the log")
				}
			})
		}
	}
}

// checkJacksonExact: a plan with an unusual but valid field keeps the spec's
// plan ID and Jackson's escaping in both renderings, and reads back equal.
func checkJacksonExact(t *testing.T, p Plan, field, quoted string) {
	t.Helper()
	if got, want := p.ID(), specID(p); got != want {
		t.Errorf("plan ID = %s, spec formula gives %s", got, want)
	}
	if !strings.Contains(string(p.File()), `"`+field+`" : `+quoted+",\n") {
		t.Errorf("plan file does not hold %s as %s:\n%s", field, quoted, p.File())
	}
	if !strings.Contains(string(p.CompactJSON()), `"`+field+`":`+quoted+",") {
		t.Errorf("compact JSON does not hold %s as %s: %s", field, quoted, p.CompactJSON())
	}
	back, err := Parse(p.File())
	if err != nil || !back.Equal(p) {
		t.Errorf("plan file does not read back: %+v, %v", back, err)
	}
	rec, err := DecodeRecord(EncodeRecord(StatusApplied, p))
	if err != nil || !rec.Plan.Equal(p) || rec.PlanID != specID(p) {
		t.Errorf("control record does not read back: %+v, %v", rec, err)
	}
}

func TestBlankMessageShowsTheValue(t *testing.T) {
	_, err := New("\u0001 ", "t", "q1Yw3mZ7QGu3c8m0b7o5Zg", Offsets{0: 1})
	if err == nil || !strings.Contains(err.Error(), `"\x01 "`) || !strings.Contains(err.Error(), "U+0020") {
		t.Fatalf("err = %v, want it to show the value and the rule", err)
	}
	_, err = New(strings.Repeat(" ", 100), "t", "q1Yw3mZ7QGu3c8m0b7o5Zg", Offsets{0: 1})
	if err == nil || !strings.Contains(err.Error(), "its 100 bytes") {
		t.Fatalf("err = %v, want a long value summarised", err)
	}
}
