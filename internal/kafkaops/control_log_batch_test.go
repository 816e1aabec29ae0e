package kafkaops_test

import (
	"bytes"
	"context"
	"fmt"
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
