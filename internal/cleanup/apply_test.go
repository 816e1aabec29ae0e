package cleanup

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

func TestApplyCommitsDeletesAndRecordsApplied(t *testing.T) {
	e := newEnv(t, 12, 20)
	spy := newSpy(e)
	plan := e.plan("file:/cp/chk-1", func(p int32) int64 { return int64(p) + 3 })
	res, err := Apply(context.Background(), spy, Request{Plan: plan, ControlTopic: controlTopic, ExpectedTopic: dataTopic})
	if err != nil {
		t.Fatal(err)
	}
	spy.check()
	if res.AlreadyApplied || res.Resumed || res.PlanID != plan.ID() || len(res.Deleted) != 12 {
		t.Fatalf("result = %+v", res)
	}
	for p, off := range e.startOffsets() {
		if off != int64(p)+3 {
			t.Errorf("partition %d starts at %d, want %d", p, off, int64(p)+3)
		}
	}
	ops := e.history().Operations()
	if len(ops) != 1 || ops[0].Status != cleanupplan.StatusApplied || !ops[0].Plan.Equal(plan) {
		t.Fatalf("history = %+v", ops)
	}
	var records []string
	if _, err := e.kafka.ReadControlLog(context.Background(), controlTopic, func(r kafkaops.ControlRecord) error {
		rec, err := cleanupplan.DecodeRecord(r.Key, r.Value)
		records = append(records, string(rec.Status))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(records, ",") != "COMMITTED,APPLIED" {
		t.Fatalf("control topic holds %v, want COMMITTED then APPLIED", records)
	}
}

func TestReapplyingAnAppliedPlanWritesNothing(t *testing.T) {
	e := newEnv(t, 4, 10)
	plan := e.plan("chk-1", func(int32) int64 { return 5 })
	if _, err := Apply(context.Background(), e.kafka, Request{Plan: plan, ControlTopic: controlTopic}); err != nil {
		t.Fatal(err)
	}
	end := e.controlEnd()
	spy := newSpy(e)
	res, err := Apply(context.Background(), spy, Request{Plan: plan, ControlTopic: controlTopic})
	if err != nil || !res.AlreadyApplied {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	if spy.deletes != 0 || e.controlEnd() != end {
		t.Fatalf("re-apply deleted %d times and moved the control end from %d to %d", spy.deletes, end, e.controlEnd())
	}
}

func TestForwardMovesAndEqualPlan(t *testing.T) {
	e := newEnv(t, 3, 30)
	ctx := context.Background()
	for i, off := range []int64{5, 5, 17, 30} {
		plan := e.plan("chk-"+string(rune('a'+i)), func(int32) int64 { return off })
		if _, err := Apply(ctx, e.kafka, Request{Plan: plan, ControlTopic: controlTopic}); err != nil {
			t.Fatalf("move %d to %d: %v", i, off, err)
		}
		for p, start := range e.startOffsets() {
			if start != off {
				t.Fatalf("after move %d partition %d starts at %d, want %d", i, p, start, off)
			}
		}
	}
	if got := e.history().Boundary(); got[0] != 30 {
		t.Fatalf("boundary = %v", got)
	}
}

func TestBackwardMoveIsRefusedBeforeWriting(t *testing.T) {
	e := newEnv(t, 3, 30)
	ctx := context.Background()
	if _, err := Apply(ctx, e.kafka, Request{Plan: e.plan("chk-2", func(int32) int64 { return 20 }), ControlTopic: controlTopic}); err != nil {
		t.Fatal(err)
	}
	end := e.controlEnd()
	back := e.plan("chk-1", func(p int32) int64 { return 20 - int64(p) })
	_, err := Apply(ctx, e.kafka, Request{Plan: back, ControlTopic: controlTopic})
	var bm *cleanupplan.BackwardMoveError
	if !errors.As(err, &bm) || bm.Partition != 1 || bm.Boundary != 20 || bm.Requested != 19 || bm.Partitions != 2 {
		t.Fatalf("err = %v (%+v)", err, bm)
	}
	if e.controlEnd() != end {
		t.Fatal("a refused plan wrote to the control topic")
	}
}

func TestResumesCommittedRecordWrittenByJavaTool(t *testing.T) {
	e := newEnv(t, 3, 10)
	ctx := context.Background()
	// The exact bytes the Java tool writes for this plan (compact Jackson),
	// spelled out rather than produced by our encoder.
	plan := e.plan("file:/var/flink/checkpoints/7f3a/chk-42", func(p int32) int64 { return []int64{7, 4, 0}[p] })
	value := `{"schemaVersion":1,"status":"COMMITTED","plan":{"schemaVersion":1,"planId":"` + plan.ID() +
		`","sourceRecoveryPoint":"file:/var/flink/checkpoints/7f3a/chk-42","topic":"orders-agent-action-state","topicId":"` +
		e.topicID + `","offsets":{"0":7,"1":4,"2":0}}}`
	if _, err := e.appendControl(ctx, controlTopic, []byte(plan.ID()), []byte(value)); err != nil {
		t.Fatal(err)
	}
	spy := newSpy(e)
	res, err := Apply(ctx, spy, Request{Plan: plan, ControlTopic: controlTopic})
	if err != nil || !res.Resumed {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	spy.check()
	if s := e.startOffsets(); s[0] != 7 || s[1] != 4 || s[2] != 0 {
		t.Fatalf("start offsets = %v", s)
	}
	if op, _ := e.history().Lookup(plan.ID()); op.Status != cleanupplan.StatusApplied {
		t.Fatalf("status = %s", op.Status)
	}
}

// A further COMMITTED plan left by a crashed apply raises the target of the
// next apply: Apply deletes to the effective boundary, not to its own plan.
func TestApplyDeletesToEffectiveBoundaryAndMarksAllApplied(t *testing.T) {
	e := newEnv(t, 2, 20)
	ctx := context.Background()
	far := e.plan("chk-9", func(int32) int64 { return 15 })
	k, v := cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, far)
	if _, err := e.appendControl(ctx, controlTopic, k, v); err != nil {
		t.Fatal(err)
	}
	res, err := Apply(ctx, e.kafka, Request{Plan: far, ControlTopic: controlTopic})
	if err != nil || !res.Resumed || res.Target[0] != 15 {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	for _, op := range e.history().Operations() {
		if op.Status != cleanupplan.StatusApplied {
			t.Fatalf("plan %s left %s", op.PlanID, op.Status)
		}
	}
}
