package adoption_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/actionstate/terraform-provider-flinkagents/internal/adoption"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// BenchmarkTake1000 lists a cluster of 1,000 operators' topics as terraform
// query does with include_resource: 1,000 action-state topics of 64
// partitions and 1,000 control topics holding a boundary each, beside 100
// other topics; one op is one list block of each kind.
func BenchmarkTake1000(b *testing.B) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	var recs []*kgo.Record
	for i := range 1000 {
		data, control := fmt.Sprintf("agents-%04d-action-state", i), fmt.Sprintf("agents-%04d-cleanup-control", i)
		for name, partitions := range map[string]int32{data: 64, control: 1} {
			if err := c.CreateTopic(name, partitions, map[string]string{"cleanup.policy": "compact"}); err != nil {
				b.Fatal(err)
			}
		}
		p, err := cleanupplan.New("s3://ckpt/chk-1", data, "AAAAAAAAAAAAAAAAAAAAAQ", cleanupplan.Offsets{0: 1})
		if err != nil {
			b.Fatal(err)
		}
		k, v := cleanupplan.EncodeRecord(cleanupplan.StatusApplied, p)
		recs = append(recs, &kgo.Record{Topic: control, Key: k, Value: v})
	}
	for i := range 100 {
		if err := c.CreateTopic(fmt.Sprintf("billing-%03d", i), 6, nil); err != nil {
			b.Fatal(err)
		}
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...))
	if err != nil {
		b.Fatal(err)
	}
	if err := cl.ProduceSync(context.Background(), recs...).FirstErr(); err != nil {
		b.Fatal(err)
	}
	cl.Close()
	k, err := kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: 30 * time.Second, Coalesce: true})
	if err != nil {
		b.Fatal(err)
	}
	defer k.Close()
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		data, err := adoption.Take(ctx, k, adoption.Filter{Prefix: "agents-"}, adoption.ActionStateTopics)
		if err != nil || len(data.Found) != 1000 {
			b.Fatalf("listed %d action-state topics: %v", len(data.Found), err)
		}
		control, err := adoption.Take(ctx, k, adoption.Filter{Prefix: "agents-"}, adoption.ControlTopics)
		if err != nil || len(control.Found) != 1000 || control.Found[0].Serves != "agents-0000-action-state" {
			b.Fatalf("listed %d control topics: %v", len(control.Found), err)
		}
	}
}
