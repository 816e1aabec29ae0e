package kafkaops

import (
	"context"
	"errors"

	"github.com/twmb/franz-go/pkg/kerr"
)

// TxnState is what the transaction coordinator says of a control topic's
// transactional ID (KIP-664's DescribeTransactions): which registration
// holds it and whether a transaction is in progress. Two reads that differ
// in anything mean an applier acted between them.
type TxnState struct {
	// State is Kafka's name for it: Empty, Ongoing, PrepareCommit,
	// PrepareAbort, CompleteCommit, CompleteAbort, PrepareEpochFence, or
	// "" when the coordinator knows no such transactional ID.
	State      string
	ProducerID int64
	Epoch      int16
}

// Open reports whether a transaction is in progress: its records are not
// yet readable, and registering now would abort it.
func (s TxnState) Open() bool {
	switch s.State {
	case "Ongoing", "PrepareCommit", "PrepareAbort", "PrepareEpochFence":
		return true
	}
	return false
}

// ControlTxnState asks the transaction coordinator for the state of the
// control topic's transactional ID. It needs DESCRIBE on that ID, which the
// WRITE every applier holds implies.
func (c *Client) ControlTxnState(ctx context.Context, controlTopic string) (TxnState, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	release, err := c.acquire(ctx)
	if err != nil {
		return TxnState{}, opErr(OpDescribeControlTxn, controlTopic, err)
	}
	defer release()
	id := TransactionalID(controlTopic)
	described, err := c.admin.DescribeTransactions(ctx, id)
	if err != nil {
		return TxnState{}, opErr(OpDescribeControlTxn, controlTopic, err)
	}
	d, ok := described[id]
	switch {
	case !ok:
		return TxnState{}, opErr(OpDescribeControlTxn, controlTopic, errors.New("the coordinator did not answer for transactional ID "+id))
	case errors.Is(d.Err, kerr.TransactionalIDNotFound):
		return TxnState{}, nil
	case d.Err != nil:
		return TxnState{}, opErr(OpDescribeControlTxn, controlTopic, d.Err)
	}
	return TxnState{State: d.State, ProducerID: d.ProducerID, Epoch: d.ProducerEpoch}, nil
}
