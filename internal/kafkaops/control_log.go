package kafkaops

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// controlPartition is the only partition of a control topic.
const controlPartition int32 = 0

// fetchMaxBytes bounds one fetch response. A control record is well under
// 100 KiB even for thousands of partitions, so 8 MiB moves thousands of
// records per round trip without letting a hostile topic exhaust memory.
const fetchMaxBytes = 8 << 20

// ControlRecord is one record of the control partition.
type ControlRecord struct {
	Offset int64
	Key    []byte
	// Value is nil for a tombstone.
	Value []byte
}

// ControlRecordError is an error fn returned for one record, with where
// that record lives, so a diagnostic can tell the operator how to inspect
// it. Its text is fn's alone: callers already name the topic they read.
type ControlRecordError struct {
	Topic     string
	Partition int32
	Offset    int64
	Err       error
}

func (e *ControlRecordError) Error() string { return e.Err.Error() }

func (e *ControlRecordError) Unwrap() error { return e.Err }

// ReadControlLog streams partition 0 of topic from its log start offset up
// to its end as seen with read_committed isolation (the last stable offset
// at the time of the call), in order, calling fn for every record; an error
// from fn stops the read and comes back as a *ControlRecordError.
// Transaction markers and aborted records are skipped, as the runtime's
// read_committed consumer skips them. It returns the end offset it read to.
//
// It issues raw Fetch requests rather than running a consumer: a consumer
// cannot say where it stands after skipping control batches, and "read
// exactly to the end" is the whole point here.
func (c *Client) ReadControlLog(ctx context.Context, topic string, fn func(ControlRecord) error) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	t, err := c.DescribeTopic(ctx, topic)
	if err != nil {
		return 0, err
	}
	starts, err := c.StartOffsets(ctx, topic)
	if err != nil {
		return 0, err
	}
	start, ok := starts[controlPartition]
	if !ok {
		return 0, opErr(OpReadControlLog, topic, errors.New("partition 0 does not exist"))
	}
	end, err := c.committedEnd(ctx, topic, controlPartition)
	if err != nil {
		return 0, err
	}
	offset := start
	leader := t.Leaders[controlPartition]
	stalls := 0
	for offset < end {
		fetch := c.fetch
		if stalls > 0 {
			// No progress last time: ask alone, with the whole response
			// size for this partition, in case a shared answer had no room
			// for its next batch (control_log_batch.go).
			fetch = c.fetchAlone
		}
		resp, err := fetch(ctx, t, leader, offset)
		if err != nil {
			return 0, opErr(OpReadControlLog, topic, fmt.Errorf("fetch at offset %d: %w", offset, err))
		}
		fp, next := kgo.ProcessFetchPartition(kgo.ProcessFetchPartitionOpts{
			Offset:         offset,
			IsolationLevel: kgo.ReadCommitted(),
			Topic:          topic,
			Partition:      controlPartition,
		}, resp, kgo.DefaultDecompressor(), nil)
		if fp.Err != nil {
			if errors.Is(fp.Err, kerr.NotLeaderForPartition) || errors.Is(fp.Err, kerr.FencedLeaderEpoch) || errors.Is(fp.Err, kerr.UnknownLeaderEpoch) {
				if t, err = c.DescribeTopic(ctx, topic); err != nil {
					return 0, err
				}
				leader = t.Leaders[controlPartition]
				if err := pause(ctx, &stalls); err != nil {
					return 0, opErr(OpReadControlLog, topic, fmt.Errorf("partition 0 leader keeps moving: %w", fp.Err))
				}
				continue
			}
			return 0, opErr(OpReadControlLog, topic, fmt.Errorf("fetch at offset %d: %w", offset, fp.Err))
		}
		for _, r := range fp.Records {
			if r.Offset >= end {
				break
			}
			if err := fn(ControlRecord{Offset: r.Offset, Key: r.Key, Value: r.Value}); err != nil {
				return 0, &ControlRecordError{Topic: topic, Partition: controlPartition, Offset: r.Offset, Err: err}
			}
		}
		if next <= offset {
			// An empty answer below the end offset: the leader has not
			// caught up with what it reported, or a follower became leader.
			if err := pause(ctx, &stalls); err != nil {
				return 0, opErr(OpReadControlLog, topic, fmt.Errorf("no progress at offset %d of %d", offset, end))
			}
			continue
		}
		stalls = 0
		offset = next
	}
	return end, nil
}

// pause backs off briefly; after too many consecutive stalls, or when ctx
// ends, it gives up.
func pause(ctx context.Context, stalls *int) error {
	*stalls++
	if *stalls > 50 {
		return errors.New("gave up")
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Duration(*stalls) * 20 * time.Millisecond):
		return nil
	}
}

func (c *Client) fetch(ctx context.Context, t Topic, leader int32, offset int64) (*kmsg.FetchResponseTopicPartition, error) {
	if _, twin := c.controlFetches.LoadOrStore(t.Name, zeroFetchAt{zeroFetch{t, offset}, leader}); twin {
		// Another read of the same control topic is waiting: a batch
		// holds one entry per topic. (With coalescing off the coalescer
		// sends every call alone itself.)
		return c.fetchAlone(ctx, t, leader, offset)
	}
	defer c.controlFetches.Delete(t.Name)
	return c.controlReads.do(ctx, t.Name)
}

// fetchAlone sends one Fetch for partition 0 of t alone.
func (c *Client) fetchAlone(ctx context.Context, t Topic, leader int32, offset int64) (*kmsg.FetchResponseTopicPartition, error) {
	resp, err := c.fetchPartitionZero(ctx, leader, []zeroFetch{{t, offset}}, fetchMaxBytes)
	if err != nil {
		return nil, err
	}
	return partitionZero(resp, t)
}
