package cleanupplan

import (
	"errors"
	"strings"
	"testing"
)

func mustPlan(t testing.TB, src string, offsets Offsets) Plan {
	t.Helper()
	p, err := New(src, "orders-agent-action-state", "q1Yw3mZ7QGu3c8m0b7o5Zg", offsets)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func add(t *testing.T, l *Log, off int64, st Status, p Plan) error {
	t.Helper()
	k, v := EncodeRecord(st, p)
	return l.Add(off, k, v)
}

func TestRecordEncodingIsCompactJackson(t *testing.T) {
	k, v := EncodeRecord(StatusCommitted, specPlan(t))
	if string(k) != "a5440177c24ca86c94163d0a3254bca95d7c4e4d3cc3671b267c8e68797adac4" {
		t.Fatalf("key = %s", k)
	}
	want := `{"schemaVersion":1,"status":"COMMITTED","plan":` + validFile + `}`
	if string(v) != want {
		t.Fatalf("value =\n%s\nwant\n%s", v, want)
	}
	rec, err := DecodeRecord(k, v)
	if err != nil || rec.Status != StatusCommitted || !rec.Plan.Equal(specPlan(t)) {
		t.Fatalf("decode: %+v, %v", rec, err)
	}
}

func TestDecodeRecordRefusals(t *testing.T) {
	k, v := EncodeRecord(StatusApplied, specPlan(t))
	cases := map[string]struct {
		key, value []byte
		want       error
		mention    string
	}{
		"tombstone":     {k, nil, ErrTombstone, "null value"},
		"key mismatch":  {[]byte("other"), v, ErrCorruptControlLog, "not the ID"},
		"bad status":    {k, []byte(strings.Replace(string(v), "APPLIED", "DONE", 1)), ErrMalformedPlan, "status"},
		"extra field":   {k, []byte(strings.Replace(string(v), `"status"`, `"x":1,"status"`, 1)), ErrMalformedPlan, "x is not a field"},
		"bad plan":      {k, []byte(strings.Replace(string(v), `"topic":"orders`, `"topic":"elders`, 1)), ErrMalformedPlan, "plan.planId"},
		"version 2":     {k, []byte(strings.Replace(string(v), `{"schemaVersion":1`, `{"schemaVersion":2`, 1)), ErrMalformedPlan, "schemaVersion is 2"},
		"not json":      {k, []byte("COMMITTED"), ErrMalformedPlan, "expected a JSON object"},
		"duplicate key": {k, []byte(strings.Replace(string(v), `"status":"APPLIED"`, `"status":"APPLIED","status":"APPLIED"`, 1)), ErrMalformedPlan, "duplicate"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := DecodeRecord(c.key, c.value)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.mention) {
				t.Fatalf("err = %v, want %v mentioning %q", err, c.want, c.mention)
			}
		})
	}
}

func TestLogReplaysStatusesInOrder(t *testing.T) {
	var l Log
	a := mustPlan(t, "chk-1", Offsets{0: 10, 1: 10})
	b := mustPlan(t, "chk-2", Offsets{0: 20, 1: 15})
	for i, step := range []struct {
		st Status
		p  Plan
	}{{StatusCommitted, a}, {StatusApplied, a}, {StatusCommitted, b}, {StatusApplied, a}, {StatusCommitted, b}} {
		if err := add(t, &l, int64(i), step.st, step.p); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
	}
	if err := l.Validate(); err != nil {
		t.Fatal(err)
	}
	ops := l.Operations()
	if len(ops) != 2 || ops[0].PlanID != a.ID() || ops[0].Status != StatusApplied || ops[1].PlanID != b.ID() || ops[1].Status != StatusCommitted || ops[1].Offset != 2 {
		t.Fatalf("operations = %+v", ops)
	}
	if got := l.Boundary(); got[0] != 20 || got[1] != 15 {
		t.Fatalf("boundary = %v", got)
	}
	if latest, _ := l.Latest(); latest.PlanID != b.ID() {
		t.Fatalf("latest = %s", latest.PlanID)
	}
}

func TestLogRefusesAppliedBackToCommitted(t *testing.T) {
	var l Log
	a := mustPlan(t, "chk-1", Offsets{0: 10})
	if err := add(t, &l, 0, StatusApplied, a); err != nil {
		t.Fatal(err)
	}
	err := add(t, &l, 1, StatusCommitted, a)
	if !errors.Is(err, ErrCorruptControlLog) || !strings.Contains(err.Error(), "offset 1") {
		t.Fatalf("err = %v", err)
	}
}

func TestLogRefusesTombstoneNamingOffset(t *testing.T) {
	var l Log
	err := l.Add(7, []byte("k"), nil)
	if !errors.Is(err, ErrTombstone) || !strings.Contains(err.Error(), "offset 7") {
		t.Fatalf("err = %v", err)
	}
}

func TestLogValidateForeignAndIncomparable(t *testing.T) {
	a := mustPlan(t, "chk-1", Offsets{0: 10, 1: 10})
	crossing := mustPlan(t, "chk-2", Offsets{0: 5, 1: 20})
	otherParts := mustPlan(t, "chk-3", Offsets{0: 10, 1: 10, 2: 10})
	otherTopic, _ := New("chk-4", "other", "q1Yw3mZ7QGu3c8m0b7o5Zg", Offsets{0: 10, 1: 10})

	for name, c := range map[string]struct {
		second Plan
		want   error
	}{
		"crossing plans":   {crossing, ErrIncomparablePlans},
		"more partitions":  {otherParts, ErrForeignPlan},
		"other topic name": {otherTopic, ErrForeignPlan},
	} {
		var l Log
		if err := add(t, &l, 0, StatusApplied, a); err != nil {
			t.Fatal(err)
		}
		if err := add(t, &l, 1, StatusCommitted, c.second); err != nil {
			t.Fatal(err)
		}
		if err := l.Validate(); !errors.Is(err, c.want) {
			t.Fatalf("%s: err = %v, want %v", name, err, c.want)
		}
	}

	var l Log
	_ = add(t, &l, 0, StatusApplied, a)
	if err := l.ValidateFor("orders-agent-action-state", "AAAAAAAAAAAAAAAAAAAAAQ", Offsets{0: 0, 1: 0}); !errors.Is(err, ErrForeignPlan) || !strings.Contains(err.Error(), "recreated") {
		t.Fatalf("recreated topic: err = %v", err)
	}
}

func TestLogValidateLongChainAnyOrder(t *testing.T) {
	var l Log
	// Appended out of order (as two tools might), still a chain.
	for i, n := range []int64{5, 1, 9, 3, 7} {
		if err := add(t, &l, int64(i), StatusApplied, mustPlan(t, "chk", Offsets{0: n, 1: n * 2, 2: 0})); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Validate(); err != nil {
		t.Fatal(err)
	}
	if b := l.Boundary(); b[0] != 9 || b[1] != 18 {
		t.Fatalf("boundary = %v", b)
	}
}

func TestFromMarkers(t *testing.T) {
	m := func(offsets Offsets) Marker {
		return Marker{SchemaVersion: 1, Topic: "orders-agent-action-state", TopicID: "q1Yw3mZ7QGu3c8m0b7o5Zg", Offsets: offsets}
	}
	p, err := FromMarkers("file:/cp/chk-9", []Marker{m(Offsets{0: 150, 1: 120, 2: 7}), m(Offsets{0: 160, 1: 100, 2: 0}), m(Offsets{0: 155, 1: 130, 2: 3})})
	if err != nil {
		t.Fatal(err)
	}
	if p.Offsets[0] != 150 || p.Offsets[1] != 100 || p.Offsets[2] != 0 || p.SourceRecoveryPoint != "file:/cp/chk-9" {
		t.Fatalf("plan = %+v", p)
	}

	legacy := Marker{Legacy: true, Offsets: Offsets{0: 1}}
	otherTopic := m(Offsets{0: 1, 1: 1, 2: 1})
	otherTopic.TopicID = "AAAAAAAAAAAAAAAAAAAAAQ"
	v2 := m(Offsets{0: 1, 1: 1, 2: 1})
	v2.SchemaVersion = 2
	for name, c := range map[string]struct {
		markers []Marker
		want    error
	}{
		"none":            {nil, ErrInconsistentMarkers},
		"legacy":          {[]Marker{m(Offsets{0: 1}), legacy}, ErrLegacyMarker},
		"mixed topic ids": {[]Marker{m(Offsets{0: 1, 1: 1, 2: 1}), otherTopic}, ErrInconsistentMarkers},
		"partition sets":  {[]Marker{m(Offsets{0: 1, 1: 1, 2: 1}), m(Offsets{0: 1, 1: 1})}, ErrInconsistentMarkers},
		"schema version":  {[]Marker{v2}, ErrInconsistentMarkers},
	} {
		if _, err := FromMarkers("s", c.markers); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", name, err, c.want)
		}
	}
}

// A value that is not a control record comes back as a RecordError that
// says where it sits and still matches the reason's sentinel; a tombstone
// or a key mismatch was read fine and is not "unreadable".
func TestLogAddNamesUnreadableRecords(t *testing.T) {
	k, v := EncodeRecord(StatusCommitted, specPlan(t))
	for name, value := range map[string][]byte{
		"garbage":      []byte("\x00\x01garbage"),
		"not UTF-8":    append([]byte(`{"schemaVersion":1,"status":"`), 0xC3, 0x28),
		"truncated":    v[:len(v)-1],
		"schema 2":     []byte(strings.Replace(string(v), `{"schemaVersion":1`, `{"schemaVersion":2`, 1)),
		"blank topic":  []byte(strings.Replace(string(v), `"topic":"orders-agent-action-state"`, `"topic":"\u0001"`, 1)),
		"empty object": []byte(`{}`),
	} {
		var l Log
		err := l.Add(41, k, value)
		var rec *RecordError
		if !errors.Is(err, ErrUnreadableRecord) || !errors.Is(err, ErrMalformedPlan) || !errors.As(err, &rec) {
			t.Errorf("%s: err = %v, want an unreadable RecordError", name, err)
			continue
		}
		if rec.Offset != 41 || string(rec.Key) != string(k) || rec.Size != len(value) || !strings.HasPrefix(err.Error(), "control record at offset 41: ") {
			t.Errorf("%s: record error = %+v (%v)", name, rec, err)
		}
	}
	var l Log
	for name, err := range map[string]error{
		"tombstone":    l.Add(1, k, nil),
		"key mismatch": l.Add(2, []byte("other"), v),
	} {
		var rec *RecordError
		if errors.Is(err, ErrUnreadableRecord) || !errors.As(err, &rec) {
			t.Errorf("%s: err = %v, want a RecordError that is not unreadable", name, err)
		}
	}
}
