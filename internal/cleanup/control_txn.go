package cleanup

import (
	"context"
	"fmt"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// inTxn runs fn inside a control-topic transaction, with the history read
// after the transaction fenced every earlier applier; it commits when fn
// appended something and aborts otherwise. why completes the messages.
func (a *applier) inTxn(ctx context.Context, why string, fn func(kafkaops.ControlTxn, *cleanupplan.Log) (appended bool, err error)) error {
	txn, err := a.k.BeginControlTxn(ctx, a.req.ControlTopic)
	if err != nil {
		return fmt.Errorf("starting a transaction on control topic %q %s: %w", a.req.ControlTopic, why, err)
	}
	log, err := a.readHistory(ctx)
	if err == nil {
		err = a.checkControlTopicID(ctx)
	}
	appended := false
	if err == nil {
		appended, err = fn(txn, log)
	}
	if err != nil || !appended {
		txn.Abort(ctx)
		return err
	}
	if err := txn.Commit(ctx); err != nil {
		return fmt.Errorf("committing the transaction on control topic %q %s (if the commit landed, the next apply resumes from it): %w", a.req.ControlTopic, why, err)
	}
	return nil
}

// checkControlTopicID re-verifies, inside a transaction and before its
// appends, that the control topic is still the one the apply began with:
// appends go by name and would land in a recreated topic.
func (a *applier) checkControlTopicID(ctx context.Context) error {
	t, err := a.k.DescribeTopic(ctx, a.req.ControlTopic)
	if err != nil {
		return err
	}
	if got := t.ID.String(); got != a.controlID {
		return fmt.Errorf("%w: control topic %q had ID %s when this apply began and has ID %s now; it was deleted and recreated during the apply. "+
			"Nothing was appended to it",
			ErrControlTopicIDChanged, a.req.ControlTopic, a.controlID, got)
	}
	return nil
}
