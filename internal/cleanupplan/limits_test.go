package cleanupplan

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Oversized input is refused unread, naming its size and the limit.
func TestSizeLimitRefusesBeforeParsing(t *testing.T) {
	// Not even JSON: only the size check can be what refuses it.
	huge := bytes.Repeat([]byte{'x'}, MaxPlanBytes+1)
	_, err := Parse(huge)
	if !errors.Is(err, ErrMalformedPlan) || !strings.Contains(err.Error(), fmt.Sprintf("plan is %d bytes, more than the limit of %d bytes", MaxPlanBytes+1, MaxPlanBytes)) {
		t.Fatalf("Parse: err = %v", err)
	}
	value := bytes.Repeat([]byte{'x'}, maxRecordBytes+1)
	_, err = DecodeRecord([]byte("k"), value)
	if !errors.Is(err, ErrMalformedPlan) || !strings.Contains(err.Error(), fmt.Sprintf("control record value is %d bytes, more than the limit of %d bytes", maxRecordBytes+1, maxRecordBytes)) {
		t.Fatalf("DecodeRecord: err = %v", err)
	}
	var l Log
	err = l.Add(12, []byte("k"), value)
	var rec *RecordError
	if !errors.Is(err, ErrUnreadableRecord) || !errors.As(err, &rec) || rec.Offset != 12 || rec.Size != maxRecordBytes+1 {
		t.Fatalf("Log.Add: err = %v", err)
	}
}

// At the limit exactly, a plan is read; and a plan accepted as plan_json
// fits in a control record that reads back, envelope included.
func TestSizeLimitIsInclusiveAndRecordsFitTheirPlans(t *testing.T) {
	p := specPlan(t)
	compact := p.CompactJSON()
	// A source path that brings the compact plan to the limit exactly (the
	// plan ID changes with it, but not its length).
	p.SourceRecoveryPoint += strings.Repeat("a", MaxPlanBytes-len(compact))
	compact = p.CompactJSON()
	if len(compact) != MaxPlanBytes {
		t.Fatalf("test bug: compact plan is %d bytes", len(compact))
	}
	parsed, err := Parse(compact)
	if err != nil {
		t.Fatal(err)
	}
	key, value := EncodeRecord(StatusCommitted, parsed)
	if len(value) != maxRecordBytes {
		t.Fatalf("record of a limit-sized plan is %d bytes, want exactly maxRecordBytes (%d)", len(value), maxRecordBytes)
	}
	if _, err := DecodeRecord(key, value); err != nil {
		t.Fatalf("a record of a plan accepted as plan_json does not read back: %v", err)
	}
	// Padding a valid plan to the limit with whitespace is still a plan.
	padded := append(specPlan(t).File(), bytes.Repeat([]byte{' '}, MaxPlanBytes-len(specPlan(t).File()))...)
	if _, err := Parse(padded); err != nil {
		t.Fatalf("plan of exactly MaxPlanBytes: %v", err)
	}
	if _, err := Parse(append(padded, ' ')); !errors.Is(err, ErrMalformedPlan) {
		t.Fatalf("one byte over: err = %v", err)
	}
}

// A plan built here can always be handed back as plan_json: New refuses one
// whose file would exceed the limit.
func TestNewRefusesPlanBeyondTheLimit(t *testing.T) {
	offsets := make(Offsets, 200_000)
	for p := range int32(200_000) {
		offsets[p] = 1_000_000_000
	}
	_, err := New("file:/cp/chk-1", "t", "q1Yw3mZ7QGu3c8m0b7o5Zg", offsets)
	if !errors.Is(err, ErrMalformedPlan) || !strings.Contains(err.Error(), "(200000 partitions), more than the limit") {
		t.Fatalf("err = %v", err)
	}
}
