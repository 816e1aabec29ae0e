package cleanup

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// BenchmarkApply measures one forward move of the boundary on an in-process
// broker and reports the Kafka requests it sends: the count must not grow
// with the partition count (one batched request per broker per step).
func BenchmarkApply(b *testing.B) {
	for _, parts := range []int32{64, 1024} {
		b.Run(partitionsName(parts), func(b *testing.B) {
			e := newEnv(b, parts, 2)
			var requests atomic.Int64
			e.cluster.ControlKey(-1, func(kmsg.Request) (kmsg.Response, error, bool) {
				requests.Add(1)
				e.cluster.KeepControl()
				return nil, nil, false
			})
			ctx := context.Background()
			// Each iteration records a new plan; offsets stay within the two
			// records per partition by alternating 1 and 2 on a fresh source,
			// so every apply commits, deletes and marks APPLIED.
			b.ResetTimer()
			var perApply int64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if i > 0 {
					e.produce(2)
				}
				off := int64(2 * (i + 1))
				plan := e.plan("chk-"+itoa(i), func(int32) int64 { return off })
				before := requests.Load()
				b.StartTimer()
				if _, err := Apply(ctx, e.kafka, Request{Plan: plan, ControlTopic: controlTopic}); err != nil {
					b.Fatal(err)
				}
				perApply = requests.Load() - before
			}
			b.ReportMetric(float64(perApply), "kafka-requests/apply")
		})
	}
}

// BenchmarkReplayControlLog measures reading and validating a control topic
// holding n records (n/2 plans, each COMMITTED then APPLIED).
func BenchmarkReplayControlLog(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(itoa(n)+"-records", func(b *testing.B) {
			c, err := kfake.NewCluster(kfake.NumBrokers(1))
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			k, err := kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs()})
			if err != nil {
				b.Fatal(err)
			}
			defer k.Close()
			ctx := context.Background()
			if _, err := k.CreateTopic(ctx, controlTopic, 1, 1, map[string]string{ConfigCleanupPolicy: "compact"}); err != nil {
				b.Fatal(err)
			}
			fillControlLog(b, c, n)
			b.ResetTimer()
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				log, err := readHistory(ctx, k, controlTopic)
				if err != nil {
					b.Fatal(err)
				}
				if len(log.Operations()) != n/2 {
					b.Fatalf("replayed %d plans, want %d", len(log.Operations()), n/2)
				}
			}
		})
	}
}

// fillControlLog writes n/2 advancing plans on 8 partitions, each as
// COMMITTED then APPLIED, in large batches.
func fillControlLog(b *testing.B, c *kfake.Cluster, n int) {
	e := &env{t: b, cluster: c, brokers: c.ListenAddrs(), parts: 8, topicID: "q1Yw3mZ7QGu3c8m0b7o5Zg", data: dataTopic, control: controlTopic}
	ctx := context.Background()
	for i := 0; i < n/2; i++ {
		off := int64(i)
		plan := e.plan("file:/checkpoints/job/chk-"+itoa(i), func(int32) int64 { return off })
		for _, st := range []cleanupplan.Status{cleanupplan.StatusCommitted, cleanupplan.StatusApplied} {
			key, value := cleanupplan.EncodeRecord(st, plan)
			if _, err := e.appendControl(ctx, controlTopic, key, value); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func partitionsName(n int32) string { return itoa(int(n)) + "-partitions" }

func itoa(i int) string {
	return string(appendInt(nil, i))
}

func appendInt(b []byte, i int) []byte {
	if i >= 10 {
		b = appendInt(b, i/10)
	}
	return append(b, byte('0'+i%10))
}
