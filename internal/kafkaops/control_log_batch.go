package kafkaops

import (
	"context"
	"errors"
	"sync"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// Control logs read side by side (a fleet's boundaries refreshed, planned
// or applied at once) share their Fetch requests: with Config.Coalesce,
// the fetches of ReadControlLog that arrive together go as one request per
// leader (the coalescer, coalesce.go), each reader getting its own
// partition's answer. A plan of a thousand boundaries then reads their
// control topics in a few requests per broker instead of a thousand.

// zeroFetchAt is one waiting reader's fetch and the leader it goes to.
type zeroFetchAt struct {
	zeroFetch
	leader int32
}

// batchPartitionMaxBytes is the least each partition of a batched fetch
// may return: the request's whole answer is bounded by fetchMaxBytes, and
// a partition the broker had no room left for answers empty.
const batchPartitionMaxBytes = 64 << 10

// fetchControlBatch is the coalescer's batchRequest: one Fetch per leader
// for the control topics whose readers still wait. A partition answered
// empty below its last stable offset got no room in the shared answer
// (the response's size bound, not the log, stopped it) and is fetched
// again on its own, so a reader in a batch progresses exactly as one
// alone. A leader's failed request is the answer of its topics only.
func (c *Client) fetchControlBatch(ctx context.Context, topics []string) (func(string) (*kmsg.FetchResponseTopicPartition, error), error) {
	byLeader := map[int32][]zeroFetch{}
	for _, name := range topics {
		if f, ok := c.controlFetches.Load(name); ok {
			f := f.(zeroFetchAt)
			byLeader[f.leader] = append(byLeader[f.leader], f.zeroFetch)
		}
	}
	type answer struct {
		p   *kmsg.FetchResponseTopicPartition
		err error
	}
	var mu sync.Mutex
	answers := make(map[string]answer, len(topics))
	var wg sync.WaitGroup
	for leader, fetches := range byLeader {
		wg.Go(func() {
			partMax := max(int32(fetchMaxBytes/len(fetches)), batchPartitionMaxBytes)
			resp, err := c.sendFetchPartitionZero(ctx, leader, fetches, partMax)
			for _, f := range fetches {
				var a answer
				if err != nil {
					a.err = err
				} else {
					a.p, a.err = partitionZero(resp, f.topic)
					if a.err == nil && starved(a.p, f.offset) {
						var again *kmsg.FetchResponse
						if again, a.err = c.sendFetchPartitionZero(ctx, leader, []zeroFetch{f}, fetchMaxBytes); a.err == nil {
							a.p, a.err = partitionZero(again, f.topic)
						}
					}
				}
				mu.Lock()
				answers[f.topic.Name] = a
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return func(name string) (*kmsg.FetchResponseTopicPartition, error) {
		a, ok := answers[name]
		if !ok {
			return nil, errors.New("the caller stopped waiting before the request went")
		}
		return a.p, a.err
	}, nil
}

// starved reports a partition answered without error and without records
// while its leader holds committed records at or above offset.
func starved(p *kmsg.FetchResponseTopicPartition, offset int64) bool {
	return p.ErrorCode == 0 && len(p.RecordBatches) == 0 && p.LastStableOffset > offset
}
