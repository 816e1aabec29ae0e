package kafkaops_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// minISRControl is a one-broker cluster holding the control topic with one
// replica and the given min.insync.replicas, and a client with timeout.
func minISRControl(t *testing.T, minISR string, timeout time.Duration) (*kfake.Cluster, *kafkaops.Client) {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if err := c.CreateTopic(hangControl, 1, map[string]string{"cleanup.policy": "compact", "min.insync.replicas": minISR}); err != nil {
		t.Fatal(err)
	}
	k, err := kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	return c, k
}

// TestBeginRefusesFewerReplicasThanMinInSync: a control topic with one
// replica and min.insync.replicas=2 (seen on Kafka 3.6.2) can never take an
// acks=all append; the transaction is refused before it registers, naming
// the topic, the setting and the replicas, instead of timing out.
func TestBeginRefusesFewerReplicasThanMinInSync(t *testing.T) {
	c, k := minISRControl(t, "2", 10*time.Second)
	registered := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.InitProducerID}, Observe: true, Count: -1})
	// Refused without waiting for anything: no transactional ID registered
	// (below), and the error is the refusal, not the timeout's.
	_, err := k.BeginControlTxn(context.Background(), hangControl)
	ner, ok := errors.AsType[*kafkaops.NotEnoughReplicasError](err)
	if !ok {
		t.Fatalf("BeginControlTxn: %v, want a NotEnoughReplicasError", err)
	}
	if ner.Topic != hangControl || ner.Partition != 0 || ner.MinInSync != 2 || !slices.Equal(ner.Replicas, []int32{0}) || !ner.Never() {
		t.Errorf("NotEnoughReplicasError %+v, want topic %q partition 0, min.insync.replicas 2, replicas [0], never writable", ner, hangControl)
	}
	if registered.Hits() != 0 {
		t.Errorf("%d InitProducerID requests: the transactional ID was registered (fencing other appliers) for a write that cannot succeed", registered.Hits())
	}
}

// TestAppendNamesTooFewInSyncReplicas: a leader answering NOT_ENOUGH_REPLICAS
// (min.insync.replicas raised after the transaction began) makes franz-go
// retry until the append's timeout; the error then names the cause, not
// only the timeout.
func TestAppendNamesTooFewInSyncReplicas(t *testing.T) {
	const timeout = 2 * time.Second
	c, k := minISRControl(t, "1", timeout)
	ctx := context.Background()
	txn, err := k.BeginControlTxn(ctx, hangControl)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.AlterTopicConfigs(ctx, hangControl, map[string]string{"min.insync.replicas": "2"}, nil); err != nil {
		t.Fatal(err)
	}
	refused := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Produce}, Topic: hangControl, Err: kerr.NotEnoughReplicas, Count: -1})
	err = txn.Append(ctx, []byte("k"), []byte("v"))
	txn.Abort(ctx)
	txn.Close()
	ner, ok := errors.AsType[*kafkaops.NotEnoughReplicasError](err)
	if !ok {
		t.Fatalf("Append: %v, want a NotEnoughReplicasError", err)
	}
	if ner.MinInSync != 2 || len(ner.Replicas) != 1 || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("NotEnoughReplicasError %+v (%v), want min.insync.replicas 2, one replica, wrapping the timeout", ner, err)
	}
	if refused.Hits() == 0 {
		t.Error("the broker never refused a produce: the test did not test anything")
	}
}
