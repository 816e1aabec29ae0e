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

// scanFetchBytes bounds what one partition contributes to one fetch of a
// scan: Kafka returns at least one whole batch whatever the bound (KIP-74).
const scanFetchBytes = 256 << 10

// scanPartitionsPerFetch bounds the partitions of one fetch, so that each
// can bring scanFetchBytes within the response's fetchMaxBytes.
const scanPartitionsPerFetch = fetchMaxBytes / scanFetchBytes

// scanMaxRounds bounds the fetches a scan spends, whatever the budget: a
// partition whose fetches bring markers or aborted records alone still
// advances, so this is a backstop against a broker that never moves.
const scanMaxRounds = 4096

// Record is one committed record of partition 0 of a topic.
type Record struct {
	Offset int64
	Key    []byte
	// Value is nil for a tombstone.
	Value []byte
}

// ScanBudget bounds how much of each partition a scan reads. A scan reads
// HeadBytes from the log start; if it has not reached the end by then, it
// jumps ahead to the last TailOffsets offsets and reads up to HeadBytes of
// those. What lies between is not read: the scan says so (Complete false).
type ScanBudget struct {
	HeadBytes   int64
	TailOffsets int64
}

// Scan is what a scan learned of one topic's partition 0.
type Scan struct {
	// Match is the first committed record the scan's match accepted.
	Match *Record
	// Records is how many committed records the scan read.
	Records int
	// Complete: every offset from the log start to the last stable offset
	// was read, or a match stopped the scan.
	Complete bool
}

// Empty reports a partition that holds no committed record at all.
func (s Scan) Empty() bool { return s.Complete && s.Match == nil && s.Records == 0 }

// ScanPartitionZero reads the committed records of partition 0 of each of
// topics, as a read_committed reader sees them, until match accepts one,
// the last stable offset is reached, or budget is spent: one ListOffsets
// round for the start and last stable offsets of them all, then rounds of
// one Fetch per partition leader for every partition still being read. It
// is how a listing, or an import, tells a control topic (a topic holding
// control records anywhere) from an action-state topic without a consumer
// per topic. A topic that could not be read is in failed, with why (a
// missing READ ACL, a partition without a leader).
func (c *Client) ScanPartitionZero(ctx context.Context, topics []Topic, match func(Record) bool, budget ScanBudget) (scans map[string]Scan, failed map[string]error, err error) {
	scans, failed = make(map[string]Scan, len(topics)), map[string]error{}
	if len(topics) == 0 {
		return scans, failed, nil
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	var names []string
	for _, t := range topics {
		if leader, ok := t.Leaders[controlPartition]; !ok || leader < 0 {
			failed[t.Name] = opErr(OpReadControlLog, t.Name, ErrNoLeader)
			continue
		}
		names = append(names, t.Name)
	}
	if len(names) == 0 {
		return scans, failed, nil
	}
	starts, err := c.listOffsetsOf(ctx, OpListStartOffsets, c.admin.ListStartOffsets, names, failed)
	if err != nil {
		return nil, nil, err
	}
	ends, err := c.listOffsetsOf(ctx, OpListCommittedEnd, c.admin.ListCommittedOffsets, names, failed)
	if err != nil {
		return nil, nil, err
	}
	pending := map[string]*scanRead{}
	for _, t := range topics {
		if failed[t.Name] != nil {
			continue
		}
		start, sok := starts[t.Name]
		end, eok := ends[t.Name]
		switch {
		case !sok || !eok:
			failed[t.Name] = opErr(OpListStartOffsets, t.Name, ErrNotAnswered)
		case start >= end:
			scans[t.Name] = Scan{Complete: true}
		default:
			pending[t.Name] = &scanRead{topic: t, offset: start, end: end, budget: budget, match: match}
		}
	}
	for round := 0; len(pending) > 0; round++ {
		if round == scanMaxRounds {
			for name, r := range pending {
				failed[name] = opErr(OpReadControlLog, name, fmt.Errorf("still at offset %d of %d after %d fetches", r.offset, r.end, round))
			}
			break
		}
		c.fetchScans(ctx, pending)
		for name, r := range pending {
			switch {
			case r.err != nil:
				failed[name] = opErr(OpReadControlLog, name, r.err)
			case r.done():
				scans[name] = r.scan
			default:
				continue
			}
			delete(pending, name)
		}
	}
	return scans, failed, nil
}

// scanRead is where ScanPartitionZero stands on one topic.
type scanRead struct {
	topic       Topic
	offset, end int64
	budget      ScanBudget
	match       func(Record) bool
	scan        Scan
	// read is what the current stretch (head, then tail) has fetched.
	read   int64
	jumped bool
	err    error
	// alone: the last fetch, shared with other partitions, brought this
	// one nothing (a batch above scanFetchBytes, or the response full):
	// the next goes alone, where Kafka returns a first batch of any size.
	alone bool
}

// done reports a read that has nothing more to do, filling in Complete.
func (r *scanRead) done() bool {
	switch {
	case r.scan.Match != nil:
		r.scan.Complete = true
		return true
	case r.offset >= r.end:
		r.scan.Complete = !r.jumped
		return true
	case r.read < r.budget.HeadBytes:
		return false
	case !r.jumped:
		// The head is spent: read the tail, where a log's newest records are.
		r.jumped, r.read = true, 0
		if tail := r.end - r.budget.TailOffsets; tail > r.offset {
			r.offset = tail
		} else {
			r.jumped = false // nothing skipped: the tail follows the head
		}
		return false
	default:
		return true // head and tail spent; Complete stays false
	}
}

// listOffsetsOf lists partition 0's offsets of names with list, one of
// kadm's List*Offsets, in one round; a topic whose partition 0 was refused
// goes to failed with the broker's error, one not answered is left out.
func (c *Client) listOffsetsOf(ctx context.Context, op string, list func(context.Context, ...string) (kadm.ListedOffsets, error), names []string, failed map[string]error) (map[string]int64, error) {
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
		switch {
		case lo.Err != nil && (lo.Partition == controlPartition || lo.Partition == -1): // -1: the topic's own error
			failed[lo.Topic] = opErr(op, lo.Topic, lo.Err)
		case lo.Partition != controlPartition:
		default:
			out[lo.Topic] = lo.Offset
		}
	})
	return out, nil
}

// ErrNotAnswered is why a topic the broker left out of its answer is not
// scanned (a topic created a moment before may not be known to it yet).
var ErrNotAnswered = errors.New("partition 0 was not answered")

// ErrNoLeader is why a partition without a leader is not scanned.
var ErrNoLeader = errors.New("partition 0 has no leader (its replicas are offline, or it is between leaders), so its records cannot be read")

// fetchScans sends Fetch requests to the leaders of the pending
// partitions, up to scanPartitionsPerFetch partitions each, and advances
// each read by what its answer held.
func (c *Client) fetchScans(ctx context.Context, pending map[string]*scanRead) {
	type fetch struct {
		leader int32
		reads  []*scanRead
	}
	var fetches []fetch
	byLeader := map[int32][]*scanRead{}
	for _, r := range pending {
		leader := r.topic.Leaders[controlPartition]
		switch {
		case r.alone:
			fetches = append(fetches, fetch{leader, []*scanRead{r}})
		default:
			byLeader[leader] = append(byLeader[leader], r)
		}
	}
	for leader, reads := range byLeader {
		for chunk := range slices.Chunk(reads, scanPartitionsPerFetch) {
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
			resp, err := c.fetchPartitionZero(ctx, leader, zero, scanFetchBytes)
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

// advance moves r past what its partition's fetch answer held, stopping at
// the first record r.match accepts.
func (r *scanRead) advance(resp *kmsg.FetchResponse) {
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
	r.read += int64(len(part.RecordBatches))
	for _, rec := range fp.Records {
		if rec.Offset >= r.end {
			break
		}
		r.scan.Records++
		if found := (Record{Offset: rec.Offset, Key: rec.Key, Value: rec.Value}); r.match(found) {
			r.scan.Match = &found
			return
		}
	}
	if next > r.offset {
		r.offset, r.alone = next, false
		return
	}
	r.alone = true
}
