package kafkaops_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// A fleet's deletions, arriving together, go as one DeleteRecords request
// (one per leader) between one identity read before and one after, and
// each caller keeps its own checks: a topic recreated since its caller
// checked it is left out of the request and told nothing was sent, its new
// records untouched, while the others are deleted.
func TestCoalescedDeleteRecordsKeepEachIdentity(t *testing.T) {
	const n = 20
	c := newCluster(t, n)
	ctx := context.Background()
	ids := map[string]kafkaops.TopicID{}
	plain := c.client(t, noCoalescing)
	for _, name := range c.topics {
		d, err := plain.DescribeTopic(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = d.ID
	}
	const recreated = "t005"
	if err := c.DeleteTopic(recreated); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateTopic(recreated, 3, nil); err != nil {
		t.Fatal(err)
	}
	produceEverywhere(t, c, 3)

	deletes := c.count(kmsg.DeleteRecords, nil)
	k := c.client(t, 20*time.Millisecond)
	errs := concurrently(c.topics, func(name string) error {
		_, err := k.DeleteRecords(ctx, name, ids[name], map[int32]int64{0: 2, 1: 2, 2: 1})
		return err
	})
	for _, name := range c.topics {
		err := errs[name]
		if name == recreated {
			idErr, ok := errors.AsType[*kafkaops.DeleteRecordsIdentityError](err)
			if !ok || idErr.Sent || idErr.Now.IsZero() {
				t.Fatalf("%s (recreated): %v, want an identity error saying nothing was sent", name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if deletes.Hits() >= n/2 {
		t.Fatalf("%d DeleteRecords requests for %d topics deleted together; want them batched", deletes.Hits(), n)
	}
	for _, name := range c.topics {
		starts, err := plain.StartOffsets(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		want := map[int32]int64{0: 2, 1: 2, 2: 1}
		if name == recreated {
			want = map[int32]int64{0: 0, 1: 0, 2: 0}
		}
		if fmt.Sprint(starts) != fmt.Sprint(want) {
			t.Fatalf("%s start offsets %v, want %v", name, starts, want)
		}
	}
}

// produceEverywhere writes n records to every partition of every topic.
func produceEverywhere(t *testing.T, c *cluster, n int) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	var recs []*kgo.Record
	for _, name := range c.topics {
		for p := range int32(3) {
			for range n {
				recs = append(recs, &kgo.Record{Topic: name, Partition: p, Value: []byte("v")})
			}
		}
	}
	if err := cl.ProduceSync(context.Background(), recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
}
