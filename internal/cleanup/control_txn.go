package cleanup

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// inTxn runs fn inside a control-topic transaction, with the history read
// after the transaction fenced every earlier applier; it commits when fn
// appended something (appended names each record) and aborts otherwise.
// A failing fn returns the records it sent, the failed one included, so a
// failure that is the control topic's recreation is reported as one.
// why completes the messages.
//
// Appends go by name, and the offset, settings and permission checks run
// between the control topic's ID check and the appends: a control topic
// recreated meanwhile receives them. So the ID is checked again after the
// appends and before the commit, and a changed one aborts the transaction:
// no read_committed reader ever sees records appended to a recreated
// control topic.
//
// The fencing holds back transactional appliers only: the Java tool appends
// without a transaction, so its records can land between fn's read and
// fn's appends. They land below this transaction's first record, where
// read_committed readers see them while this transaction's records stay
// hidden, and every reader then replays this transaction's records after
// them. With recheck set, the history is read again beside the second ID
// check, and one that changed since fn validated it aborts the
// transaction: changed is that history, for the caller to decide again on.
//
// writes is the status the transaction records for this apply's plan: a
// commit that fails is followed by a re-read of the history, which tells
// whether it landed all the same (commitFailed).
func (a *applier) inTxn(ctx context.Context, why string, writes cleanupplan.Status, recheck bool, fn func(kafkaops.ControlTxn, *cleanupplan.Log) (appended []string, err error)) (changed *cleanupplan.Log, err error) {
	txn, err := a.beginTxn(ctx)
	if err != nil {
		return nil, fmt.Errorf("starting a transaction on control topic %q %s: %w", a.req.ControlTopic, why, err)
	}
	log, err := a.readHistory(ctx)
	if err == nil {
		err = a.checkControlTopicID(ctx, nil)
	}
	var appended []string
	if err == nil {
		appended, err = fn(txn, log)
	}
	if err != nil && len(appended) > 0 && errors.Is(err, kafkaops.ErrTopicReplaced) {
		err = a.controlReplacedAtAppend(ctx, appended, err)
	}
	if err == nil && len(appended) > 0 {
		validated := log
		if !recheck {
			validated = nil
		}
		changed, err = a.recheckBeforeCommit(ctx, validated, appended)
	}
	if err != nil || len(appended) == 0 || changed != nil {
		txn.Abort(ctx)
		return changed, err
	}
	if err := txn.Commit(ctx); err != nil {
		if errors.Is(err, kafkaops.ErrTopicReplaced) {
			return nil, a.controlRecreatedDuringCommit(appended, err)
		}
		return nil, a.commitFailed(ctx, writes, appended, err)
	}
	return nil, nil
}

// beginTxn begins a transaction on the control topic: the first of the
// apply registers as the control topic's producer (fencing every earlier
// applier), the later ones go on that registration (ControlTxn.Again), so
// an apply registers once, not once per transaction. A producer given up
// after a failed append or commit is replaced by a new registration.
func (a *applier) beginTxn(ctx context.Context) (kafkaops.ControlTxn, error) {
	if a.txn != nil {
		if err := a.txn.Again(ctx); err == nil {
			return a.txn, nil
		}
		a.closeTxn()
	}
	txn, err := a.k.BeginControlTxn(ctx, a.req.ControlTopic)
	if err != nil {
		return nil, err
	}
	a.txn = txn
	return txn, nil
}

// closeTxn releases the apply's control-topic producer, if any.
func (a *applier) closeTxn() {
	if a.txn != nil {
		a.txn.Close()
		a.txn = nil
	}
}

// recheckBeforeCommit runs after a transaction's appends, before its
// commit. When validated is set, it reads the history again and returns it
// as changed if its plans or their statuses differ from validated's;
// offsets alone do not count, as compaction moves them. The control topic's
// ID is read last, nearest the commit, and a changed ID wins over whatever
// the history read found: it explains that read.
func (a *applier) recheckBeforeCommit(ctx context.Context, validated *cleanupplan.Log, appended []string) (changed *cleanupplan.Log, err error) {
	var now *cleanupplan.Log
	var readErr error
	if validated != nil {
		now, readErr = a.readHistory(ctx)
	}
	if err := a.checkControlTopicID(ctx, appended); err != nil {
		return nil, err
	}
	switch {
	case readErr != nil:
		return nil, fmt.Errorf("reading control topic %q again after this transaction appended %s, before committing it (the transaction was aborted, so no reader sees them): %w",
			a.req.ControlTopic, strings.Join(appended, " and "), readErr)
	case validated != nil && !sameOperations(validated, now):
		return now, nil
	}
	return nil, nil
}

// sameOperations reports whether two reads of the history record the same
// plans, in the same order, with the same statuses.
func sameOperations(a, b *cleanupplan.Log) bool {
	return slices.EqualFunc(a.Operations(), b.Operations(), func(x, y cleanupplan.Operation) bool {
		return x.PlanID == y.PlanID && x.Status == y.Status
	})
}

// checkControlTopicID re-verifies, inside a transaction, that the control
// topic is still the one the apply began with: before the transaction's
// appends (appended is nil) and again after them, before the commit.
func (a *applier) checkControlTopicID(ctx context.Context, appended []string) error {
	t, err := a.k.DescribeTopic(ctx, a.req.ControlTopic)
	if err != nil {
		if len(appended) > 0 {
			return fmt.Errorf("reading control topic %q's ID after this transaction appended %s, before committing it (the transaction was aborted, so no reader sees them): %w",
				a.req.ControlTopic, strings.Join(appended, " and "), err)
		}
		return err
	}
	got := t.ID.String()
	if got == a.controlID {
		return nil
	}
	this := fmt.Sprintf("Nothing was appended to the control topic with ID %s", got)
	if len(appended) > 0 {
		this = fmt.Sprintf("This transaction had sent %s to it by name; the transaction was aborted, so no read_committed reader "+
			"(the runtime, the Java tool, this provider) sees them", strings.Join(appended, " and "))
	}
	return fmt.Errorf("%w: control topic %q had ID %s when this apply began and has ID %s now; it was deleted and recreated during the apply. %s. %s",
		ErrControlTopicIDChanged, a.req.ControlTopic, a.controlID, got, this, a.writtenSoFar())
}

// controlReplacedAtAppend reports an append that kafkaops found going to a
// control topic deleted or recreated under its name (a retry of it saw the
// topic's ID change). A recreated topic gets the same report as an ID found
// changed just before the commit, since the transaction is aborted the same
// way whether or not the broker took the record; a deleted one keeps
// kafkaops' own account, err.
func (a *applier) controlReplacedAtAppend(ctx context.Context, sent []string, err error) error {
	if idErr := a.checkControlTopicID(ctx, sent); errors.Is(idErr, ErrControlTopicIDChanged) {
		return idErr
	}
	return err
}

// controlRecreatedDuringCommit reports a commit that kafkaops saw the
// control topic replaced under while it waited for readers to see the
// records: the commit went to the topic the transaction wrote to, which no
// longer exists.
func (a *applier) controlRecreatedDuringCommit(appended []string, err error) error {
	return fmt.Errorf("%w: control topic %q was deleted and recreated while this apply committed %s in it: "+
		"the records went to the control topic with ID %s, which is gone with them, and the recreated topic holds none of them. %s: %w",
		ErrControlTopicIDChanged, a.req.ControlTopic, strings.Join(appended, " and "), a.controlID, a.writtenSoFar(), err)
}

// writtenSoFar says what this apply wrote before the control topic was
// found recreated, so a message about it never claims that nothing was.
func (a *applier) writtenSoFar() string {
	var done []string
	if a.committedHere {
		done = append(done, fmt.Sprintf("recorded plan %s as COMMITTED in the control topic with ID %s", a.id, a.controlID))
	}
	if a.deleted != nil {
		done = append(done, fmt.Sprintf("deleted records of %q (ID %s): %s", a.plan.Topic, a.plan.TopicID, kafkaops.DescribeOffsets(a.deleted, "up to")))
	}
	if len(done) == 0 {
		return "Before this, the apply wrote and deleted nothing"
	}
	return "Before this, the apply " + strings.Join(done, ", and ")
}
