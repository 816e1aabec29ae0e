package kafkaops_test

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// TestAwaitTopicDeleted: a deleted topic, or one recreated under its name,
// is gone; a topic still listed is waited for until the context ends, and
// the error says the deletion was accepted.
func TestAwaitTopicDeleted(t *testing.T) {
	c, k, created := clusterWithOrders(t)
	ctx := context.Background()

	short, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	err := k.AwaitTopicDeleted(short, "orders", created.Topic.ID)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "still listed") {
		t.Fatalf("waiting for a topic nobody deleted: %v; want a deadline naming the still-listed topic", err)
	}

	if err := k.AwaitTopicDeleted(ctx, "orders", kafkaops.TopicID{1}); err != nil {
		t.Fatalf("a topic under the name with another ID: %v; want the awaited one gone", err)
	}

	// While it is deleted, a broker may list the topic with partitions
	// that have no leader: the wait goes on through them.
	var answered atomic.Int32
	c.ControlKey(int16(kmsg.Metadata), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		md := req.(*kmsg.MetadataRequest)
		if len(md.Topics) != 1 || md.Topics[0].Topic == nil || *md.Topics[0].Topic != "orders" || answered.Add(1) > 3 {
			return nil, nil, false
		}
		resp := md.ResponseKind().(*kmsg.MetadataResponse)
		resp.SetVersion(md.GetVersion())
		host, port, _ := net.SplitHostPort(c.ListenAddrs()[0])
		p, _ := strconv.Atoi(port)
		resp.Brokers = []kmsg.MetadataResponseBroker{{NodeID: 0, Host: host, Port: int32(p)}}
		topic := kmsg.NewMetadataResponseTopic()
		topic.Topic, topic.TopicID = kmsg.StringPtr("orders"), created.Topic.ID
		part := kmsg.NewMetadataResponseTopicPartition()
		part.ErrorCode, part.Leader = kerr.UnknownTopicOrPartition.Code, -1
		topic.Partitions = []kmsg.MetadataResponseTopicPartition{part}
		resp.Topics = []kmsg.MetadataResponseTopic{topic}
		return resp, nil, true
	})
	if err := k.DeleteTopic(ctx, "orders", created.Topic.ID); err != nil {
		t.Fatal(err)
	}
	if err := k.AwaitTopicDeleted(ctx, "orders", created.Topic.ID); err != nil {
		t.Fatalf("after the deletion: %v", err)
	}
	if answered.Load() < 3 {
		t.Fatalf("the wait ended after %d answers, before the partitions without a leader were waited out", answered.Load())
	}
}

// TestAwaitTopicDeletedAsksEveryBrokerOnce: once the topic is deleted, one
// round of questions to every broker ends the wait; the missing-topic
// rule's three paced rounds (about a second per topic) are for reads that
// must not take a new topic for a missing one.
func TestAwaitTopicDeletedAsksEveryBrokerOnce(t *testing.T) {
	c, k, created := clusterWithOrders(t)
	ctx := context.Background()
	if err := k.DeleteTopic(ctx, "orders", created.Topic.ID); err != nil {
		t.Fatal(err)
	}
	metadata := c.count(kmsg.Metadata, identityChecks)
	defer metadata.Remove()
	if err := k.AwaitTopicDeleted(ctx, "orders", created.Topic.ID); err != nil {
		t.Fatal(err)
	}
	if n := metadata.Hits(); n != 2 {
		t.Errorf("%d metadata requests to confirm a deletion on one broker, want 2 (the question, and every broker once)", n)
	}
}

// clusterWithOrders is one broker holding the topic "orders", created
// through the returned client.
func clusterWithOrders(t *testing.T) (*cluster, *kafkaops.Client, kafkaops.Created) {
	t.Helper()
	c := newCluster(t, 0)
	k := c.client(t, noCoalescing)
	created, err := k.CreateTopic(context.Background(), "orders", 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c, k, created
}
