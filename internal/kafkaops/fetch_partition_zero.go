package kafkaops

import (
	"context"
	"errors"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// zeroFetch is partition 0 of one topic, to be fetched from offset.
type zeroFetch struct {
	topic  Topic
	offset int64
}

// fetchPartitionZero sends leader one read_committed Fetch for partition 0
// of each topic of fetches, each partition's answer bounded by
// partitionMaxBytes, outside any fetch session (one-shot requests, read
// past kgo's consumer). Both readers of partition 0 use it: the control
// log, one topic at a time, and FirstRecords, many at once.
func (c *Client) fetchPartitionZero(ctx context.Context, leader int32, fetches []zeroFetch, partitionMaxBytes int32) (*kmsg.FetchResponse, error) {
	release, err := c.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	return c.sendFetchPartitionZero(ctx, leader, fetches, partitionMaxBytes)
}

// sendFetchPartitionZero is fetchPartitionZero for a caller that already
// holds an in-flight slot (a coalesced batch).
func (c *Client) sendFetchPartitionZero(ctx context.Context, leader int32, fetches []zeroFetch, partitionMaxBytes int32) (*kmsg.FetchResponse, error) {
	req := kmsg.NewPtrFetchRequest()
	req.ReplicaID = -1
	req.MaxWaitMillis = 0
	req.MinBytes = 1
	req.MaxBytes = fetchMaxBytes
	req.IsolationLevel = 1 // read_committed
	req.SessionEpoch = -1  // no fetch session: one-shot requests
	for _, f := range fetches {
		rt := kmsg.NewFetchRequestTopic()
		rt.Topic = f.topic.Name
		rt.TopicID = f.topic.ID
		rp := kmsg.NewFetchRequestTopicPartition()
		rp.Partition = controlPartition
		rp.FetchOffset = f.offset
		rp.CurrentLeaderEpoch = -1
		rp.LogStartOffset = -1
		rp.PartitionMaxBytes = partitionMaxBytes
		rt.Partitions = append(rt.Partitions, rp)
		req.Topics = append(req.Topics, rt)
	}
	resp, err := req.RequestWith(ctx, c.kgo.Broker(int(leader)))
	if err != nil {
		return nil, err
	}
	if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
		return nil, err
	}
	return resp, nil
}

// partitionZero is t's partition 0 in resp, matched by name or topic ID
// (a Fetch of version 13 or later answers by ID only).
func partitionZero(resp *kmsg.FetchResponse, t Topic) (*kmsg.FetchResponseTopicPartition, error) {
	for i := range resp.Topics {
		rt := &resp.Topics[i]
		if rt.Topic != t.Name && rt.TopicID != t.ID {
			continue
		}
		for j := range rt.Partitions {
			if rt.Partitions[j].Partition == controlPartition {
				return &rt.Partitions[j], nil
			}
		}
	}
	return nil, errors.New("the leader's fetch response did not include partition 0")
}
