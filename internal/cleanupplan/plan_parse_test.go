package cleanupplan

import (
	"errors"
	"strings"
	"testing"
)

const validFile = `{"schemaVersion":1,"planId":"a5440177c24ca86c94163d0a3254bca95d7c4e4d3cc3671b267c8e68797adac4","sourceRecoveryPoint":"file:/var/flink/checkpoints/7f3a/chk-42","topic":"orders-agent-action-state","topicId":"q1Yw3mZ7QGu3c8m0b7o5Zg","offsets":{"0":150,"1":100,"2":0}}`

func TestParseAcceptsCompactPrettyAndReordered(t *testing.T) {
	want := specPlan(t)
	reordered := `{"offsets":{"2":0,"0":150,"1":100},"topicId":"q1Yw3mZ7QGu3c8m0b7o5Zg","topic":"orders-agent-action-state",
	  "sourceRecoveryPoint":"file:/var/flink/checkpoints/7f3a/chk-42","planId":"a5440177c24ca86c94163d0a3254bca95d7c4e4d3cc3671b267c8e68797adac4","schemaVersion":1}` + "\n\n"
	for name, in := range map[string]string{"compact": validFile, "pretty": string(want.File()), "reordered": reordered} {
		got, err := Parse([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !got.Equal(want) {
			t.Fatalf("%s: got %+v", name, got)
		}
	}
}

// Every refusal the spec lists, each named by the field or the problem.
func TestParseRefusals(t *testing.T) {
	replace := func(old, new string) string {
		if !strings.Contains(validFile, old) {
			t.Fatalf("test bug: %q not in the valid file", old)
		}
		return strings.Replace(validFile, old, new, 1)
	}
	cases := map[string]struct{ in, mention string }{
		"duplicate top-level key": {replace(`"topic":"orders`, `"topic":"x","topic":"orders`), `duplicate field "topic"`},
		"duplicate partition":     {replace(`"2":0`, `"2":0,"2":0`), `duplicate field "2"`},
		"extra field":             {replace(`"schemaVersion":1,`, `"schemaVersion":1,"note":"x",`), "note is not a field"},
		"missing field":           {replace(`"topic":"orders-agent-action-state",`, ``), "topic is missing"},
		"schema version 2":        {replace(`"schemaVersion":1`, `"schemaVersion":2`), "schemaVersion is 2"},
		"schema version float":    {replace(`"schemaVersion":1`, `"schemaVersion":1.0`), "schemaVersion"},
		"schema version string":   {replace(`"schemaVersion":1`, `"schemaVersion":"1"`), "schemaVersion must be an integer"},
		"topic not a string":      {replace(`"topic":"orders-agent-action-state"`, `"topic":7`), "topic must be a JSON string"},
		"key with leading zero":   {replace(`"1":100`, `"01":100`), `key "01"`},
		"key with plus":           {replace(`"1":100`, `"+1":100`), `key "+1"`},
		"key with fraction":       {replace(`"1":100`, `"1.0":100`), `key "1.0"`},
		"key not a number":        {replace(`"1":100`, `"one":100`), `key "one"`},
		"offset fraction":         {replace(`"1":100`, `"1":100.5`), "offsets[1]"},
		"offset exponent":         {replace(`"1":100`, `"1":1e2`), "offsets[1]"},
		"offset beyond int64":     {replace(`"1":100`, `"1":9223372036854775808`), "not an integer within int64"},
		"offset string":           {replace(`"1":100`, `"1":"100"`), "offsets[1] must be an integer"},
		"negative offset":         {replace(`"1":100`, `"1":-1`), "negative offset"},
		"negative partition":      {replace(`"1":100`, `"-1":100`), "partition -1"},
		"empty offsets":           {replace(`{"0":150,"1":100,"2":0}`, `{}`), "offsets must not be empty"},
		"offsets not an object":   {replace(`{"0":150,"1":100,"2":0}`, `[150]`), "offsets must be a JSON object"},
		"zero topic id":           {replace(`q1Yw3mZ7QGu3c8m0b7o5Zg`, `AAAAAAAAAAAAAAAAAAAAAA`), "zero UUID"},
		"plan id mismatch":        {replace(`"1":100`, `"1":101`), "does not match the plan's contents"},
		"trailing object":         {validFile + `{}`, "after the JSON object"},
		"trailing garbage":        {validFile + ` x`, "after the JSON object"},
		"array at top":            {`[` + validFile + `]`, "expected a JSON object"},
		"empty input":             {``, "expected a JSON object"},
		"truncated":               {validFile[:len(validFile)-3], "unexpected end"},
		"invalid utf8":            {replace(`chk-42`, "chk-\xff"), "UTF-8"},
		"raw control char":        {replace(`chk-42`, "chk-\x01"), "control character"},
		"single quotes":           {replace(`"topic"`, `'topic'`), "field name"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse([]byte(c.in))
			if !errors.Is(err, ErrMalformedPlan) {
				t.Fatalf("err = %v, want ErrMalformedPlan", err)
			}
			if !strings.Contains(err.Error(), c.mention) {
				t.Fatalf("err = %v, want it to mention %q", err, c.mention)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(validFile))
	f.Add(specPlanForFuzz().File())
	f.Add([]byte(`{"a":[[[[{}]]]]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			return
		}
		// Anything accepted must survive our own encoding unchanged.
		back, err := Parse(p.File())
		if err != nil || !back.Equal(p) {
			t.Fatalf("accepted plan does not round-trip: %v", err)
		}
	})
}

func specPlanForFuzz() Plan {
	p, _ := New("file:/var/flink/checkpoints/7f3a/chk-42", "orders-agent-action-state", "q1Yw3mZ7QGu3c8m0b7o5Zg", Offsets{0: 150, 1: 100, 2: 0})
	return p
}
