package cleanup

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/fanout"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// BenchmarkFleetApply measures one advance of a fleet: every operator's
// boundary moved forward by one Apply each, side by side through one
// coalescing client, as flinkagents_cleanup_boundaries runs them (64 at
// once). It reports the Kafka requests per operator, in all and for the
// kinds that batching across the fleet is about: what must stay per
// operator is the control-topic transaction (one transactional ID per
// control topic keeps two appliers of it fenced); the reads and the
// DeleteRecords are shared.
func BenchmarkFleetApply(b *testing.B) {
	for _, operators := range []int{100} {
		b.Run(fmt.Sprintf("%d-operators", operators), func(b *testing.B) {
			f := newFleetEnv(b, operators, 3)
			ctx := context.Background()
			b.ResetTimer()
			var counts map[string]int64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				f.produce(2)
				off := int64(2 * (i + 1))
				plans := f.plans("chk-"+itoa(i), off)
				f.counter.reset()
				b.StartTimer()
				errs := make([]error, operators)
				fanout.Each(operators, 64, func(j int) {
					_, errs[j] = Apply(ctx, f.kafka, Request{Plan: plans[j], ControlTopic: f.controls[j]})
				})
				b.StopTimer()
				failOnAny(b, errs)
				counts = f.counter.snapshot()
			}
			reportRequests(b, counts, operators, "/operator", "Metadata", "Fetch", "ListOffsets", "DeleteRecords", "InitProducerID", "FindCoordinator", "EndTxn")
		})
	}
}

// BenchmarkFleetRefresh measures what a clean plan of a fleet's boundaries
// asks of Kafka: every operator's control topic read and compared with its
// action-state topic (Inspect, as the refresh does), side by side, after
// one advance recorded a plan in each. Reads of one kind go together
// (Metadata, ListOffsets, Fetch), so the requests per operator fall as the
// fleet grows. BENCH_READ_WIDTH sets how many entries read at once.
func BenchmarkFleetRefresh(b *testing.B) {
	// As flinkagents_cleanup_boundaries refreshes: every entry at once
	// (fleetTogetherConcurrency); BENCH_READ_WIDTH=64 is the width it had
	// before 2026-12-06.
	readWidth, _ := strconv.Atoi(os.Getenv("BENCH_READ_WIDTH"))
	if readWidth == 0 {
		readWidth = 4096
	}
	for _, operators := range []int{100, 1000} {
		b.Run(fmt.Sprintf("%d-operators", operators), func(b *testing.B) {
			f := newFleetEnv(b, operators, 3)
			ctx := context.Background()
			f.produce(2)
			plans := f.plans("chk-0", 1)
			fanout.Each(operators, 64, func(j int) {
				if _, err := Apply(ctx, f.kafka, Request{Plan: plans[j], ControlTopic: f.controls[j]}); err != nil {
					b.Error(err)
				}
			})
			if b.Failed() {
				return
			}
			b.ResetTimer()
			var counts map[string]int64
			for i := 0; i < b.N; i++ {
				f.counter.reset()
				errs := make([]error, operators)
				fanout.Each(operators, readWidth, func(j int) {
					_, errs[j] = Inspect(ctx, f.kafka, f.controls[j])
				})
				failOnAny(b, errs)
				counts = f.counter.snapshot()
			}
			reportRequests(b, counts, 1, "", "Metadata", "Fetch", "ListOffsets")
		})
	}
}

// failOnAny stops the benchmark at the first operator whose call failed.
func failOnAny(b *testing.B, errs []error) {
	b.Helper()
	for j, err := range errs {
		if err != nil {
			b.Fatalf("operator %d: %v", j, err)
		}
	}
}

// reportRequests reports the requests counted, in all and of each of
// kinds, divided by per (1: the totals), each metric's unit ending in
// suffix; the log has every kind.
func reportRequests(b *testing.B, counts map[string]int64, per int, suffix string, kinds ...string) {
	var total int64
	for _, n := range counts {
		total += n
	}
	b.ReportMetric(float64(total)/float64(per), "requests"+suffix)
	for _, k := range kinds {
		b.ReportMetric(float64(counts[k])/float64(per), k+suffix)
	}
	b.Log(describeCounts(counts))
}

// fleetEnv is one in-process broker holding a fleet: an action-state topic
// and a control topic per operator, and the coalescing client the provider
// would use.
type fleetEnv struct {
	t        testing.TB
	cluster  *kfake.Cluster // nil on an external broker
	brokers  []string
	kafka    *kafkaops.Client
	parts    int32
	datas    []string
	controls []string
	ids      []string
	counter  *requestCounter
}

func newFleetEnv(t testing.TB, operators int, partitions int32) *fleetEnv {
	t.Helper()
	f := newFleetEnvOn(t, nil, operators, partitions)
	return f
}

// newFleetEnvAnyBroker is newFleetEnv on the broker KAFKA_BOOTSTRAP_SERVERS
// names when set (CI's real Apache Kafka), with unique topic names.
func newFleetEnvAnyBroker(t testing.TB, operators int, partitions int32) *fleetEnv {
	t.Helper()
	if bs := os.Getenv("KAFKA_BOOTSTRAP_SERVERS"); bs != "" {
		return newFleetEnvOn(t, strings.Split(bs, ","), operators, partitions)
	}
	return newFleetEnv(t, operators, partitions)
}

func newFleetEnvOn(t testing.TB, brokers []string, operators int, partitions int32) *fleetEnv {
	t.Helper()
	f := &fleetEnv{t: t, parts: partitions, counter: &requestCounter{counts: map[string]int64{}}}
	prefix := "op"
	if brokers == nil {
		c, err := kfake.NewCluster(kfake.NumBrokers(1))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		f.cluster, brokers = c, c.ListenAddrs()
	} else {
		prefix = fmt.Sprintf("fleet-%d", time.Now().UnixNano())
	}
	f.brokers = brokers
	setup, err := kafkaops.New(kafkaops.Config{Brokers: brokers, Coalesce: true, CoalesceWindow: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	f.datas = make([]string, operators)
	f.controls = make([]string, operators)
	f.ids = make([]string, operators)
	errs := make([]error, operators)
	ctx := context.Background()
	fanout.Each(operators, 64, func(i int) {
		f.datas[i] = fmt.Sprintf("%s-%04d-action-state", prefix, i)
		f.controls[i] = fmt.Sprintf("%s-%04d-cleanup-control", prefix, i)
		created, err := setup.CreateTopic(ctx, f.datas[i], partitions, 1, DataTopicSettings)
		if err != nil {
			errs[i] = err
			return
		}
		f.ids[i] = created.Topic.ID.String()
		if _, errs[i] = setup.CreateTopic(ctx, f.controls[i], 1, 1, map[string]string{ConfigCleanupPolicy: "compact"}); errs[i] != nil {
			return
		}
		for _, name := range []string{f.datas[i], f.controls[i]} {
			if _, errs[i] = setup.DescribeTopic(ctx, name); errs[i] != nil { // visible everywhere
				return
			}
		}
	})
	setup.Close()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if f.cluster != nil {
		f.cluster.ControlKey(-1, func(req kmsg.Request) (kmsg.Response, error, bool) {
			f.counter.add(kmsg.NameForKey(req.Key()))
			f.cluster.KeepControl()
			return nil, nil, false
		})
	}
	f.kafka = f.newClient()
	return f
}

// newClient is a client as the provider builds one: coalescing, with the
// provider's default window.
func (f *fleetEnv) newClient() *kafkaops.Client {
	f.t.Helper()
	k, err := kafkaops.New(kafkaops.Config{Brokers: f.brokers, Timeout: 30 * time.Second, Coalesce: true, CoalesceWindow: 10 * time.Millisecond})
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(k.Close)
	return k
}

// produce writes n records to every partition of every action-state topic.
func (f *fleetEnv) produce(n int) {
	f.t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(f.brokers...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		f.t.Fatal(err)
	}
	defer cl.Close()
	var recs []*kgo.Record
	for _, topic := range f.datas {
		for p := range f.parts {
			for i := range n {
				recs = append(recs, &kgo.Record{Topic: topic, Partition: p, Key: fmt.Appendf(nil, "k-%d", i), Value: []byte("v")})
			}
		}
	}
	if err := cl.ProduceSync(context.Background(), recs...).FirstErr(); err != nil {
		f.t.Fatal(err)
	}
}

// plans is one plan per operator, every partition at offset.
func (f *fleetEnv) plans(source string, offset int64) []cleanupplan.Plan {
	f.t.Helper()
	out := make([]cleanupplan.Plan, len(f.datas))
	for i, topic := range f.datas {
		offs := cleanupplan.Offsets{}
		for p := range f.parts {
			offs[p] = offset
		}
		pl, err := cleanupplan.New(source, topic, f.ids[i], offs)
		if err != nil {
			f.t.Fatal(err)
		}
		out[i] = pl
	}
	return out
}

// requestCounter counts the requests the broker receives, by kind.
type requestCounter struct {
	mu     sync.Mutex
	counts map[string]int64
}

func (r *requestCounter) add(kind string) {
	r.mu.Lock()
	r.counts[kind]++
	r.mu.Unlock()
}

func (r *requestCounter) reset() {
	r.mu.Lock()
	r.counts = map[string]int64{}
	r.mu.Unlock()
}

func (r *requestCounter) snapshot() map[string]int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]int64, len(r.counts))
	for k, v := range r.counts {
		out[k] = v
	}
	return out
}

// describeCounts lists the counts by kind, in name order.
func describeCounts(counts map[string]int64) string {
	kinds := make([]string, 0, len(counts))
	for k := range counts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	s := ""
	for _, k := range kinds {
		s += fmt.Sprintf("%s=%d ", k, counts[k])
	}
	return s
}
