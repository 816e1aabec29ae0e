package kafkaops

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
)

// ReplicationProgress is told, while RaiseReplicationFactor waits, how many
// partitions have every replica in sync.
type ReplicationProgress func(inSync, partitions int)

// RaiseReplicationFactor adds replicas to every partition of topic until
// each has replicationFactor of them, by partition reassignment: existing
// replicas and the leader stay, new ones go to the brokers holding fewest
// of the topic's replicas, and no record is moved or lost. It returns once
// every partition's replicas are all in sync, waiting as long as ctx allows
// (each request is still bounded by the client's timeout). Run again after
// an interruption, it finishes what is already under way.
func (c *Client) RaiseReplicationFactor(ctx context.Context, topic string, replicationFactor int, progress ReplicationProgress) error {
	md, err := c.freshMetadata(ctx, topic)
	if err != nil {
		return err
	}
	td := md.Topics[topic]
	brokers := md.Brokers.NodeIDs()
	slices.Sort(brokers)
	if replicationFactor > len(brokers) {
		return opErr(OpRaiseReplication, topic,
			fmt.Errorf("replication factor %d needs %d brokers, the cluster has %d (%v)", replicationFactor, replicationFactor, len(brokers), brokers))
	}
	load := map[int32]int{} // replicas of this topic per broker, to spread new ones
	for _, pd := range td.Partitions {
		for _, b := range pd.Replicas {
			load[b]++
		}
	}
	var req kadm.AlterPartitionAssignmentsReq
	for _, p := range td.Partitions.Numbers() {
		replicas := slices.Clone(td.Partitions[p].Replicas)
		if len(replicas) >= replicationFactor {
			continue // done, or already being reassigned by an earlier run
		}
		for len(replicas) < replicationFactor {
			b := leastLoaded(brokers, replicas, load)
			replicas = append(replicas, b)
			load[b]++
		}
		req.Assign(topic, p, replicas)
	}
	if len(req) > 0 {
		if err := c.alterAssignments(ctx, topic, req); err != nil {
			return err
		}
	}
	return c.awaitInSync(ctx, topic, replicationFactor, progress)
}

// leastLoaded picks the broker not yet among replicas that holds fewest of
// the topic's replicas (lowest ID on ties, so plans are deterministic).
func leastLoaded(brokers, replicas []int32, load map[int32]int) int32 {
	best := int32(-1)
	for _, b := range brokers {
		if slices.Contains(replicas, b) {
			continue
		}
		if best < 0 || load[b] < load[best] {
			best = b
		}
	}
	return best
}

func (c *Client) alterAssignments(ctx context.Context, topic string, req kadm.AlterPartitionAssignmentsReq) error {
	ctx, done, err := c.request(ctx, OpReassignPartitions, topic)
	if err != nil {
		return err
	}
	defer done()
	resps, err := c.admin.AlterPartitionAssignments(ctx, req)
	if err != nil {
		return opErr(OpReassignPartitions, topic, err)
	}
	perr := partitionErrors{op: OpReassignPartitions, topic: topic}
	for _, r := range resps.Sorted() {
		if r.Err != nil {
			perr.add(r.Partition, errWithMessage(r.Err, r.ErrMessage))
		}
	}
	return perr.err()
}

// awaitInSync polls until every partition has replicationFactor replicas,
// all in sync.
func (c *Client) awaitInSync(ctx context.Context, topic string, replicationFactor int, progress ReplicationProgress) error {
	start := time.Now()
	observed, inSync, total := false, 0, 0
	behind := func() error {
		return opErr(OpRaiseReplication, topic, fmt.Errorf(
			"%d of %d partitions have all %d replicas in sync; the reassignment goes on in the cluster and the next apply waits for it (%w)",
			inSync, total, replicationFactor, waitErr(ctx, start)))
	}
	for {
		md, err := c.freshMetadata(ctx, topic)
		if err != nil {
			// The deadline can fall inside a describe rather than between
			// polls; the operator still wants the last progress seen, not
			// a bare "context deadline exceeded" from the describe.
			if observed && ctx.Err() != nil {
				return behind()
			}
			if ctx.Err() != nil {
				return opErr(OpRaiseReplication, topic, fmt.Errorf(
					"the reassignment was accepted but the partitions' replicas could not be read before the deadline; it goes on in the cluster and the next apply waits for it (%w: %w)",
					waitErr(ctx, start), err))
			}
			return err
		}
		parts := md.Topics[topic].Partitions
		observed, inSync, total = true, 0, len(parts)
		for _, pd := range parts {
			if len(pd.Replicas) == replicationFactor && len(pd.ISR) >= replicationFactor {
				inSync++
			}
		}
		if progress != nil {
			progress(inSync, len(parts))
		}
		if inSync == len(parts) {
			return nil
		}
		select {
		case <-ctx.Done():
			return behind()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// freshMetadata asks for topic's metadata past franz-go's cache (replica
// and ISR lists change under a reassignment).
func (c *Client) freshMetadata(ctx context.Context, topic string) (kadm.Metadata, error) {
	ctx, done, err := c.request(ctx, OpDescribeTopic, topic)
	if err != nil {
		return kadm.Metadata{}, err
	}
	defer done()
	md, err := c.admin.Metadata(kadm.WithAuthorizedOps(ctx), topic)
	if err != nil {
		return md, opErr(OpDescribeTopic, topic, err)
	}
	td, ok := md.Topics[topic]
	switch {
	case !ok:
		return md, opErr(OpDescribeTopic, topic, errors.New("the broker's metadata response did not include the topic"))
	case td.Err != nil:
		return md, opErr(OpDescribeTopic, topic, td.Err)
	}
	return md, nil
}
