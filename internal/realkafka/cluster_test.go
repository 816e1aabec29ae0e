//go:build realkafka

package realkafka

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

const (
	clusterParts   = 3
	clusterRecords = 40
	// killedDataPartition is the data partition whose leader the data
	// cases kill.
	killedDataPartition int32 = 1
)

// boundaryOf is the plan every cluster case applies: a different offset
// per partition, so a partition answered for another would show.
func boundaryOf(p int32) int64 { return 10 + 5*int64(p) }

// killPoint is the call of an apply before which a node dies.
type killPoint string

const (
	beforeCommitted   killPoint = "before COMMITTED"
	beforeDelete      killPoint = "between COMMITTED and DeleteRecords"
	beforeAppliedMark killPoint = "before APPLIED"
)

// killer wraps the coordinator's Kafka and kills the leader of one
// partition (control or data) just before the chosen call: an append of a
// COMMITTED record, DeleteRecords, or an append of an APPLIED record. It
// recognises appends (all inside control-topic transactions) by decoding
// the record.
type killer struct {
	cleanup.Kafka
	at    killPoint
	kill  func(ctx context.Context) int32
	once  sync.Once
	fired int32 // node killed, 0 before
}

func (k *killer) maybeKill(ctx context.Context, here killPoint) {
	if here != k.at {
		return
	}
	k.once.Do(func() { k.fired = k.kill(ctx) })
}

func (k *killer) beforeAppend(ctx context.Context, key, value []byte) {
	rec, err := cleanupplan.DecodeRecord(key, value)
	if err != nil {
		return
	}
	switch rec.Status {
	case cleanupplan.StatusCommitted:
		k.maybeKill(ctx, beforeCommitted)
	case cleanupplan.StatusApplied:
		k.maybeKill(ctx, beforeAppliedMark)
	}
}

func (k *killer) BeginControlTxn(ctx context.Context, topic string) (kafkaops.ControlTxn, error) {
	txn, err := k.Kafka.BeginControlTxn(ctx, topic)
	if err != nil {
		return nil, err
	}
	return &killerTxn{ControlTxn: txn, k: k}, nil
}

func (k *killer) DeleteRecords(ctx context.Context, topic string, id kafkaops.TopicID, upTo map[int32]int64) (map[int32]int64, error) {
	k.maybeKill(ctx, beforeDelete)
	return k.Kafka.DeleteRecords(ctx, topic, id, upTo)
}

type killerTxn struct {
	kafkaops.ControlTxn
	k *killer
}

func (t *killerTxn) Append(ctx context.Context, key, value []byte) error {
	t.k.beforeAppend(ctx, key, value)
	return t.ControlTxn.Append(ctx, key, value)
}

// clusterEnv is the three-node layout of scripts/kafka/start-cluster.sh.
type clusterEnv struct {
	env     brokerEnv
	workdir string
	scripts string
	brokers []string
	cl      *kgo.Client
	ops     *kafkaops.Client
}

func newClusterEnv(t *testing.T) *clusterEnv {
	env := loadEnv(t, "cluster")
	c := &clusterEnv{env: env, workdir: env.get(t, "KAFKA_WORKDIR"), scripts: scriptsDir(t),
		brokers: strings.Split(env.get(t, "KAFKA_BOOTSTRAP_SERVERS"), ",")}
	if ids := strings.Fields(env.get(t, "KAFKA_NODE_IDS")); len(ids) != 3 {
		t.Fatalf("the cluster tests need 3 nodes, env.sh lists %v", ids)
	}
	c.cl, _, c.ops = env.superClient(t)
	return c
}

// client is what one terraform run would have: a fresh connection pool.
func (c *clusterEnv) client(t *testing.T) *kafkaops.Client {
	t.Helper()
	k, err := kafkaops.New(kafkaops.Config{Brokers: c.brokers, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	return k
}

func (c *clusterEnv) script(t *testing.T, name string, args ...string) {
	t.Helper()
	t0 := time.Now()
	out, err := exec.Command(c.scripts+"/"+name, append([]string{c.workdir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	t.Logf("%s %v took %s", name, args, time.Since(t0).Round(100*time.Millisecond))
}

// leaderOf asks the cluster (not a cache) who leads topic/partition.
func (c *clusterEnv) leaderOf(ctx context.Context, t *testing.T, topic string, p int32) int32 {
	tp, err := c.ops.DescribeTopic(ctx, topic)
	if err != nil {
		t.Errorf("finding the leader of %s/%d: %v", topic, p, err)
		return -1
	}
	return tp.Leaders[p]
}

// waitFullISR waits until every partition of the topics has all three
// replicas in sync again (a restarted node caught up).
func (c *clusterEnv) waitFullISR(t *testing.T, topics ...string) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		req := kmsg.NewPtrMetadataRequest()
		for _, name := range topics {
			rt := kmsg.NewMetadataRequestTopic()
			rt.Topic = kmsg.StringPtr(name)
			req.Topics = append(req.Topics, rt)
		}
		resp, err := req.RequestWith(context.Background(), c.cl)
		full := err == nil
		if full {
			for _, rt := range resp.Topics {
				for _, rp := range rt.Partitions {
					if rp.ErrorCode != 0 || len(rp.ISR) != 3 || rp.Leader < 0 {
						full = false
					}
				}
			}
		}
		if full {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("ISR of %v not back to 3 replicas within 90s (%v)", topics, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// TestClusterLeaderFailuresDuringApply kills, at each step of an apply, the
// leader of the control partition or of a data partition (SIGKILL, no
// controlled shutdown). Whatever the first apply says, a second apply
// (the node still down) must converge to APPLIED; after the node is back and
// in sync, every replica must agree on the boundary.
func TestClusterLeaderFailuresDuringApply(t *testing.T) {
	c := newClusterEnv(t)
	for _, target := range []string{"control", "data"} {
		for _, at := range []killPoint{beforeCommitted, beforeDelete, beforeAppliedMark} {
			t.Run(target+" leader killed "+strings.ReplaceAll(string(at), " ", "_"), func(t *testing.T) {
				runKillCase(t, c, target, at)
			})
		}
	}
}

func runKillCase(t *testing.T, c *clusterEnv, target string, at killPoint) {
	ctx := context.Background()
	t0 := time.Now()
	dataCfg := map[string]string{"min.insync.replicas": "2"}
	for k, v := range cleanup.DataTopicSettings {
		dataCfg[k] = v
	}
	data, control := uniqueName("cluster-action-state"), uniqueName("cluster-control")
	topicID := createTopic(t, c.ops, data, clusterParts, 3, dataCfg)
	createTopic(t, c.ops, control, 1, 3, map[string]string{cleanup.ConfigCleanupPolicy: "compact", "min.insync.replicas": "2"})
	produce(t, c.cl, data, clusterParts, clusterRecords)

	offs := cleanupplan.Offsets{}
	for p := range int32(clusterParts) {
		offs[p] = boundaryOf(p)
	}
	plan, err := cleanupplan.New("file:/checkpoints/cluster/chk-1", data, topicID, offs)
	if err != nil {
		t.Fatal(err)
	}
	req := cleanup.Request{Plan: plan, ControlTopic: control, ExpectedTopic: data}

	k := &killer{Kafka: c.client(t), at: at, kill: func(ctx context.Context) int32 {
		topic, p := control, int32(0)
		if target == "data" {
			topic, p = data, killedDataPartition
		}
		leader := c.leaderOf(ctx, t, topic, p)
		if leader < 0 {
			return 0
		}
		t.Logf("killing node %d, leader of %s/%d, %s", leader, topic, p, at)
		c.script(t, "kill-node.sh", strconv.Itoa(int(leader)))
		return leader
	}}
	res, firstErr := cleanup.Apply(ctx, k, req)
	if k.fired == 0 {
		t.Fatalf("the apply never reached %q (first apply: %+v, %v)", at, res, firstErr)
	}
	down := k.fired
	t.Logf("first apply (node %d killed %s): %+v, err: %v", down, at, res, firstErr)
	defer func() {
		if down != 0 {
			// Leave the cluster whole for the next case.
			c.script(t, "restart-node.sh", strconv.Itoa(int(down)))
		}
	}()

	// A new terraform run while the node is still down: two of three
	// replicas satisfy min.insync.replicas=2, so it must finish.
	second, err := cleanup.Apply(ctx, c.client(t), req)
	if err != nil {
		t.Fatalf("second apply with node %d down (first apply said: %v): %v", down, firstErr, err)
	}
	t.Logf("second apply: resumed=%v already_applied=%v", second.Resumed, second.AlreadyApplied)
	checkApplied(t, c.client(t), control, plan)

	// Bring the node back; once it is in sync, every replica must hold
	// exactly the records at and above the boundary.
	c.script(t, "restart-node.sh", strconv.Itoa(int(down)))
	down = 0
	c.waitFullISR(t, data, control)
	if third, err := cleanup.Apply(ctx, c.client(t), req); err != nil || !third.AlreadyApplied {
		t.Fatalf("apply after the node's return: %+v, %v (want already applied)", third, err)
	}
	checkApplied(t, c.client(t), control, plan)
	checkReplicas(t, c, data, plan.Offsets)
	t.Logf("case took %s", time.Since(t0).Round(time.Second))
}

// checkApplied requires the plan APPLIED, nothing left COMMITTED, and the
// start offsets (as the leaders report them) at the boundary.
func checkApplied(t *testing.T, k *kafkaops.Client, control string, plan cleanupplan.Plan) {
	t.Helper()
	log, err := cleanup.History(context.Background(), k, control)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range log.Operations() {
		if op.Status != cleanupplan.StatusApplied {
			t.Fatalf("plan %s left %s", op.PlanID, op.Status)
		}
	}
	if op, ok := log.Lookup(plan.ID()); !ok || op.Status != cleanupplan.StatusApplied {
		t.Fatalf("plan not APPLIED: %+v", op)
	}
	starts, err := k.StartOffsets(context.Background(), plan.Topic)
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range plan.Offsets {
		if starts[p] != want {
			t.Fatalf("partition %d starts at %d, want the boundary %d", p, starts[p], want)
		}
	}
}

// checkReplicas asks every replica of every partition, each broker
// directly, and requires all of them to agree with the boundary:
//
//   - ListOffsets(EARLIEST) with replica ID -2 (Kafka's "debugging
//     consumer", which a follower answers instead of NOT_LEADER) returns
//     that replica's own log start offset: it must equal the boundary, so
//     no replica still serves anything below it;
//   - a Fetch at boundary-1 sent to that replica must be refused with
//     OFFSET_OUT_OF_RANGE (followers serve consumer fetches since KIP-392,
//     Fetch v11), the same fact seen through the read path;
//   - a Fetch from the boundary must return every record up to the high
//     watermark with the value it was produced with.
//
// Kafka removes segment files below the log start offset asynchronously,
// but it never serves them; the log start offset is what the runtime, a
// consumer and a future leader see, so it is the right thing to compare.
func checkReplicas(t *testing.T, c *clusterEnv, topic string, boundary cleanupplan.Offsets) {
	t.Helper()
	ctx := context.Background()
	md := kmsg.NewPtrMetadataRequest()
	rt := kmsg.NewMetadataRequestTopic()
	rt.Topic = kmsg.StringPtr(topic)
	md.Topics = append(md.Topics, rt)
	resp, err := md.RequestWith(ctx, c.cl)
	if err != nil || len(resp.Topics) != 1 {
		t.Fatalf("metadata for %s: %v", topic, err)
	}
	tp := resp.Topics[0]
	for _, part := range tp.Partitions {
		want := boundary[part.Partition]
		if len(part.Replicas) != 3 {
			t.Fatalf("partition %d has replicas %v, want 3", part.Partition, part.Replicas)
		}
		for _, replica := range part.Replicas {
			role := "follower"
			if replica == part.Leader {
				role = "leader"
			}
			// A returning follower learns the leader's log start offset
			// from its fetch responses; give it a few rounds.
			var start int64
			first, t0 := int64(-1), time.Now()
			for {
				start, err = replicaStartOffset(ctx, c.cl, replica, topic, part.Partition)
				if err == nil && first < 0 {
					first = start
				}
				if err == nil && start == want || time.Since(t0) > 30*time.Second {
					break
				}
				time.Sleep(200 * time.Millisecond)
			}
			if first >= 0 && first != want {
				t.Logf("partition %d: %s %d started at %d and reached the boundary %d after %s",
					part.Partition, role, replica, first, want, time.Since(t0).Round(10*time.Millisecond))
			}
			if err != nil {
				t.Fatalf("partition %d, %s %d: log start offset: %v", part.Partition, role, replica, err)
			}
			if start != want {
				t.Errorf("partition %d: %s %d starts at %d, the boundary is %d", part.Partition, role, replica, start, want)
				continue
			}
			if _, err := fetchFrom(ctx, c.cl, replica, tp.TopicID, part.Partition, want-1); !errors.Is(err, kerr.OffsetOutOfRange) {
				t.Errorf("partition %d: %s %d answers a fetch at %d (below the boundary) with %v, want OFFSET_OUT_OF_RANGE", part.Partition, role, replica, want-1, err)
			}
			recs, err := fetchAll(ctx, c.cl, replica, tp.TopicID, part.Partition, want, clusterRecords)
			if err != nil {
				t.Errorf("partition %d: %s %d: %v", part.Partition, role, replica, err)
				continue
			}
			for i, r := range recs {
				off := want + int64(i)
				if r.Offset != off || string(r.Value) != string(recordValue(part.Partition, off)) {
					t.Errorf("partition %d: %s %d holds %q at offset %d, want %q at %d", part.Partition, role, replica, r.Value, r.Offset, recordValue(part.Partition, off), off)
					break
				}
			}
		}
	}
}

// debuggingReplicaID makes a follower answer ListOffsets with its own log
// (Kafka's ListOffsetsRequest.DEBUGGING_REPLICA_ID).
const debuggingReplicaID = -2

func replicaStartOffset(ctx context.Context, cl *kgo.Client, broker int32, topic string, p int32) (int64, error) {
	req := kmsg.NewPtrListOffsetsRequest()
	req.ReplicaID = debuggingReplicaID
	rt := kmsg.NewListOffsetsRequestTopic()
	rt.Topic = topic
	rp := kmsg.NewListOffsetsRequestTopicPartition()
	rp.Partition = p
	rp.Timestamp = -2 // earliest
	rp.CurrentLeaderEpoch = -1
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, cl.Broker(int(broker)))
	if err != nil {
		return 0, err
	}
	if len(resp.Topics) != 1 || len(resp.Topics[0].Partitions) != 1 {
		return 0, fmt.Errorf("broker %d did not answer for %s/%d", broker, topic, p)
	}
	got := resp.Topics[0].Partitions[0]
	if err := kerr.ErrorForCode(got.ErrorCode); err != nil {
		return 0, err
	}
	return got.Offset, nil
}

// fetchFrom fetches once from one replica, retrying only transport errors
// (a connection to a node that restarted since it was opened fails once).
func fetchFrom(ctx context.Context, cl *kgo.Client, broker int32, topicID [16]byte, p int32, offset int64) ([]*kgo.Record, error) {
	deadline := time.Now().Add(15 * time.Second)
	for {
		recs, err := fetchOnce(ctx, cl, broker, topicID, p, offset)
		var kafkaErr *kerr.Error
		if err == nil || errors.As(err, &kafkaErr) || time.Now().After(deadline) {
			return recs, err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func fetchOnce(ctx context.Context, cl *kgo.Client, broker int32, topicID [16]byte, p int32, offset int64) ([]*kgo.Record, error) {
	req := kmsg.NewPtrFetchRequest()
	req.ReplicaID = -1
	req.MaxWaitMillis = 0
	req.MinBytes = 1
	req.MaxBytes = 1 << 20
	req.SessionEpoch = -1
	rt := kmsg.NewFetchRequestTopic()
	rt.TopicID = topicID
	rp := kmsg.NewFetchRequestTopicPartition()
	rp.Partition = p
	rp.FetchOffset = offset
	rp.CurrentLeaderEpoch = -1
	rp.LogStartOffset = -1
	rp.PartitionMaxBytes = 1 << 20
	rt.Partitions = append(rt.Partitions, rp)
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, cl.Broker(int(broker)))
	if err != nil {
		return nil, err
	}
	if err := kerr.ErrorForCode(resp.ErrorCode); err != nil {
		return nil, err
	}
	if len(resp.Topics) != 1 || len(resp.Topics[0].Partitions) != 1 {
		return nil, fmt.Errorf("broker %d did not answer the fetch for partition %d", broker, p)
	}
	fp, _ := kgo.ProcessFetchPartition(kgo.ProcessFetchPartitionOpts{Offset: offset, Partition: p}, &resp.Topics[0].Partitions[0], kgo.DefaultDecompressor(), nil)
	if fp.Err != nil {
		return nil, fp.Err
	}
	return fp.Records, nil
}

// fetchAll reads [from, end) from one replica.
func fetchAll(ctx context.Context, cl *kgo.Client, broker int32, topicID [16]byte, p int32, from, end int64) ([]*kgo.Record, error) {
	var out []*kgo.Record
	for next := from; next < end; {
		recs, err := fetchFrom(ctx, cl, broker, topicID, p, next)
		if err != nil {
			return out, fmt.Errorf("fetch at %d: %w", next, err)
		}
		recs = slices.DeleteFunc(recs, func(r *kgo.Record) bool { return r.Offset < next })
		if len(recs) == 0 {
			return out, fmt.Errorf("no records at %d of %d", next, end)
		}
		out = append(out, recs...)
		next = recs[len(recs)-1].Offset + 1
	}
	return out, nil
}

// TestClusterCreateTopicVisibleEverywhere: kafkaops.CreateTopic returns once
// the topic is visible in metadata, so the resources can read a topic right
// after creating it. On a multi-broker cluster "visible" must hold for
// every broker: the next Metadata request may go to another one, whose
// cache can still lag behind the controller.
func TestClusterCreateTopicVisibleEverywhere(t *testing.T) {
	c := newClusterEnv(t)
	ctx := context.Background()
	const n = 60
	var misses []string
	for i := range n {
		name := uniqueName("visible")
		if _, err := c.ops.CreateTopic(ctx, name, 1, 3, nil); err != nil {
			t.Fatal(err)
		}
		// What a resource's Create does next.
		if _, err := c.ops.DescribeTopic(ctx, name); err != nil {
			misses = append(misses, fmt.Sprintf("topic %d: %v", i, err))
		}
	}
	if len(misses) > 0 {
		t.Fatalf("DescribeTopic right after CreateTopic returned failed for %d of %d topics; first: %s", len(misses), n, misses[0])
	}
}
