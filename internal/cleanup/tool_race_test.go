package cleanup

import (
	"context"
	"sync"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// TestToolApplyingTheSamePlanMeanwhileLeavesAReadableHistory: found by the
// soak (RELIABILITY.md). The runtime's cleanup tool applies the very plan
// this apply is applying (the same recovery point, so the same plan ID),
// without a transaction, between this apply's last re-read of the history
// and its COMMITTED append: the tool records COMMITTED, deletes, records
// APPLIED. This apply's COMMITTED then lands after the tool's APPLIED, and
// every reader (this provider, the runtime's restore, the tool) refuses the
// history for good ("goes back from APPLIED to COMMITTED"): the job can no
// longer restore until someone repairs the control topic. No record was
// lost, and DESIGN.md warns against running the tool beside Terraform, but
// the outcome is avoidable: the apply's own COMMITTED is still in an open
// transaction when the tool's APPLIED becomes readable below it, so the
// apply can see the plan recorded meanwhile and abort instead of committing.
func TestToolApplyingTheSamePlanMeanwhileLeavesAReadableHistory(t *testing.T) {
	e := newEnv(t, 2, 20)
	ctx := context.Background()
	p := e.plan("s3://ckpt/job/chk-7", func(int32) int64 { return 10 })

	slow := &pausingKafka{Kafka: e.newClient(), atAppend: true, begun: make(chan struct{}), release: make(chan struct{})}
	var errApply error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, errApply = Apply(ctx, slow, Request{Plan: p, ControlTopic: e.control})
	}()
	<-slow.begun
	// The tool: COMMITTED, delete, APPLIED, one record at a time.
	for _, status := range []cleanupplan.Status{cleanupplan.StatusCommitted, cleanupplan.StatusApplied} {
		key, value := cleanupplan.EncodeRecord(status, p)
		if _, err := e.appendControl(ctx, e.control, key, value); err != nil {
			t.Fatal(err)
		}
		if status == cleanupplan.StatusCommitted {
			if _, err := e.kafka.DeleteRecords(ctx, e.data, kafkaops.TopicID{}, map[int32]int64{0: 10, 1: 10}); err != nil {
				t.Fatal(err)
			}
		}
	}
	close(slow.release)
	wg.Wait()
	t.Logf("the apply that raced the tool: %v", errApply)

	log, err := History(ctx, e.kafka, e.control)
	if err != nil {
		t.Fatalf("the history is no longer readable: %v", err)
	}
	if ops := log.Operations(); len(ops) != 1 || ops[0].PlanID != p.ID() || ops[0].Status != cleanupplan.StatusApplied {
		t.Fatalf("history = %+v, want the plan APPLIED", ops)
	}
}
