package cleanupplan

import (
	"errors"
	"strings"
	"testing"
)

// The runtime reads a control record with FAIL_ON_TRAILING_TOKENS, as it
// reads plan files: a record with anything but whitespace after its object
// fails every restore, so it must stop our applies too, named by its offset
// and with what the object before the content records.
func TestControlRecordTrailingContentIsRefusedAsTheRuntimeDoes(t *testing.T) {
	p := specPlan(t)
	k, v := EncodeRecord(StatusCommitted, p)
	for name, tail := range map[string]string{
		// The runtime's own test (testRejectsTrailingControlRecordContent).
		"second object": "{}",
		"null":          "null",
		"garbage":       "garbage",
		// And others Jackson refuses the same way.
		"whitespace then text": " \n garbage",
		"stray brace":          "}",
		"not UTF-8":            "\xff\xfe",
		"another record":       string(v),
		"NUL":                  "\x00",
	} {
		t.Run(name, func(t *testing.T) {
			var l Log
			err := l.Add(3, k, append(append([]byte(nil), v...), tail...))
			rec, isRecord := errors.AsType[*RecordError](err)
			trailing, isTrailing := errors.AsType[*TrailingContentError](err)
			if !errors.Is(err, ErrUnreadableRecord) || !isRecord || rec.Offset != 3 || !isTrailing {
				t.Fatalf("err = %v, want an unreadable record at offset 3 with trailing content", err)
			}
			at := len(v) + len(tail) - len(strings.TrimLeft(tail, " \n"))
			if trailing.Offset != at || trailing.Length != len(v)+len(tail)-at {
				t.Errorf("trailing content at byte %d (%d bytes), want byte %d", trailing.Offset, trailing.Length, at)
			}
			if trailing.Record == nil || trailing.Record.Status != StatusCommitted || trailing.Record.PlanID != p.ID() {
				t.Errorf("the object before the content reads as %+v, want plan %s COMMITTED", trailing.Record, p.ID())
			}
			if _, ok := l.Lookup(p.ID()); ok {
				t.Error("the refused record was recorded")
			}
		})
	}
	t.Run("plan file", func(t *testing.T) {
		if _, err := Parse(append(p.File(), "{}"...)); !errors.Is(err, ErrMalformedPlan) || !strings.Contains(err.Error(), "after the JSON object") {
			t.Fatalf("err = %v, want the trailing object refused", err)
		}
	})
}

// Whitespace after the object is no token: Jackson reads past it, and so
// do we.
func TestControlRecordTrailingWhitespaceIsRead(t *testing.T) {
	p := specPlan(t)
	k, v := EncodeRecord(StatusApplied, p)
	var l Log
	if err := l.Add(0, k, append(append([]byte(nil), v...), " \t\r\n"...)); err != nil {
		t.Fatal(err)
	}
	if op, ok := l.Lookup(p.ID()); !ok || op.Status != StatusApplied {
		t.Fatalf("read %+v (%t)", op, ok)
	}
}

// Invalid UTF-8 or garbage inside the object is refused as before, and is
// not reported as trailing content.
func TestControlRecordInvalidInsideIsStillRefused(t *testing.T) {
	k, v := EncodeRecord(StatusCommitted, specPlan(t))
	for name, value := range map[string]string{
		"not UTF-8 in a string": strings.Replace(string(v), "orders", "ord\xffers", 1),
		"not UTF-8 first":       "\xff" + string(v),
		"cut short":             string(v[:len(v)-1]),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := DecodeRecord(k, []byte(value))
			if _, trailing := errors.AsType[*TrailingContentError](err); !errors.Is(err, ErrMalformedPlan) || trailing {
				t.Fatalf("err = %v, want %v without trailing content", err, ErrMalformedPlan)
			}
		})
	}
}
