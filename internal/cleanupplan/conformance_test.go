package cleanupplan

import (
	"errors"
	"testing"
)

// A plan ID is a hash of newline-joined fields, so two plans can share
// one (a "\n" moved from the source into the topic). The runtime refuses a
// record whose plan differs from the first under its ID ("Cleanup control
// record changed immutable plan"); so do we, comparing contents, not IDs.
func TestPlanIDReusedForOtherContentsIsRefused(t *testing.T) {
	first := mustPlan(t, "s3://ckpt/chk-1\norders", Offsets{0: 10})
	other, err := New("s3://ckpt/chk-1", "orders\n"+first.Topic, first.TopicID, Offsets{0: 10})
	if err != nil {
		t.Fatal(err)
	}
	if first.ID() != other.ID() || first.Equal(other) {
		t.Fatalf("test bug: the plans must share an ID (%s, %s) and differ", first.ID(), other.ID())
	}
	var l Log
	if err := add(t, &l, 0, StatusCommitted, first); err != nil {
		t.Fatal(err)
	}
	err = add(t, &l, 1, StatusApplied, other)
	if !errors.Is(err, ErrCorruptControlLog) {
		t.Fatalf("err = %v, want %v", err, ErrCorruptControlLog)
	}
	if op, _ := l.Lookup(first.ID()); op.Status != StatusCommitted || !op.Plan.Equal(first) {
		t.Fatalf("the refused record changed the history: %+v", op)
	}
}
