package cleanup

import (
	"context"
	"fmt"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// maxCommitRounds bounds how often commitNew starts a new transaction
// because the history changed under the last one: only a writer outside
// the fencing (the Java tool) changes it, with a record or two per apply.
const maxCommitRounds = 3

// commitNew is step 6 for a plan the history does not record. It returns
// nil once this apply's COMMITTED is committed, or the history once it
// records the plan (another writer recorded it meanwhile: the caller
// resumes it). A history that changed otherwise is decided on again in a
// new transaction: refused if the plan no longer advances or equals its
// boundary, committed anew if it does.
func (a *applier) commitNew(ctx context.Context, log *cleanupplan.Log) (*cleanupplan.Log, error) {
	for round := 1; ; round++ {
		// Fail fast on a backward move; commit re-checks inside its
		// transaction.
		if err := a.plan.AdvancesOrEquals(log.Boundary()); err != nil {
			return nil, fmt.Errorf("control topic %q: %w", a.req.ControlTopic, err)
		}
		changed, err := a.commit(ctx)
		if err != nil || changed == nil {
			return nil, err
		}
		if _, ok := changed.Lookup(a.id); ok {
			return changed, nil
		}
		if round == maxCommitRounds {
			return nil, fmt.Errorf("%w: control topic %q changed %d times while this apply committed plan %s, each time after the apply had validated it; "+
				"each transaction was aborted, so nothing was recorded or deleted. Something appends to it without a transaction (the Java KafkaActionStateCleanupTool does)",
				ErrControlTopicChanging, a.req.ControlTopic, maxCommitRounds, a.id)
		}
		log = changed
	}
}

// commit is one transaction of step 6. Registering as the control topic's
// transactional producer fences any concurrent applier first; the history
// is then re-read and everything re-validated, so no other applier's plan
// can land between this validation and this append. The history is read
// again after the append (inTxn): a writer outside the fencing may have
// recorded something meanwhile, below the append, and then the transaction
// is aborted and that history returned. The COMMITTED record, once the
// transaction commits, is the point of no return.
func (a *applier) commit(ctx context.Context) (changed *cleanupplan.Log, err error) {
	var recorded *cleanupplan.Log
	changed, err = a.inTxn(ctx, "for plan "+a.id+" (nothing was written or deleted; re-run apply)", cleanupplan.StatusCommitted, true, func(txn kafkaops.ControlTxn, log *cleanupplan.Log) ([]string, error) {
		if _, ok := log.Lookup(a.id); ok {
			recorded = log // another applier recorded this very plan meanwhile: resume it
			return nil, nil
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
		sent := []string{"COMMITTED for plan " + a.id}
		if err := txn.Append(ctx, key, value); err != nil {
			return sent, fmt.Errorf("recording plan %s as COMMITTED in %q (nothing was deleted; re-run apply): %w", a.id, a.req.ControlTopic, err)
		}
		return sent, nil
	})
	if changed != nil {
		a.appending = false // aborted: the append never becomes readable
		return changed, nil
	}
	return recorded, err
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
