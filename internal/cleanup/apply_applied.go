package cleanup

import (
	"context"
	"fmt"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// markApplied is step 8: it records APPLIED, in one transaction, for every
// plan still COMMITTED whose offsets the deletion up to target covered. A
// plan another applier committed after this one's deletion stays COMMITTED
// for its own apply to finish.
//
// Unlike commit, it does not read the history again after its appends:
// whatever a writer outside the fencing records below them, an APPLIED
// after its plan's COMMITTED or APPLIED is accepted, so these appends never
// turn a readable history into a refused one. The refused shape, a
// COMMITTED after an APPLIED of one plan, needs a COMMITTED above these
// records, which no read before the commit can see.
func (a *applier) markApplied(ctx context.Context, target cleanupplan.Offsets) error {
	_, err := a.inTxn(ctx, "to record APPLIED (records are deleted; re-run apply to record it)", cleanupplan.StatusApplied, false, func(txn kafkaops.ControlTxn, log *cleanupplan.Log) ([]string, error) {
		var appended []string
		for _, op := range log.Operations() {
			if op.Status != cleanupplan.StatusCommitted || !covers(target, op.Plan.Offsets) {
				continue
			}
			a.step("append APPLIED", map[string]any{"applied_plan_id": op.PlanID})
			key, value := cleanupplan.EncodeRecord(cleanupplan.StatusApplied, op.Plan)
			appended = append(appended, "APPLIED for plan "+op.PlanID)
			if err := txn.Append(ctx, key, value); err != nil {
				return appended, fmt.Errorf("recording plan %s as APPLIED in %q (records are deleted; re-run apply to record it): %w", op.PlanID, a.req.ControlTopic, err)
			}
		}
		return appended, nil
	})
	return err
}

// covers reports whether every offset of o is at or below target.
func covers(target, o cleanupplan.Offsets) bool {
	for p, off := range o {
		if off > target[p] {
			return false
		}
	}
	return true
}
