package kafkaops

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// firstRecordBytes bounds what one partition contributes to a fetch of
// first records: Kafka returns at least one whole batch whatever the bound
// (KIP-74), and one record is all FirstRecords needs.
const firstRecordBytes = 64 << 10

// firstRecordsPerFetch bounds the partitions of one fetch, so that each
// can bring firstRecordBytes within the response's fetchMaxBytes.
const firstRecordsPerFetch = fetchMaxBytes / firstRecordBytes

// firstRecordRounds bounds how many fetches FirstRecords spends on one
// partition that holds only aborted records or transaction markers before
// its first committed record.
const firstRecordRounds = 20

// FirstRecord is the first record a read_committed reader finds in
// partition 0 of a topic, at or after its log start offset.
type FirstRecord struct {
	// Found is false when the partition holds no committed record.
	Found  bool
	Offset int64
	Key    []byte
	// Value is nil for a tombstone.
	Value []byte
}

// FirstRecords reads the first committed record of partition 0 of each of
// topics, as ReadControlLog would see it first: one ListOffsets round for
// the start and last stable offsets of them all, then one Fetch per
// partition leader for all its partitions together, again only for
// partitions whose first fetch held markers or aborted records alone. It
// is how a listing tells control topics apart without reading each whole
// log. A topic that could not be read is in failed, with why.
func (c *Client) FirstRecords(ctx context.Context, topics []Topic) (first map[string]FirstRecord, failed map[string]error, err error) {
	first, failed = make(map[string]FirstRecord, len(topics)), map[string]error{}
	if len(topics) == 0 {
		return first, failed, nil
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	names := make([]string, len(topics))
	for i, t := range topics {
		names[i] = t.Name
	}
	starts, err := c.listOffsetsOf(ctx, OpListStartOffsets, c.admin.ListStartOffsets, names)
	if err != nil {
		return nil, nil, err
	}
	ends, err := c.listOffsetsOf(ctx, OpListCommittedEnd, c.admin.ListCommittedOffsets, names)
	if err != nil {
		return nil, nil, err
	}
	pending := map[string]*firstRead{}
	for _, t := range topics {
		start, sok := starts[t.Name]
		end, eok := ends[t.Name]
		switch {
		case !sok || !eok:
			failed[t.Name] = opErr(OpListStartOffsets, t.Name, errors.New("partition 0 was not answered"))
		case start >= end:
			first[t.Name] = FirstRecord{}
		default:
			pending[t.Name] = &firstRead{topic: t, offset: start, end: end}
		}
	}
	for round := 0; len(pending) > 0; round++ {
		if round == firstRecordRounds {
			for name, r := range pending {
				failed[name] = opErr(OpReadControlLog, name, fmt.Errorf("no committed record found between offsets %d and %d after %d fetches", r.offset, r.end, round))
			}
			break
		}
		c.fetchFirst(ctx, pending)
		for name, r := range pending {
			switch {
			case r.err != nil:
				failed[name] = opErr(OpReadControlLog, name, r.err)
			case r.found != nil:
				first[name] = *r.found
			case r.offset >= r.end:
				first[name] = FirstRecord{}
			default:
				continue
			}
			delete(pending, name)
		}
	}
	return first, failed, nil
}

// firstRead is where FirstRecords stands on one topic.
type firstRead struct {
	topic       Topic
	offset, end int64
	found       *FirstRecord
	err         error
	// alone: the last fetch, shared with other partitions, brought this
	// one nothing (a batch above firstRecordBytes, or the response full):
	// the next goes alone, where Kafka returns a first batch of any size.
	alone bool
}

// listOffsetsOf lists partition 0's offsets of names with list, one of
// kadm's List*Offsets, in one round; a topic without an answer is left out.
func (c *Client) listOffsetsOf(ctx context.Context, op string, list func(context.Context, ...string) (kadm.ListedOffsets, error), names []string) (map[string]int64, error) {
	release, err := c.acquire(ctx)
	if err != nil {
		return nil, opErr(op, names[0], err)
	}
	defer release()
	listed, err := list(ctx, names...)
	if err != nil && !mayConcernSomeTopics(err) {
		return nil, opErr(op, names[0], err)
	}
	out := make(map[string]int64, len(names))
	listed.Each(func(lo kadm.ListedOffset) {
		if lo.Partition == controlPartition && lo.Err == nil {
			out[lo.Topic] = lo.Offset
		}
	})
	return out, nil
}

// fetchFirst sends Fetch requests to the leaders of the pending
// partitions, up to firstRecordsPerFetch partitions each, and advances each
// read by what its answer held.
func (c *Client) fetchFirst(ctx context.Context, pending map[string]*firstRead) {
	type fetch struct {
		leader int32
		reads  []*firstRead
	}
	var fetches []fetch
	byLeader := map[int32][]*firstRead{}
	for _, r := range pending {
		leader := r.topic.Leaders[controlPartition]
		if r.alone {
			fetches = append(fetches, fetch{leader, []*firstRead{r}})
			continue
		}
		byLeader[leader] = append(byLeader[leader], r)
	}
	for leader, reads := range byLeader {
		for chunk := range slices.Chunk(reads, firstRecordsPerFetch) {
			fetches = append(fetches, fetch{leader, chunk})
		}
	}
	var wg sync.WaitGroup
	for _, f := range fetches {
		leader, reads := f.leader, f.reads
		wg.Go(func() {
			zero := make([]zeroFetch, len(reads))
			for i, r := range reads {
				zero[i] = zeroFetch{r.topic, r.offset}
			}
			resp, err := c.fetchPartitionZero(ctx, leader, zero, firstRecordBytes)
			for _, r := range reads {
				if err != nil {
					r.err = err
					continue
				}
				r.advance(resp)
			}
		})
	}
	wg.Wait()
}

// advance moves r past what its partition's fetch answer held.
func (r *firstRead) advance(resp *kmsg.FetchResponse) {
	part, err := partitionZero(resp, r.topic)
	if err != nil {
		r.err = err
		return
	}
	fp, next := kgo.ProcessFetchPartition(kgo.ProcessFetchPartitionOpts{
		Offset: r.offset, IsolationLevel: kgo.ReadCommitted(), Topic: r.topic.Name, Partition: controlPartition,
	}, part, kgo.DefaultDecompressor(), nil)
	if fp.Err != nil {
		r.err = fmt.Errorf("fetch at offset %d: %w", r.offset, fp.Err)
		return
	}
	for _, rec := range fp.Records {
		if rec.Offset < r.end {
			r.found = &FirstRecord{Found: true, Offset: rec.Offset, Key: rec.Key, Value: rec.Value}
			return
		}
	}
	if next > r.offset {
		r.offset, r.alone = next, false
		return
	}
	r.alone = true
}
