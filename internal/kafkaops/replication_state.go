package kafkaops

import (
	"context"
	"errors"
	"slices"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
)

// Replication is how many replicas a topic's partitions hold for good:
// replicas a reassignment is still adding are not counted until they are in
// sync, so an interrupted raise is never reported as done.
type Replication struct {
	// Factor is the fewest settled replicas of any partition: what every
	// partition has.
	Factor int
	// Settled is each partition's settled replica count.
	Settled map[int32]int
	// Reassigning lists the partitions whose reassignment is under way.
	Reassigning []int32
	// Unlisted lists partitions with replicas out of sync whose
	// reassignment state the broker would not tell (ListPartitionReassignments
	// needs DESCRIBE on the cluster): only their in-sync replicas are counted.
	Unlisted []int32
}

// Uneven reports whether partitions hold different numbers of replicas.
func (r Replication) Uneven() bool {
	for _, n := range r.Settled {
		if n != r.Factor {
			return true
		}
	}
	return false
}

// TopicReplication reads how many replicas t's partitions hold. Only when a
// partition has a replica out of sync (a reassignment adding it, or a broker
// behind or down) does it ask the cluster which reassignments are under way,
// so a healthy topic costs no request beyond the describe that gave t.
func (c *Client) TopicReplication(ctx context.Context, t Topic) (Replication, error) {
	var lagging []int32
	for _, p := range t.Partitions {
		if !allInSync(t.Replicas[p], t.ISR[p]) {
			lagging = append(lagging, p)
		}
	}
	if len(lagging) == 0 {
		return replicationOf(t, nil, true), nil
	}
	adding, err := c.addingReplicas(ctx, t.Name, lagging)
	switch {
	case errors.Is(err, kerr.ClusterAuthorizationFailed):
		return replicationOf(t, nil, false), nil
	case err != nil:
		return Replication{}, err
	}
	return replicationOf(t, adding, true), nil
}

// replicationOf counts settled replicas: all replicas but the ones being
// added. Without the reassignment list (listed false), a partition with
// replicas out of sync counts its in-sync replicas only, the count that is
// certainly settled.
func replicationOf(t Topic, adding map[int32][]int32, listed bool) Replication {
	r := Replication{Settled: make(map[int32]int, len(t.Partitions))}
	for _, p := range t.Partitions {
		n := len(t.Replicas[p])
		switch {
		case len(adding[p]) > 0:
			n -= len(adding[p])
			r.Reassigning = append(r.Reassigning, p)
		case !listed && !allInSync(t.Replicas[p], t.ISR[p]):
			n = len(t.ISR[p])
			r.Unlisted = append(r.Unlisted, p)
		}
		r.Settled[p] = n
		if r.Factor == 0 || n < r.Factor {
			r.Factor = n
		}
	}
	return r
}

func allInSync(replicas, isr []int32) bool {
	for _, b := range replicas {
		if !slices.Contains(isr, b) {
			return false
		}
	}
	return true
}

// addingReplicas asks which replicas a reassignment is still adding to
// partitions of topic.
func (c *Client) addingReplicas(ctx context.Context, topic string, partitions []int32) (map[int32][]int32, error) {
	ctx, done, err := c.request(ctx, OpListReassignments, topic)
	if err != nil {
		return nil, err
	}
	defer done()
	set := kadm.TopicsSet{}
	set.Add(topic, partitions...)
	resps, err := c.admin.ListPartitionReassignments(ctx, set)
	if err != nil {
		return nil, opErr(OpListReassignments, topic, err)
	}
	adding := map[int32][]int32{}
	for p, r := range resps[topic] {
		if len(r.AddingReplicas) > 0 {
			adding[p] = r.AddingReplicas
		}
	}
	return adding, nil
}
