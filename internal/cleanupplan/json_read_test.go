package cleanupplan

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

const bom = "\xef\xbb\xbf"

// Jackson's byte-source bootstrapper, which the Java tool reads plan files
// through, skips a leading UTF-8 byte-order mark; so does Parse. The mark is
// outside the JSON text: the plan and its ID are unchanged.
func TestParseSkipsLeadingByteOrderMark(t *testing.T) {
	want := specPlan(t)
	for name, in := range map[string]string{"pretty": bom + string(want.File()), "compact": bom + validFile, "then whitespace": bom + "\n  " + validFile} {
		got, err := Parse([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !got.Equal(want) || got.ID() != want.ID() {
			t.Fatalf("%s: got %+v", name, got)
		}
	}
}

// Anywhere else a byte-order mark is refused, saying so.
func TestParseRefusesMisplacedByteOrderMark(t *testing.T) {
	for name, c := range map[string]struct{ in, mention string }{
		"after whitespace": {"\n" + bom + validFile, "byte-order mark (bytes EF BB BF) after leading whitespace"},
		"twice":            {bom + bom + validFile, "byte-order mark (bytes EF BB BF) after leading whitespace"},
		"inside the value": {strings.Replace(validFile, `{"schemaVersion"`, `{`+bom+`"schemaVersion"`, 1), "field name"},
	} {
		_, err := Parse([]byte(c.in))
		if !errors.Is(err, ErrMalformedPlan) || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("%s: err = %v, want it to mention %q", name, err, c.mention)
		}
	}
}

// Control records are written by Jackson's writeValueAsBytes, which never
// emits a byte-order mark: a record starting with one came from elsewhere
// and is refused, by name.
func TestDecodeRecordRefusesByteOrderMark(t *testing.T) {
	k, v := EncodeRecord(StatusCommitted, specPlan(t))
	_, err := DecodeRecord(k, append([]byte(bom), v...))
	if !errors.Is(err, ErrMalformedPlan) || !strings.Contains(err.Error(), "starts with a UTF-8 byte-order mark") {
		t.Fatalf("err = %v", err)
	}
	var l Log
	err = l.Add(4, k, append([]byte(bom), v...))
	if !errors.Is(err, ErrUnreadableRecord) {
		t.Fatalf("Log.Add: err = %v, want ErrUnreadableRecord", err)
	}
}

func TestInvalidUTF8NamesTheByte(t *testing.T) {
	in := strings.Replace(validFile, "chk-42", "chk-\xff", 1)
	_, err := Parse([]byte(in))
	want := fmt.Sprintf("at byte %d: input is not valid UTF-8", strings.Index(in, "\xff"))
	if !errors.Is(err, ErrMalformedPlan) || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want it to contain %q", err, want)
	}
}

// Above linearDuplicateCheckMax members the duplicate check uses a set: a
// repeat is still found wherever its first occurrence was.
func TestDuplicateKeysInLargeObjects(t *testing.T) {
	n := 4 * linearDuplicateCheckMax
	object := func(dup int) string {
		var b strings.Builder
		b.WriteString("{")
		for i := range n {
			fmt.Fprintf(&b, `"%d":%d,`, i, i)
		}
		if dup >= 0 {
			fmt.Fprintf(&b, `"%d":0,`, dup)
		}
		return strings.TrimSuffix(b.String(), ",") + "}"
	}
	if _, err := parseSingleObject([]byte(object(-1)), refuseBOM); err != nil {
		t.Fatalf("no duplicate: %v", err)
	}
	for _, dup := range []int{0, linearDuplicateCheckMax - 1, linearDuplicateCheckMax, n - 1} {
		_, err := parseSingleObject([]byte(object(dup)), refuseBOM)
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("duplicate field %q", fmt.Sprint(dup))) {
			t.Errorf("duplicate of member %d: err = %v", dup, err)
		}
	}
	// And through a whole plan: a big topic's offsets with one key twice.
	p := benchPlan(1000)
	file := strings.Replace(string(p.File()), `"999" : `, `"5" : 1, "999" : `, 1)
	if _, err := Parse([]byte(file)); !errors.Is(err, ErrMalformedPlan) || !strings.Contains(err.Error(), `duplicate field "5"`) {
		t.Fatalf("plan with a repeated partition: err = %v", err)
	}
}
