package cleanupplan

import (
	"errors"
	"strings"
	"testing"
)

// The runtime reads a control record with ObjectMapper.readTree and
// FAIL_ON_TRAILING_TOKENS off (Jackson 2's default), which never reads past
// the first value: whatever follows the object does not change the record,
// and must not stop an apply. A plan file with the same tail stays refused.
func TestControlRecordTrailingContentIsIgnoredAsTheRuntimeDoes(t *testing.T) {
	p := specPlan(t)
	k, v := EncodeRecord(StatusCommitted, p)
	for name, tail := range map[string]string{
		"second object":        "{}",
		"whitespace then text": " \n garbage",
		"stray brace":          "}",
		"not UTF-8":            "\xff\xfe",
		"another record":       string(v),
	} {
		t.Run(name, func(t *testing.T) {
			var l Log
			if err := l.Add(3, k, append(append([]byte(nil), v...), tail...)); err != nil {
				t.Fatalf("a record the runtime reads was refused: %v", err)
			}
			op, ok := l.Lookup(p.ID())
			if !ok || op.Status != StatusCommitted || !op.Plan.Equal(p) {
				t.Fatalf("read %+v (%t), want plan %s COMMITTED", op, ok, p.ID())
			}
		})
	}
	t.Run("plan file", func(t *testing.T) {
		if _, err := Parse(append(p.File(), "{}"...)); !errors.Is(err, ErrMalformedPlan) || !strings.Contains(err.Error(), "after the JSON object") {
			t.Fatalf("err = %v, want the trailing object refused", err)
		}
	})
}

// Only what follows the object is skipped: invalid UTF-8 or garbage inside
// it is refused as before.
func TestControlRecordInvalidInsideIsStillRefused(t *testing.T) {
	k, v := EncodeRecord(StatusCommitted, specPlan(t))
	for name, value := range map[string]string{
		"not UTF-8 in a string": strings.Replace(string(v), "orders", "ord\xffers", 1),
		"not UTF-8 first":       "\xff" + string(v),
		"cut short":             string(v[:len(v)-1]),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := DecodeRecord(k, []byte(value)); !errors.Is(err, ErrMalformedPlan) {
				t.Fatalf("err = %v, want %v", err, ErrMalformedPlan)
			}
		})
	}
}
