package kafkaops

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// ErrFenced: another applier with the same transactional ID (the same
// control topic) started after this one; this one's appends are aborted.
var ErrFenced = errors.New("fenced by a newer applier of the same control topic")

// TransactionalID is the transactional.id every applier of one control
// topic shares. Sharing it is the point: Kafka lets only the newest
// producer with an ID commit, so two applies of one control topic (two
// workspaces, two CI jobs) are serialized and the older is fenced.
func TransactionalID(controlTopic string) string {
	return "flinkagents-cleanup-" + controlTopic
}

// ControlTxnTimeout is the transaction timeout of a control-topic append:
// the longest a crashed applier can hold back the control partition's last
// stable offset. The broker checks for expired transactions every
// transaction.abort.timed.out.transaction.cleanup.interval.ms (10 s by
// default), so an abandoned transaction is aborted within this plus that.
const ControlTxnTimeout = 5 * time.Second

// ControlTxn is one transaction on a control topic. Its records become
// visible to read_committed readers (the runtime, ReadControlLog) only
// when Commit returns; an aborted or fenced transaction leaves nothing a
// reader sees. It is an interface so tests can watch what becomes durable.
type ControlTxn interface {
	// Append adds one record to partition 0 inside the transaction.
	Append(ctx context.Context, key, value []byte) error
	// Commit commits and waits until read_committed readers see the records.
	Commit(ctx context.Context) error
	// Abort ends the transaction without committing; safe after a failed
	// Append or Commit.
	Abort(ctx context.Context)
	// Again begins the next transaction on the same registration, after
	// Commit or Abort returned. It registers nothing new: the registration
	// that began the first transaction still fences every earlier applier,
	// and any applier that registered since has fenced this one, so the
	// next append or commit fails with ErrFenced. One apply records
	// COMMITTED and then APPLIED through one registration: a producer per
	// transaction cost a connection, its version and metadata requests, a
	// coordinator lookup and a producer ID each, for every operator of a
	// fleet. It fails, changing nothing, when the producer was given up
	// (an unanswered append, a failed commit): the caller begins anew.
	Again(ctx context.Context) error
	// Close releases the producer; the last call on every ControlTxn.
	// An open transaction is left to the coordinator, which aborts it
	// (ControlTxnTimeout).
	Close()
}

// errTxnGivenUp is Again's answer for a producer that was given up.
var errTxnGivenUp = errors.New("the control-topic producer was given up after a failed append or commit")

type controlTxn struct {
	c      *Client
	cl     *kgo.Client
	topic  string
	id     TopicID // the topic's ID when the transaction began
	last   int64   // offset of the last appended record, -1 when none
	closed bool    // cl was closed to give up on an unanswered append
}

// BeginControlTxn starts a transaction, first registering with the
// transaction coordinator: that registration fences any earlier applier of
// the same control topic (aborting its open transaction), so everything
// the caller reads after this call and validates against can only change
// through this transaction, until a newer applier fences this one.
func (c *Client) BeginControlTxn(ctx context.Context, topic string) (ControlTxn, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	if err := c.settle(ctx, topic); err != nil {
		return nil, err
	}
	described, err := c.refuseUnwritable(ctx, topic, controlPartition)
	if err != nil {
		return nil, err
	}
	opts := append(slices.Clone(c.opts),
		kgo.TransactionalID(TransactionalID(topic)),
		// The coordinator's clock starts at the first append, and an
		// append is followed at once by the commit: seconds are ample.
		// While a transaction is open the partition's last stable offset
		// stays behind it, so a Java-tool apply started then cannot see its
		// own COMMITTED on re-read (and reports APPLIED without deleting);
		// an applier killed mid-way holds that window open until this
		// timeout, not Kafka's 60 s default.
		kgo.TransactionTimeout(ControlTxnTimeout),
		// Like the Java tool's batches: uncompressed, so every reader of
		// the control topic decodes it without a compression codec.
		kgo.ProducerBatchCompression(kgo.NoCompression()),
		kgo.RequiredAcks(kgo.AllISRAcks()),
		kgo.ProduceRequestTimeout(c.cfg.Timeout),
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
		// A producer lives for one apply: the client metrics it would
		// push (KIP-714) are two more requests per operator of a fleet
		// and say nothing the provider's own client does not.
		kgo.DisableClientMetrics(),
	)
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, opErr(OpBeginControlTxn, topic, err)
	}
	if _, _, err := cl.ProducerID(ctx); err != nil {
		cl.Close()
		if errors.Is(err, kerr.CoordinatorNotAvailable) || errors.Is(err, context.DeadlineExceeded) {
			// The usual cause on small clusters: __transaction_state cannot
			// be created because its replication factor (default 3)
			// exceeds the brokers.
			err = fmt.Errorf("%w (the transaction coordinator did not become available: check that the brokers can host __transaction_state, "+
				"i.e. transaction.state.log.replication.factor and transaction.state.log.min.isr are at most the number of brokers, "+
				"and that the principal may WRITE and DESCRIBE transactional ID %q)", err, TransactionalID(topic))
		}
		return nil, opErr(OpBeginControlTxn, topic, fencedOr(err))
	}
	if err := cl.BeginTransaction(); err != nil {
		cl.Close()
		return nil, opErr(OpBeginControlTxn, topic, err)
	}
	return &controlTxn{c: c, cl: cl, topic: topic, id: described.ID, last: -1}, nil
}

func (t *controlTxn) Append(ctx context.Context, key, value []byte) error {
	if t.closed {
		return opErr(OpAppendControlRecord, t.topic, errors.New("the transaction was abandoned after an unanswered append"))
	}
	start := time.Now()
	caller := ctx
	ctx, cancel := context.WithTimeout(ctx, t.c.cfg.Timeout)
	defer cancel()
	rec := &kgo.Record{Topic: t.topic, Partition: controlPartition, Key: key, Value: value}
	var produceErr error
	done := make(chan struct{})
	t.cl.Produce(ctx, rec, func(_ *kgo.Record, err error) { produceErr = err; close(done) })
	select {
	case <-done:
		if produceErr != nil {
			return opErr(OpAppendControlRecord, t.topic, t.c.explainFailedWrite(caller, t.topic, controlPartition, fencedOr(produceErr)))
		}
	case <-ctx.Done():
		// franz-go never fails an idempotent batch that was sent and not
		// answered, whatever the context says (failing it could reorder
		// sequence numbers): with the broker gone, the append would wait
		// for it forever. Closing the client fails it. The transaction
		// stays open on the coordinator until ControlTxnTimeout aborts it,
		// so nothing this append wrote becomes visible.
		// A leader that keeps answering NOT_ENOUGH_REPLICAS ends here too:
		// franz-go retries it until the context ends.
		t.close()
		<-done
		return opErr(OpAppendControlRecord, t.topic, t.c.explainFailedWrite(caller, t.topic, controlPartition, fmt.Errorf(
			"no acknowledgement from the control partition's leader (%w); the transaction was abandoned and the coordinator aborts it within %s, so nothing was recorded",
			waitErr(ctx, start), ControlTxnTimeout)))
	}
	t.last = rec.Offset
	return nil
}

// Again: see ControlTxn.
func (t *controlTxn) Again(ctx context.Context) error {
	if t.closed {
		return opErr(OpBeginControlTxn, t.topic, errTxnGivenUp)
	}
	ctx, cancel := context.WithTimeout(ctx, t.c.cfg.Timeout)
	defer cancel()
	described, err := t.c.refuseUnwritable(ctx, t.topic, controlPartition)
	if err != nil {
		return err
	}
	if err := t.cl.BeginTransaction(); err != nil {
		return opErr(OpBeginControlTxn, t.topic, err)
	}
	t.id, t.last = described.ID, -1
	return nil
}

// Close: see ControlTxn.
func (t *controlTxn) Close() { t.close() }

// close releases the transactional client once; a failed Commit or Abort
// closes it too, as does an unanswered Append.
func (t *controlTxn) close() {
	if !t.closed {
		t.closed = true
		t.cl.Close()
	}
}

// Commit waits for the partition's last stable offset to pass the records
// because the coordinator writes commit markers after answering, and the
// protocol re-reads the control log right after committing.
//
// A control topic deleted and recreated under its name while the commit
// waits would leave it waiting for an offset the new topic may never reach
// (or reach with other records): the topic's ID is read whenever the wait
// stalls and once it ends, and a changed one fails the commit with
// ErrTopicReplaced naming both IDs. The records went to the topic the
// transaction began on.
func (t *controlTxn) Commit(ctx context.Context) error {
	if t.closed {
		return opErr(OpCommitControlTxn, t.topic, errors.New("the transaction was abandoned after an unanswered append"))
	}
	ctx, cancel := context.WithTimeout(ctx, t.c.cfg.Timeout)
	defer cancel()
	if err := t.cl.EndTransaction(ctx, kgo.TryCommit); err != nil {
		t.close()
		return opErr(OpCommitControlTxn, t.topic, fencedOr(err))
	}
	if t.last < 0 {
		return nil
	}
	for stalls := 0; ; {
		end, err := t.c.committedEnd(ctx, t.topic, controlPartition)
		if err != nil {
			if replaced := t.replaced(ctx); replaced != nil {
				return replaced
			}
			return err
		}
		if end > t.last {
			return t.replaced(ctx)
		}
		if replaced := t.replaced(ctx); replaced != nil {
			return replaced
		}
		if err := pause(ctx, &stalls); err != nil {
			return opErr(OpCommitControlTxn, t.topic,
				fmt.Errorf("committed, but readers still do not see offset %d (last stable offset %d)", t.last, end))
		}
	}
}

// replaced reports, as ErrTopicReplaced, a control topic that no longer has
// the ID the transaction began on; nil when it has, or when its ID cannot
// be read (the caller's own error then stands).
func (t *controlTxn) replaced(ctx context.Context) error {
	if t.id.IsZero() {
		return nil
	}
	now, err := t.c.DescribeTopic(ctx, t.topic)
	switch {
	case errors.Is(err, ErrTopicNotFound):
		return opErr(OpCommitControlTxn, t.topic, fmt.Errorf("%w: the control topic (ID %s) was deleted while the commit waited for readers to see offset %d",
			ErrTopicReplaced, t.id, t.last))
	case err != nil || now.ID == t.id:
		return nil
	}
	return opErr(OpCommitControlTxn, t.topic, fmt.Errorf("%w: the control topic had ID %s when the transaction began and has ID %s now; "+
		"it was deleted and recreated while the commit waited for readers to see offset %d", ErrTopicReplaced, t.id, now.ID, t.last))
}

func (t *controlTxn) Abort(ctx context.Context) {
	if t.closed {
		return // the coordinator aborts it on its own (ControlTxnTimeout)
	}
	ctx, cancel := context.WithTimeout(ctx, t.c.cfg.Timeout)
	defer cancel()
	if err := t.cl.EndTransaction(ctx, kgo.TryAbort); err != nil {
		t.close()
	}
}

func fencedOr(err error) error {
	if errors.Is(err, kerr.ProducerFenced) || errors.Is(err, kerr.InvalidProducerEpoch) {
		return errors.Join(ErrFenced, err)
	}
	return err
}
