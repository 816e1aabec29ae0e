package kafkaops_test

import (
	"bytes"
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// Control logs read side by side share their Fetch requests, and every
// reader still reads its whole log in order: one large log (more than one
// shared answer holds) does not starve the small ones beside it, nor do
// they cut it short.
func TestCoalescedControlLogReads(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	const small, smallRecords, bigRecords = 30, 3, 300
	want := map[string]int{"big": bigRecords}
	names := []string{"big"}
	for i := range small {
		names = append(names, fmt.Sprintf("c%02d", i))
		want[names[len(names)-1]] = smallRecords
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerBatchMaxBytes(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	for _, name := range names {
		if err := c.CreateTopic(name, 1, map[string]string{"cleanup.policy": "compact"}); err != nil {
			t.Fatal(err)
		}
		var recs []*kgo.Record
		for i := range want[name] {
			value := []byte(fmt.Sprintf("%s-%d", name, i))
			if name == "big" {
				value = append(value, bytes.Repeat([]byte("x"), 40<<10)...) // 12 MB in all
			}
			recs = append(recs, &kgo.Record{Topic: name, Key: []byte("k"), Value: value})
		}
		if err := cl.ProduceSync(context.Background(), recs...).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	cls := &cluster{Cluster: c}
	fetches := cls.count(kmsg.Fetch, nil)
	k := cls.client(t, 20*time.Millisecond)
	errs := concurrently(names, func(name string) error {
		n := 0
		_, err := k.ReadControlLog(context.Background(), name, func(r kafkaops.ControlRecord) error {
			if !bytes.HasPrefix(r.Value, []byte(fmt.Sprintf("%s-%d", name, n))) {
				return fmt.Errorf("record %d of %s reads %.20q", n, name, r.Value)
			}
			n++
			return nil
		})
		if err == nil && n != want[name] {
			err = fmt.Errorf("read %d records of %s, want %d", n, name, want[name])
		}
		return err
	})
	for _, name := range names {
		if errs[name] != nil {
			t.Fatal(errs[name])
		}
	}
	if fetches.Hits() >= len(names) {
		t.Fatalf("%d Fetch requests for %d control logs read together; want them shared", fetches.Hits(), len(names))
	}
}

// A shared Fetch whose answer leaves a partition out (the response's size
// bound reached before it: no records, though the partition holds
// committed records at the offset asked) does not cost that reader a
// stall: its partition is fetched again on its own within the batch.
func TestCoalescedControlLogReadsStarvedPartition(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	var names []string
	for i := range 20 {
		names = append(names, fmt.Sprintf("c%02d", i))
	}
	for _, name := range names {
		if err := c.CreateTopic(name, 1, map[string]string{"cleanup.policy": "compact"}); err != nil {
			t.Fatal(err)
		}
		if err := cl.ProduceSync(context.Background(), &kgo.Record{Topic: name, Key: []byte("k"), Value: []byte(name)}).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	// Every Fetch naming more than one topic is answered as a broker out of
	// room answers: each partition without records, its offsets known.
	var starvedAnswers atomic.Int32
	c.ControlKey(int16(kmsg.Fetch), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		r := req.(*kmsg.FetchRequest)
		if len(r.Topics) < 2 {
			return nil, nil, false
		}
		starvedAnswers.Add(1)
		resp := r.ResponseKind().(*kmsg.FetchResponse)
		for _, rt := range r.Topics {
			t := kmsg.NewFetchResponseTopic()
			t.Topic, t.TopicID = rt.Topic, rt.TopicID
			for _, rp := range rt.Partitions {
				p := kmsg.NewFetchResponseTopicPartition()
				p.Partition, p.HighWatermark, p.LastStableOffset, p.LogStartOffset = rp.Partition, 1, 1, 0
				t.Partitions = append(t.Partitions, p)
			}
			resp.Topics = append(resp.Topics, t)
		}
		return resp, nil, true
	})
	k := (&cluster{Cluster: c}).client(t, 20*time.Millisecond)
	started := time.Now()
	errs := concurrently(names, func(name string) error {
		var got []string
		if _, err := k.ReadControlLog(context.Background(), name, func(r kafkaops.ControlRecord) error {
			got = append(got, string(r.Value))
			return nil
		}); err != nil {
			return err
		}
		if len(got) != 1 || got[0] != name {
			return fmt.Errorf("%s read %q", name, got)
		}
		return nil
	})
	for _, name := range names {
		if errs[name] != nil {
			t.Fatal(errs[name])
		}
	}
	if starvedAnswers.Load() == 0 {
		t.Fatal("no Fetch was shared: the test did not reach the starved answer")
	}
	if took := time.Since(started); took > 2*time.Second {
		t.Fatalf("reads took %v: the starved partitions stalled instead of being fetched alone", took)
	}
}
