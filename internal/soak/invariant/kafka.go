package invariant

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// kafkaView is what the checker reads from Kafka, on a client of its own.
type kafkaView struct {
	cl  *kgo.Client
	adm *kadm.Client
}

// partitionView is one partition's log start and end (high watermark).
type partitionView struct {
	Start, End int64
}

// topicView is one topic as the checker sees it: its ID and, per
// partition, the leader and offsets.
type topicView struct {
	ID         [16]byte
	Leaders    map[int32]int32
	Partitions map[int32]partitionView
}

// topic describes name; a missing topic is an error.
func (k kafkaView) topic(ctx context.Context, name string) (topicView, error) {
	var v topicView
	details, err := k.adm.ListTopics(ctx, name)
	if err != nil {
		return v, fmt.Errorf("describing %s: %w", name, err)
	}
	d, ok := details[name]
	if !ok || d.Err != nil {
		return v, fmt.Errorf("describing %s: %v", name, d.Err)
	}
	v.ID, v.Leaders, v.Partitions = d.ID, map[int32]int32{}, map[int32]partitionView{}
	for p, pd := range d.Partitions {
		v.Leaders[p] = pd.Leader
	}
	starts, err := k.adm.ListStartOffsets(ctx, name)
	if err == nil {
		err = starts.Error()
	}
	if err != nil {
		return v, fmt.Errorf("log start offsets of %s: %w", name, err)
	}
	ends, err := k.adm.ListEndOffsets(ctx, name)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		return v, fmt.Errorf("end offsets of %s: %w", name, err)
	}
	for p := range v.Leaders {
		s, _ := starts.Lookup(name, p)
		e, _ := ends.Lookup(name, p)
		v.Partitions[p] = partitionView{Start: s.Offset, End: e.Offset}
	}
	return v, nil
}

// readRaw returns every record of one partition from offset from up to
// end, as stored: aborted and transaction-marker records included
// (read_uncommitted, control records kept), so that the caller resolves
// transactions itself. A leader that moves meanwhile is looked up again.
func (k kafkaView) readRaw(ctx context.Context, topic string, partition int32, from, end int64) ([]RawRecord, error) {
	var out []RawRecord
	stalls := 0
	v, err := k.topic(ctx, topic)
	if err != nil {
		return nil, err
	}
	for off := from; off < end; {
		fp, next, err := k.fetch(ctx, topic, v.ID, partition, v.Leaders[partition], off)
		if err == nil && fp.Err != nil {
			err = fp.Err
		}
		if err != nil || next <= off {
			if stalls++; stalls > 20 {
				return nil, fmt.Errorf("reading %s partition %d at offset %d of %d: %v", topic, partition, off, end, err)
			}
			if errors.Is(err, kerr.NotLeaderForPartition) || errors.Is(err, kerr.FencedLeaderEpoch) || errors.Is(err, kerr.UnknownLeaderEpoch) {
				if v, err = k.topic(ctx, topic); err != nil {
					return nil, err
				}
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(250 * time.Millisecond):
			}
			continue
		}
		stalls = 0
		for _, r := range fp.Records {
			if r.Offset >= end {
				break
			}
			out = append(out, RawRecord{Offset: r.Offset, Key: r.Key, Value: r.Value, ProducerID: r.ProducerID,
				Transactional: r.Attrs.IsTransactional(), Control: r.Attrs.IsControl()})
		}
		off = next
	}
	return out, nil
}

func (k kafkaView) fetch(ctx context.Context, topic string, id [16]byte, partition, leader int32, off int64) (kgo.FetchPartition, int64, error) {
	req := kmsg.NewPtrFetchRequest()
	req.ReplicaID = -1
	req.MaxWaitMillis = 200
	req.MaxBytes = 16 << 20
	req.IsolationLevel = 0 // read_uncommitted: ReplayHistory resolves transactions
	rt := kmsg.NewFetchRequestTopic()
	rt.Topic, rt.TopicID = topic, id
	rp := kmsg.NewFetchRequestTopicPartition()
	rp.Partition, rp.FetchOffset, rp.PartitionMaxBytes = partition, off, 16<<20
	rp.CurrentLeaderEpoch, rp.LogStartOffset = -1, -1
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, k.cl.Broker(int(leader)))
	if err != nil {
		return kgo.FetchPartition{}, off, err
	}
	if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
		return kgo.FetchPartition{}, off, err
	}
	if len(resp.Topics) != 1 || len(resp.Topics[0].Partitions) != 1 {
		return kgo.FetchPartition{}, off, fmt.Errorf("fetch of %s partition %d answered %d topics", topic, partition, len(resp.Topics))
	}
	fp, next := kgo.ProcessFetchPartition(kgo.ProcessFetchPartitionOpts{
		KeepControlRecords: true, Offset: off, IsolationLevel: kgo.ReadUncommitted(), Topic: topic, Partition: partition,
	}, &resp.Topics[0].Partitions[0], kgo.DefaultDecompressor(), nil)
	return fp, next, nil
}
