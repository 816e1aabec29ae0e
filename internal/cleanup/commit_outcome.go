package cleanup

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// commitRecheckTimeout bounds the re-read of the history after a commit
// failed. It runs even when the apply's own context has ended (its
// deadline is the usual reason a commit fails): what the commit left is
// worth one more read, as DeleteRecords' identity check after a request.
const commitRecheckTimeout = 15 * time.Second

// commitFailed runs when committing a transaction that appended records
// failed (a timeout, most often): the coordinator may have committed it
// all the same. It re-reads the history to learn whether the plan is now
// recorded with the status the transaction wrote (writes). When it is and
// the apply's context is still live, the apply goes on as if the commit had
// answered (nil): the re-read is a read_committed read, so the record is
// durable (an APPLIED that landed ends the apply even then: nothing is
// left to do). Otherwise the error says what the re-read found: landed, not
// readable (it may still land: the coordinator completes or aborts it
// within kafkaops.ControlTxnTimeout), or unknown.
func (a *applier) commitFailed(ctx context.Context, writes cleanupplan.Status, appended []string, err error) error {
	what := strings.Join(appended, " and ")
	if errors.Is(err, kafkaops.ErrFenced) {
		// Fenced: the coordinator aborted it, and whatever the history
		// shows now is the other applier's (finishedByAnother reads it).
		return fmt.Errorf("committing the transaction on control topic %q that appended %s: it was aborted: %w", a.req.ControlTopic, what, err)
	}
	read, cancel := context.WithTimeout(context.WithoutCancel(ctx), commitRecheckTimeout)
	defer cancel()
	log, readErr := readHistory(read, a.k, a.req.ControlTopic)
	if readErr != nil {
		return fmt.Errorf("committing the transaction on control topic %q that appended %s failed, and re-reading the control topic to learn whether it landed failed too (%v): "+
			"the record may have been written. Nothing was deleted by this step; re-run apply: it resumes from what the control topic records: %w",
			a.req.ControlTopic, what, readErr, err)
	}
	op, recorded := log.Lookup(a.id)
	landed := recorded && op.Plan.Equal(a.plan) && (writes == cleanupplan.StatusCommitted || op.Status == cleanupplan.StatusApplied)
	if !landed {
		return fmt.Errorf("committing the transaction on control topic %q that appended %s failed, and a re-read of the control topic does not show it: "+
			"unless the coordinator still completes the commit (it completes or aborts it within %s), nothing was recorded. "+
			"Re-run apply: it resumes the plan if the commit landed, and records it otherwise: %w",
			a.req.ControlTopic, what, kafkaops.ControlTxnTimeout, err)
	}
	if writes == cleanupplan.StatusCommitted {
		a.committed, a.committedHere, a.appending = true, true, false
	}
	if ctx.Err() == nil || writes == cleanupplan.StatusApplied {
		// Going on is safe; an APPLIED that landed leaves nothing to do.
		a.step("commit unanswered but landed", map[string]any{"appended": what})
		return nil
	}
	return &WrittenBeforeError{
		Written: a.writtenSoFar() + ": the runtime enforces that boundary, and nothing was deleted. Re-run apply to finish: it resumes the plan",
		Err:     fmt.Errorf("committing the transaction on control topic %q that appended %s failed, but a re-read of the control topic shows it landed: %w", a.req.ControlTopic, what, err),
	}
}
