package kafkaops

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// reassigningTopic is a two-partition topic mid-raise from one replica to
// three, as metadata shows it: partition 0 lists [1 2 3] with [1 3] in
// sync, partition 1 lists [2 1 3] with [2] in sync.
func reassigningTopic() Topic {
	return Topic{
		Name:       "orders",
		Partitions: []int32{0, 1},
		Replicas:   map[int32][]int32{0: {1, 2, 3}, 1: {2, 1, 3}},
		ISR:        map[int32][]int32{0: {1, 3}, 1: {2}},
	}
}

func TestReplicationOfEvenTopic(t *testing.T) {
	tp := Topic{Partitions: []int32{0, 1}, Replicas: map[int32][]int32{0: {1, 2}, 1: {2, 3}}, ISR: map[int32][]int32{0: {1, 2}, 1: {2, 3}}}
	r := replicationOf(tp, nil, true)
	if r.Factor != 2 || r.Uneven() || len(r.Reassigning) != 0 || len(r.Unlisted) != 0 {
		t.Fatalf("replication of an even topic: %+v", r)
	}
}

// TestReplicationOfUnevenTopic: partition 0 moved to three replicas outside
// Terraform, partition 1 still one: the factor is 1 (what every partition
// has), not partition 0's 3, and the topic is uneven.
func TestReplicationOfUnevenTopic(t *testing.T) {
	tp := Topic{Partitions: []int32{0, 1}, Replicas: map[int32][]int32{0: {1, 2, 3}, 1: {2}}, ISR: map[int32][]int32{0: {1, 2, 3}, 1: {2}}}
	r := replicationOf(tp, nil, true)
	if r.Factor != 1 || !r.Uneven() || r.Settled[0] != 3 || r.Settled[1] != 1 {
		t.Fatalf("replication of an uneven topic: %+v", r)
	}
}

// TestReplicationOfReassigningTopic: replicas still being added do not
// count, so an interrupted raise reads as the factor it started from.
func TestReplicationOfReassigningTopic(t *testing.T) {
	r := replicationOf(reassigningTopic(), map[int32][]int32{0: {2, 3}, 1: {1, 3}}, true)
	if r.Factor != 1 || !slices.Equal(r.Reassigning, []int32{0, 1}) {
		t.Fatalf("replication mid-reassignment: %+v", r)
	}
}

// TestReplicationOfBrokerDown: a replica out of sync because its broker is
// down, with no reassignment listed, still counts.
func TestReplicationOfBrokerDown(t *testing.T) {
	tp := Topic{Partitions: []int32{0}, Replicas: map[int32][]int32{0: {1, 2, 3}}, ISR: map[int32][]int32{0: {1, 3}}}
	if r := replicationOf(tp, map[int32][]int32{}, true); r.Factor != 3 || len(r.Reassigning) != 0 {
		t.Fatalf("replication with a broker down: %+v", r)
	}
}

func reassignmentClient(t *testing.T) (*kfake.Cluster, *Client) {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(3))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	k, err := New(Config{Brokers: c.ListenAddrs(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	return c, k
}

// TestTopicReplicationAsksForReassignments: with replicas out of sync, the
// adding replicas the broker lists are left out of the factor.
func TestTopicReplicationAsksForReassignments(t *testing.T) {
	c, k := reassignmentClient(t)
	asked := 0
	c.ControlKey(int16(kmsg.ListPartitionReassignments), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		asked++
		resp := req.(*kmsg.ListPartitionReassignmentsRequest).ResponseKind().(*kmsg.ListPartitionReassignmentsResponse)
		rt := kmsg.NewListPartitionReassignmentsResponseTopic()
		rt.Topic = "orders"
		for p, adding := range map[int32][]int32{0: {2, 3}, 1: {1, 3}} {
			rp := kmsg.NewListPartitionReassignmentsResponseTopicPartition()
			rp.Partition, rp.AddingReplicas = p, adding
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
		return resp, nil, true
	})
	r, err := k.TopicReplication(context.Background(), reassigningTopic())
	if err != nil {
		t.Fatal(err)
	}
	if asked != 1 || r.Factor != 1 || !slices.Equal(r.Reassigning, []int32{0, 1}) {
		t.Fatalf("asked %d times, replication %+v; want one request, factor 1, partitions 0 and 1 reassigning", asked, r)
	}
	healthy := Topic{Name: "orders", Partitions: []int32{0}, Replicas: map[int32][]int32{0: {1, 2}}, ISR: map[int32][]int32{0: {2, 1}}}
	if r, err := k.TopicReplication(context.Background(), healthy); err != nil || r.Factor != 2 || asked != 1 {
		t.Fatalf("healthy topic: %+v, %v, %d requests; want factor 2 and no request", r, err, asked)
	}
}

// TestTopicReplicationNotAuthorizedToList: a principal without DESCRIBE on
// the cluster gets the in-sync count, flagged, instead of a failed refresh.
func TestTopicReplicationNotAuthorizedToList(t *testing.T) {
	c, k := reassignmentClient(t)
	c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.ListPartitionReassignments}, TopLevel: true, Err: kerr.ClusterAuthorizationFailed, Count: -1})
	r, err := k.TopicReplication(context.Background(), reassigningTopic())
	if err != nil {
		t.Fatal(err)
	}
	if r.Factor != 1 || r.Settled[0] != 2 || !slices.Equal(r.Unlisted, []int32{0, 1}) {
		t.Fatalf("replication without the reassignment list: %+v; want partition 0 at its 2 in sync, factor 1, both unlisted", r)
	}
}
