// Package javatool writes to a control topic the way the Flink Agents Java
// KafkaActionStateCleanupTool does: one record at a time, idempotent, not
// transactional, uncompressed, acks=all. Tests use it to arrange what the
// Java tool (or a hand-run producer) leaves behind; the provider itself
// appends only inside transactions (kafkaops.BeginControlTxn).
package javatool

import (
	"context"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Appender is one producer configured like the Java tool's.
type Appender struct {
	cl *kgo.Client
}

// New connects lazily with opts (seed brokers, TLS, SASL).
func New(opts ...kgo.Opt) (*Appender, error) {
	cl, err := kgo.NewClient(append(opts,
		kgo.RequiredAcks(kgo.AllISRAcks()),
		kgo.ProducerBatchCompression(kgo.NoCompression()),
		kgo.RecordPartitioner(kgo.ManualPartitioner()),
	)...)
	if err != nil {
		return nil, err
	}
	return &Appender{cl: cl}, nil
}

// Append writes one record (a nil value is a tombstone) to partition 0 of
// topic and returns its offset once every in-sync replica has it.
func (a *Appender) Append(ctx context.Context, topic string, key, value []byte) (int64, error) {
	rec := &kgo.Record{Topic: topic, Partition: 0, Key: key, Value: value}
	if err := a.cl.ProduceSync(ctx, rec).FirstErr(); err != nil {
		return 0, err
	}
	return rec.Offset, nil
}

// Close releases the connections.
func (a *Appender) Close() { a.cl.Close() }

// Append is New, Append and Close for a single record.
func Append(ctx context.Context, opts []kgo.Opt, topic string, key, value []byte) (int64, error) {
	a, err := New(opts...)
	if err != nil {
		return 0, err
	}
	defer a.Close()
	return a.Append(ctx, topic, key, value)
}
