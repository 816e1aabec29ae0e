package cleanup

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// A recorded APPLIED is only a claim: here a foreign writer (the Java
// tool's false APPLIED, or a broker that lost its log start offset, which
// looks the same from outside) recorded APPLIED without deleting. Inspect
// must see the records below the boundary, and Apply must delete them
// again, within the invariant, without writing a new record.
func TestApplyDeletesAgainBelowAnAppliedBoundary(t *testing.T) {
	e := newEnv(t, 3, 10)
	ctx := context.Background()
	plan := e.plan("chk-1", func(p int32) int64 { return 5 + int64(p) })
	for _, st := range []cleanupplan.Status{cleanupplan.StatusCommitted, cleanupplan.StatusApplied} {
		k, v := cleanupplan.EncodeRecord(st, plan)
		if _, err := e.appendControl(ctx, controlTopic, k, v); err != nil {
			t.Fatal(err)
		}
	}
	ins, err := Inspect(ctx, e.kafka, controlTopic)
	if err != nil {
		t.Fatal(err)
	}
	want := []Range{{0, 0, 5}, {1, 0, 6}, {2, 0, 7}}
	if !slices.Equal(ins.Remaining, want) || len(ins.GonePast) != 0 || ins.Uncompared != nil {
		t.Fatalf("inspection: remaining %v gone %v uncompared %v; want remaining %v", ins.Remaining, ins.GonePast, ins.Uncompared, want)
	}

	end := e.controlEnd()
	spy := newSpy(e)
	res, err := Apply(ctx, spy, Request{Plan: plan, ControlTopic: controlTopic})
	if err != nil {
		t.Fatal(err)
	}
	spy.check()
	if !res.Redeleted || res.AlreadyApplied || !slices.Equal(res.Deleted, want) {
		t.Fatalf("result %+v, want Redeleted with ranges %v", res, want)
	}
	if s := e.startOffsets(); s[0] != 5 || s[1] != 6 || s[2] != 7 {
		t.Fatalf("start offsets after re-deletion: %v", s)
	}
	if e.controlEnd() != end {
		t.Fatalf("re-deletion wrote to the control topic (end %d -> %d)", end, e.controlEnd())
	}
	ins, err = Inspect(ctx, e.kafka, controlTopic)
	if err != nil || len(ins.Remaining) != 0 {
		t.Fatalf("after re-deletion: remaining %v, err %v", ins.Remaining, err)
	}
	// Now it holds: the next apply is a no-op again.
	if res, err := Apply(ctx, e.kafka, Request{Plan: plan, ControlTopic: controlTopic}); err != nil || !res.AlreadyApplied {
		t.Fatalf("third apply: %+v %v", res, err)
	}
}

// The preview refuses what Apply refuses before committing: an offset
// above the partition's end.
func TestPreviewRefusesOffsetsAboveTheEnd(t *testing.T) {
	e := newEnv(t, 2, 10)
	plan := e.plan("chk-1", func(p int32) int64 { return 10 + int64(p) })
	_, err := PreviewApply(context.Background(), e.kafka, plan, controlTopic)
	if !errors.Is(err, ErrOffsetOutOfRange) {
		t.Fatalf("preview of an offset above the end: %v", err)
	}
}
