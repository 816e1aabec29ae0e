package cleanup

import (
	"context"
	"fmt"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// commit is step 6 in a transaction. Registering as the control topic's
// transactional producer fences any concurrent applier first; the history
// is then re-read and everything re-validated, so no other applier's plan
// can land between this validation and this append. The COMMITTED record,
// once the transaction commits, is the point of no return.
func (a *applier) commit(ctx context.Context) error {
	return a.inTxn(ctx, "for plan "+a.id+" (nothing was written or deleted; re-run apply)", func(txn kafkaops.ControlTxn, log *cleanupplan.Log) ([]string, error) {
		if _, ok := log.Lookup(a.id); ok {
			return nil, nil // another applier recorded this very plan meanwhile: resume it
		}
		if err := a.plan.AdvancesOrEquals(log.Boundary()); err != nil {
			return nil, fmt.Errorf("control topic %q: %w", a.req.ControlTopic, err)
		}
		a.step("check offsets are available", nil)
		data, err := a.checkOffsetsAvailable(ctx)
		if err != nil {
			return nil, err
		}
		if err := a.checkSettings(ctx); err != nil {
			return nil, err
		}
		if err := a.checkPermissions(ctx, data); err != nil {
			return nil, err
		}
		a.step("append COMMITTED", nil)
		a.appending = true
		key, value := cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, a.plan)
		if err := txn.Append(ctx, key, value); err != nil {
			return nil, fmt.Errorf("recording plan %s as COMMITTED in %q (nothing was deleted; re-run apply): %w", a.id, a.req.ControlTopic, err)
		}
		return []string{"COMMITTED for plan " + a.id}, nil
	})
}

// checkPermissions takes the data topic as just described by the identity
// check, so only the control topic needs asking.
func (a *applier) checkPermissions(ctx context.Context, data kafkaops.Topic) error {
	control, err := a.k.DescribeTopic(ctx, a.req.ControlTopic)
	if err != nil {
		return err
	}
	return checkPermissions(data, control)
}
