package kafkaops_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// A fleet's creates are settled together: SettleTopics waits until every
// broker shows every topic this client created (a broker behind answers
// UNKNOWN_TOPIC_OR_PARTITION for a while), in a few Metadata requests for
// all of them, and the first read of each afterwards asks nothing more.
func TestSettleTopicsWaitsForAFleetAtOnce(t *testing.T) {
	c := newCluster(t, 0)
	k := c.client(t, 0)
	ctx := context.Background()
	var names []string
	for i := range 50 {
		names = append(names, fmt.Sprintf("fleet-%02d", i))
	}
	errs := concurrently(names, func(name string) error {
		_, err := k.CreateTopic(ctx, name, 3, 1, nil)
		return err
	})
	for _, name := range names {
		if errs[name] != nil {
			t.Fatal(errs[name])
		}
	}
	behind := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Metadata}, Topic: "fleet-07", Err: kerr.UnknownTopicOrPartition, Count: 3})
	metadata := c.count(kmsg.Metadata, nil)
	k.SettleTopics(ctx, names)
	if behind.Hits() != 3 {
		t.Fatalf("SettleTopics returned after %d of the 3 answers of a broker behind", behind.Hits())
	}
	if m := metadata.Hits(); m > 8 {
		t.Fatalf("%d Metadata requests to settle 50 topics; want a few for all of them", m)
	}
	after := c.count(kmsg.Metadata, identityChecks)
	for _, name := range names {
		if _, err := k.DescribeTopic(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
	if n := after.Hits(); n != len(names) {
		t.Fatalf("reads after settling sent %d Metadata requests for %d topics; a settled topic needs no more waiting", n, len(names))
	}
}
