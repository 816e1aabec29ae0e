package cleanup

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/javatool"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

const (
	dataTopic    = "orders-agent-action-state"
	controlTopic = "orders-agent-cleanup-control"
)

// env is one in-process broker with an action-state topic holding records
// and a control topic, cleaned up by the test.
type env struct {
	t        testing.TB
	cluster  *kfake.Cluster // nil on an external broker
	brokers  []string
	kafka    *kafkaops.Client
	topicID  string
	parts    int32
	appender *javatool.Appender // the Java tool's way of appending; see appendControl
	// data and control are the topic names: the constants on kfake,
	// unique names on a shared external broker.
	data, control string
}

func newEnv(t testing.TB, partitions int32, recordsPerPartition int) *env {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	e := &env{t: t, cluster: c, brokers: c.ListenAddrs(), parts: partitions, data: dataTopic, control: controlTopic}
	e.setup(recordsPerPartition)
	return e
}

// newEnvAnyBroker is newEnv on the broker named by KAFKA_BOOTSTRAP_SERVERS
// when set (CI's real Apache Kafka), with unique topic names; for tests
// that need no kfake fault injection.
func newEnvAnyBroker(t testing.TB, partitions int32, recordsPerPartition int) *env {
	t.Helper()
	bs := os.Getenv("KAFKA_BOOTSTRAP_SERVERS")
	if bs == "" {
		return newEnv(t, partitions, recordsPerPartition)
	}
	suffix := fmt.Sprintf("-%d", time.Now().UnixNano())
	e := &env{t: t, brokers: strings.Split(bs, ","), parts: partitions, data: dataTopic + suffix, control: controlTopic + suffix}
	e.setup(recordsPerPartition)
	return e
}

func (e *env) setup(recordsPerPartition int) {
	e.t.Helper()
	// The topics come from a client of their own, as Terraform creates them
	// in an earlier command than the apply under test: a client that created
	// a topic gives it time to appear on every broker (kafkaops' settle),
	// which would slow the tests that delete a topic behind its back.
	ctx := context.Background()
	setup := e.newClient()
	id, err := setup.CreateTopic(ctx, e.data, e.parts, 1, DataTopicSettings)
	if err != nil {
		e.t.Fatal(err)
	}
	e.topicID = id.Topic.ID.String()
	if _, err := setup.CreateTopic(ctx, e.control, 1, 1, map[string]string{ConfigCleanupPolicy: "compact"}); err != nil {
		e.t.Fatal(err)
	}
	for _, name := range []string{e.data, e.control} {
		if _, err := setup.DescribeTopic(ctx, name); err != nil { // visible everywhere
			e.t.Fatal(err)
		}
	}
	setup.Close()
	e.kafka = e.newClient()
	e.produce(recordsPerPartition)
}

// newClient connects a new kafkaops client to the env's broker.
func (e *env) newClient() *kafkaops.Client {
	e.t.Helper()
	k, err := kafkaops.New(kafkaops.Config{Brokers: e.brokers, Timeout: 20 * time.Second})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(k.Close)
	return k
}

// appendControl writes one control record the way the Java tool does
// (idempotent, not transactional).
func (e *env) appendControl(ctx context.Context, topic string, key, value []byte) (int64, error) {
	if e.appender == nil {
		a, err := javatool.New(kgo.SeedBrokers(e.brokers...))
		if err != nil {
			return 0, err
		}
		e.t.Cleanup(a.Close)
		e.appender = a
	}
	return e.appender.Append(ctx, topic, key, value)
}

// produce writes n action-state records to every partition, as a job would.
func (e *env) produce(n int) {
	e.t.Helper()
	if n == 0 {
		return
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(e.brokers...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		e.t.Fatal(err)
	}
	defer cl.Close()
	var recs []*kgo.Record
	for p := range e.parts {
		for i := range n {
			recs = append(recs, &kgo.Record{Topic: e.data, Partition: p,
				Key: fmt.Appendf(nil, "key-%d-%d", p, i), Value: fmt.Appendf(nil, "action-state-%d-%d", p, i)})
		}
	}
	if err := cl.ProduceSync(context.Background(), recs...).FirstErr(); err != nil {
		e.t.Fatal(err)
	}
}

// plan builds a plan for the env's topic with offset(p) per partition.
func (e *env) plan(source string, offset func(p int32) int64) cleanupplan.Plan {
	e.t.Helper()
	offs := cleanupplan.Offsets{}
	for p := range e.parts {
		offs[p] = offset(p)
	}
	pl, err := cleanupplan.New(source, e.data, e.topicID, offs)
	if err != nil {
		e.t.Fatal(err)
	}
	return pl
}

func (e *env) startOffsets() map[int32]int64 {
	e.t.Helper()
	s, err := e.kafka.StartOffsets(context.Background(), e.data)
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

func (e *env) history() *cleanupplan.Log {
	e.t.Helper()
	log, err := History(context.Background(), e.kafka, e.control)
	if err != nil {
		e.t.Fatal(err)
	}
	return log
}

func (e *env) controlEnd() int64 {
	e.t.Helper()
	ends, err := e.kafka.EndOffsets(context.Background(), e.control)
	if err != nil {
		e.t.Fatal(err)
	}
	return ends[0]
}

// invariantSpy forwards every call to the real client and checks the
// protocol's safety invariant on each DeleteRecords: no offset above what is
// known to be durably COMMITTED. "Known durable" is what the control log held
// when the spy was created plus every transaction the broker committed: a
// subset of what is truly durable, so the check is, if anything, stricter.
type invariantSpy struct {
	Kafka
	t          testing.TB
	mu         sync.Mutex
	durable    cleanupplan.Offsets
	deletes    int
	violations []string
}

func newSpy(e *env) *invariantSpy {
	s := &invariantSpy{Kafka: e.kafka, t: e.t, durable: cleanupplan.Offsets{}}
	// A history the coordinator must refuse contributes nothing: starting
	// from less makes the check stricter.
	if log, err := History(context.Background(), e.kafka, e.control); err == nil {
		for _, op := range log.Operations() {
			s.raise(op.Plan.Offsets)
		}
	}
	return s
}

func (s *invariantSpy) raise(o cleanupplan.Offsets) {
	for p, off := range o {
		s.durable[p] = max(s.durable[p], off)
	}
}

// BeginControlTxn wraps the transaction so that its appends count as
// durable only once the commit is acknowledged.
func (s *invariantSpy) BeginControlTxn(ctx context.Context, topic string) (kafkaops.ControlTxn, error) {
	txn, err := s.Kafka.BeginControlTxn(ctx, topic)
	if err != nil {
		return nil, err
	}
	return &spyTxn{ControlTxn: txn, spy: s}, nil
}

type spyTxn struct {
	kafkaops.ControlTxn
	spy     *invariantSpy
	pending []cleanupplan.Offsets
}

func (t *spyTxn) Append(ctx context.Context, key, value []byte) error {
	if err := t.ControlTxn.Append(ctx, key, value); err != nil {
		return err
	}
	rec, err := cleanupplan.DecodeRecord(key, value)
	if err != nil {
		t.spy.t.Errorf("coordinator appended an undecodable record: %v", err)
	}
	t.pending = append(t.pending, rec.Plan.Offsets)
	return nil
}

func (t *spyTxn) Commit(ctx context.Context) error {
	if err := t.ControlTxn.Commit(ctx); err != nil {
		return err
	}
	t.spy.mu.Lock()
	defer t.spy.mu.Unlock()
	for _, o := range t.pending {
		t.spy.raise(o)
	}
	return nil
}

func (s *invariantSpy) DeleteRecords(ctx context.Context, topic string, id kafkaops.TopicID, upTo map[int32]int64) (map[int32]int64, error) {
	s.mu.Lock()
	s.deletes++
	for p, off := range upTo {
		if off > s.durable[p] {
			s.violations = append(s.violations, fmt.Sprintf("DeleteRecords partition %d up to %d while only %d is durably COMMITTED", p, off, s.durable[p]))
		}
	}
	s.mu.Unlock()
	return s.Kafka.DeleteRecords(ctx, topic, id, upTo)
}

func (s *invariantSpy) check() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range s.violations {
		s.t.Error("safety invariant broken: " + v)
	}
}

// onlyApplied fails the test unless ops record exactly one plan, p, and
// it APPLIED.
func onlyApplied(t testing.TB, ops []cleanupplan.Operation, p cleanupplan.Plan) {
	t.Helper()
	if len(ops) != 1 || ops[0].PlanID != p.ID() || ops[0].Status != cleanupplan.StatusApplied {
		t.Fatalf("history = %+v, want only plan %s, APPLIED", ops, p.ID())
	}
}

// reaching returns a Request.Progress that closes reached the first time
// step starts.
func reaching(step string) (reached <-chan struct{}, progress func(string, map[string]any)) {
	ch := make(chan struct{})
	var once sync.Once
	return ch, func(s string, _ map[string]any) {
		if s == step {
			once.Do(func() { close(ch) })
		}
	}
}
