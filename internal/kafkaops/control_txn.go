package kafkaops

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
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
	// (an unanswered or refused append, a failed commit, an abort): the
	// caller begins anew.
	Again(ctx context.Context) error
	// Close releases the producer; the last call on every ControlTxn.
	// An open transaction is left to the coordinator, which aborts it
	// (ControlTxnTimeout).
	Close()
}

// errTxnGivenUp is Again's answer for a producer that was given up.
var errTxnGivenUp = errors.New("the control-topic producer was given up after an unanswered or refused append, a failed commit, or an abort")

// controlTxn is a transactional producer spoken in raw requests over the
// provider's shared transaction client (txnClient), not a kgo producer of
// its own: a kgo client per control topic cost every operator of a fleet
// three connections (each a TLS handshake and a SASL exchange on a secured
// cluster) and five more requests than the transaction needs
// (BENCHMARKS.md, "Fleet cleanup"). The fencing is Kafka's and unchanged:
// the producer registers its control topic's transactional ID
// (InitProducerId), which bumps the ID's epoch and so fences every earlier
// registration, and every later request carries the epoch it got.
//
// It speaks either of Kafka's transaction protocols, as the cluster
// offers (txn_client.go): the classic one, which every release from 3.6
// on accepts (the partition added with AddPartitionsToTxn before its first
// record, the epoch kept across transactions), or KIP-890's (Kafka 4.0 on,
// transaction.version 2: the partition added by its leader when the first
// record arrives, and every commit or abort giving the producer a new
// epoch). A transaction holds the records of one partition, 0 of its
// control topic.
type controlTxn struct {
	c      *Client
	cl     *kgo.Client // the shared transaction client
	v2     bool        // KIP-890's transactions (txn_client.go)
	topic  string
	txnID  string
	pid    int64
	epoch  int16
	seq    int32   // the next record's sequence number on the partition
	leader int32   // the partition's leader as last described
	id     TopicID // the topic's ID when the transaction began
	added  bool    // a transaction is open: records were (or may have been) sent
	last   int64   // offset of the last appended record, -1 when none
	failed bool    // an append was refused: only Abort may follow
	closed bool    // given up: an unanswered append, a failed commit, an abort
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
	cl, v2, err := c.txnClient(ctx)
	if err != nil {
		return nil, opErr(OpBeginControlTxn, topic, err)
	}
	t := &controlTxn{c: c, cl: cl, v2: v2, topic: topic, txnID: TransactionalID(topic), id: described.ID, last: -1, leader: leaderOf(described)}
	if err := t.register(ctx); err != nil {
		if errors.Is(err, kerr.CoordinatorNotAvailable) || errors.Is(err, context.DeadlineExceeded) {
			// The usual cause on small clusters: __transaction_state cannot
			// be created because its replication factor (default 3)
			// exceeds the brokers.
			err = fmt.Errorf("%w (the transaction coordinator did not become available: check that the brokers can host __transaction_state, "+
				"i.e. transaction.state.log.replication.factor and transaction.state.log.min.isr are at most the number of brokers, "+
				"and that the principal may WRITE and DESCRIBE transactional ID %q)", err, t.txnID)
		}
		return nil, opErr(OpBeginControlTxn, topic, fencedOr(err))
	}
	return t, nil
}

// leaderOf is the control partition's leader in t, -1 when it has none.
func leaderOf(t Topic) int32 {
	if l, ok := t.Leaders[controlPartition]; ok {
		return l
	}
	return -1
}

// register asks the coordinator for the transactional ID's producer ID and
// a new epoch. CONCURRENT_TRANSACTIONS means the coordinator is still
// ending a transaction of the ID (an earlier applier's, being aborted by
// this very registration): asked again until it is done.
func (t *controlTxn) register(ctx context.Context) error {
	req := kmsg.NewPtrInitProducerIDRequest()
	req.TransactionalID = &t.txnID
	req.TransactionTimeoutMillis = int32(ControlTxnTimeout / time.Millisecond)
	req.ProducerID, req.ProducerEpoch = -1, -1
	return t.untilSettled(ctx, func() error {
		resp, err := t.cl.Request(ctx, req)
		if err != nil {
			return err
		}
		r := resp.(*kmsg.InitProducerIDResponse)
		if err := kerr.ErrorForCode(r.ErrorCode); err != nil {
			return err
		}
		t.pid, t.epoch, t.seq = r.ProducerID, r.ProducerEpoch, 0
		return nil
	})
}

// untilSettled runs do again, after a growing pause, while it fails with
// an error Kafka means to be retried (the coordinator busy ending a
// transaction, loading or moving; its broker unreachable while another
// takes over), until ctx ends.
func (t *controlTxn) untilSettled(ctx context.Context, do func() error) error {
	for wait := 10 * time.Millisecond; ; wait = min(2*wait, 500*time.Millisecond) {
		err := do()
		if err == nil || !retriableTxnErr(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last answer: %v)", ctx.Err(), err)
		case <-time.After(wait):
		}
	}
}

func retriableTxnErr(err error) bool {
	return errors.Is(err, kerr.ConcurrentTransactions) || errors.Is(err, kerr.CoordinatorLoadInProgress) ||
		errors.Is(err, kerr.CoordinatorNotAvailable) || errors.Is(err, kerr.NotCoordinator) || isConnectionErr(err)
}

func (t *controlTxn) Append(ctx context.Context, key, value []byte) error {
	if t.closed || t.failed {
		return opErr(OpAppendControlRecord, t.topic, errTxnGivenUp)
	}
	start := time.Now()
	caller := ctx
	ctx, cancel := context.WithTimeout(ctx, t.c.cfg.Timeout)
	defer cancel()
	if !t.added && !t.v2 {
		if err := t.addPartition(ctx); err != nil {
			t.failed = true
			return opErr(OpAppendControlRecord, t.topic, t.c.explainFailedWrite(caller, t.topic, controlPartition, fencedOr(err)))
		}
	}
	t.added = true // an open transaction: Commit or Abort ends it
	offset, err := t.produce(ctx, key, value)
	switch {
	case err == nil:
		t.last = offset
		t.seq++
		return nil
	case ctx.Err() != nil:
		// Unanswered, or answered with errors to retry until the time
		// ran out (a leader answering NOT_ENOUGH_REPLICAS ends here):
		// given up. The transaction stays open on the coordinator until
		// ControlTxnTimeout aborts it, so nothing this append may have
		// written becomes visible.
		t.closed = true
		waited := waitErr(ctx, start)
		if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
			waited = fmt.Errorf("%w; its last answer: %v", waited, err)
		}
		return opErr(OpAppendControlRecord, t.topic, t.c.explainFailedWrite(caller, t.topic, controlPartition, fmt.Errorf(
			"no acknowledgement from the control partition's leader (%w); the transaction was abandoned and the coordinator aborts it within %s, so nothing was recorded",
			waited, ControlTxnTimeout)))
	default:
		// Refused (fenced, or a record the leader would not take): the
		// caller aborts the transaction, which ends it at once instead of
		// at ControlTxnTimeout.
		t.failed = true
		return opErr(OpAppendControlRecord, t.topic, t.c.explainFailedWrite(caller, t.topic, controlPartition, fencedOr(err)))
	}
}

// addPartition adds the control partition to the open transaction, as the
// coordinator must know it before the partition takes the transaction's
// records (and before it writes the commit's marker there).
func (t *controlTxn) addPartition(ctx context.Context) error {
	req := kmsg.NewPtrAddPartitionsToTxnRequest()
	req.TransactionalID, req.ProducerID, req.ProducerEpoch = t.txnID, t.pid, t.epoch
	rt := kmsg.NewAddPartitionsToTxnRequestTopic()
	rt.Topic, rt.Partitions = t.topic, []int32{controlPartition}
	req.Topics = append(req.Topics, rt)
	return t.untilSettled(ctx, func() error {
		resp, err := t.cl.Request(ctx, req)
		if err != nil {
			return err
		}
		r := resp.(*kmsg.AddPartitionsToTxnResponse)
		if err := kerr.ErrorForCode(r.ErrorCode); err != nil {
			return err
		}
		// kgo answers in the client's form (Topics) whatever version the
		// broker spoke; its Transactions carry the same codes.
		for _, rt := range r.Topics {
			for _, rp := range rt.Partitions {
				if err := kerr.ErrorForCode(rp.ErrorCode); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// produce writes one record to the control partition's leader and returns
// its offset. An answer Kafka means to be retried (the leader moved, too
// few in-sync replicas for now) sends the same batch again, with the same
// sequence number, to the partition's leader as described anew: the
// idempotent producer's sequence makes a batch the broker already took
// count once. It returns when ctx ends with the last error seen.
func (t *controlTxn) produce(ctx context.Context, key, value []byte) (int64, error) {
	req := kmsg.NewPtrProduceRequest()
	req.TransactionID = &t.txnID
	req.Acks = -1
	req.TimeoutMillis = int32(t.c.cfg.Timeout / time.Millisecond)
	rt := kmsg.NewProduceRequestTopic()
	rt.Topic = t.topic
	rp := kmsg.NewProduceRequestTopicPartition()
	rp.Partition = controlPartition
	rp.Records = transactionalBatch(t.pid, t.epoch, t.seq, time.Now(), key, value)
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	last := errors.New("the control partition has no leader")
	for wait := 10 * time.Millisecond; ; wait = min(2*wait, 500*time.Millisecond) {
		if t.leader >= 0 {
			offset, err := t.produceTo(ctx, req)
			if err == nil || !kerr.IsRetriable(err) && !isConnectionErr(err) {
				return offset, err
			}
			last = err
		}
		select {
		case <-ctx.Done():
			return -1, last
		case <-time.After(wait):
		}
		now, err := t.c.DescribeTopic(ctx, t.topic)
		switch {
		case errors.Is(err, ErrTopicNotFound):
			return -1, fmt.Errorf("%w: the control topic was deleted while its record was being appended (its leader answered %v)", ErrTopicReplaced, last)
		case err == nil && !t.id.IsZero() && now.ID != t.id:
			return -1, fmt.Errorf("%w: the control topic had ID %s when the transaction began and has ID %s now", ErrTopicReplaced, t.id, now.ID)
		case err == nil:
			t.leader = leaderOf(now)
		}
	}
}

// produceTo sends req to the partition's leader as last described.
func (t *controlTxn) produceTo(ctx context.Context, req *kmsg.ProduceRequest) (int64, error) {
	resp, err := t.cl.Broker(int(t.leader)).Request(ctx, req)
	if err != nil {
		return -1, err
	}
	for _, rt := range resp.(*kmsg.ProduceResponse).Topics {
		for _, rp := range rt.Partitions {
			if rp.Partition != controlPartition {
				continue
			}
			if err := kerr.ErrorForCode(rp.ErrorCode); err != nil {
				return -1, err
			}
			return rp.BaseOffset, nil
		}
	}
	return -1, errors.New("the leader's answer did not include the control partition")
}

// isConnectionErr: the request may not have reached the broker, or its
// answer was lost; sending the same batch again is safe (its sequence).
func isConnectionErr(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EPIPE)
}

// transactionalBatch is one record as a transactional, uncompressed
// record batch (magic 2), like the Java tool's: every reader of the
// control topic decodes it without a compression codec.
func transactionalBatch(pid int64, epoch int16, seq int32, at time.Time, key, value []byte) []byte {
	rec := appendRecord(nil, key, value)
	b := kmsg.RecordBatch{
		PartitionLeaderEpoch: -1,
		Magic:                2,
		Attributes:           0x10, // transactional, CreateTime, no compression
		FirstTimestamp:       at.UnixMilli(),
		MaxTimestamp:         at.UnixMilli(),
		ProducerID:           pid,
		ProducerEpoch:        epoch,
		FirstSequence:        seq,
		NumRecords:           1,
		Records:              rec,
	}
	raw := b.AppendTo(nil)
	// Length counts what follows it; the CRC-32C covers the attributes on.
	binary.BigEndian.PutUint32(raw[8:12], uint32(len(raw)-12))
	binary.BigEndian.PutUint32(raw[17:21], crc32.Checksum(raw[21:], crc32.MakeTable(crc32.Castagnoli)))
	return raw
}

// appendRecord appends one record of a v2 batch: its length, attributes,
// timestamp and offset deltas (0: the batch's only record), key, value
// and no headers. A nil key is written as null (-1).
func appendRecord(dst, key, value []byte) []byte {
	var body []byte
	body = append(body, 0)              // attributes
	body = binary.AppendVarint(body, 0) // timestamp delta
	body = binary.AppendVarint(body, 0) // offset delta
	body = appendVarbytes(body, key)    // key
	body = appendVarbytes(body, value)  // value
	body = binary.AppendVarint(body, 0) // headers
	dst = binary.AppendVarint(dst, int64(len(body)))
	return append(dst, body...)
}

func appendVarbytes(dst, b []byte) []byte {
	if b == nil {
		return binary.AppendVarint(dst, -1)
	}
	dst = binary.AppendVarint(dst, int64(len(b)))
	return append(dst, b...)
}

// Again: see ControlTxn.
func (t *controlTxn) Again(ctx context.Context) error {
	if t.closed || t.failed {
		return opErr(OpBeginControlTxn, t.topic, errTxnGivenUp)
	}
	ctx, cancel := context.WithTimeout(ctx, t.c.cfg.Timeout)
	defer cancel()
	described, err := t.c.refuseUnwritable(ctx, t.topic, controlPartition)
	if err != nil {
		return err
	}
	t.id, t.last, t.added, t.leader = described.ID, -1, false, leaderOf(described)
	return nil
}

// Close: see ControlTxn. The connections are the shared client's; an open
// transaction is left to the coordinator (ControlTxnTimeout).
func (t *controlTxn) Close() { t.closed = true }

// endTxn ends the open transaction, committing or aborting it.
func (t *controlTxn) endTxn(ctx context.Context, commit bool) error {
	req := kmsg.NewPtrEndTxnRequest()
	req.TransactionalID, req.ProducerID, req.ProducerEpoch, req.Commit = t.txnID, t.pid, t.epoch, commit
	return t.untilSettled(ctx, func() error {
		resp, err := t.cl.Request(ctx, req)
		if err != nil {
			return err
		}
		r := resp.(*kmsg.EndTxnResponse)
		if err := kerr.ErrorForCode(r.ErrorCode); err != nil {
			if commit && errors.Is(err, kerr.InvalidTxnState) {
				// The coordinator no longer holds this transaction open:
				// a newer applier's registration (or the transaction
				// timeout) aborted it. Under KIP-890 the stale epoch is
				// then one behind, which the coordinator takes for a retry
				// of a finished abort and answers so, not PRODUCER_FENCED.
				// Nothing was committed either way.
				return errors.Join(ErrFenced, err)
			}
			return err
		}
		if t.v2 && commit && r.ProducerEpoch >= 0 {
			// KIP-890: the next transaction goes under a new epoch (and,
			// when the epoch ran out, a new producer ID), whose records
			// count their sequence from 0.
			t.pid, t.epoch, t.seq = r.ProducerID, r.ProducerEpoch, 0
		}
		return nil
	})
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
	if t.closed || t.failed {
		return opErr(OpCommitControlTxn, t.topic, errTxnGivenUp)
	}
	ctx, cancel := context.WithTimeout(ctx, t.c.cfg.Timeout)
	defer cancel()
	if !t.added {
		return nil // nothing was appended: nothing to commit
	}
	if err := t.endTxn(ctx, true); err != nil {
		t.closed = true
		return opErr(OpCommitControlTxn, t.topic, fencedOr(err))
	}
	t.added = false
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

// Abort ends the open transaction without committing it, and gives the
// registration up whatever the answer: the next transaction registers
// anew (ControlTxn.Again fails). An abort is rare (a history that changed
// under the apply, a refused append), and a registration that aborted may
// have been fenced already: under KIP-890 a stale epoch's abort is taken
// by Apache Kafka for a retry of the abort that fenced it only when that
// was its own, but an emulator answering it with the newer applier's
// epoch would hand this one the other's transaction. Registering anew
// fences everything and starts clean.
func (t *controlTxn) Abort(ctx context.Context) {
	if t.closed || !t.added {
		return // nothing sent, or given up: the coordinator aborts it (ControlTxnTimeout)
	}
	ctx, cancel := context.WithTimeout(ctx, t.c.cfg.Timeout)
	defer cancel()
	_ = t.endTxn(ctx, false)
	t.closed = true
}

// fencedOr says ErrFenced for the answers a registration replaced by a
// newer one gets: its epoch is stale, or its producer ID was given to the
// transactional ID anew.
func fencedOr(err error) error {
	if errors.Is(err, kerr.ProducerFenced) || errors.Is(err, kerr.InvalidProducerEpoch) || errors.Is(err, kerr.InvalidProducerIDMapping) {
		return errors.Join(ErrFenced, err)
	}
	return err
}
