//go:build realkafka

package realkafka

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// brokerAbortInterval is Kafka's default
// transaction.abort.timed.out.transaction.cleanup.interval.ms: how often
// the coordinator looks for expired transactions. scripts/kafka keeps the
// default, as production brokers do.
const brokerAbortInterval = 10 * time.Second

const killedApplierEnv = "FLINKAGENTS_TEST_KILLED_APPLIER"

// TestSingleKilledApplierTransactionIsAborted: an applier killed (SIGKILL)
// between its append and its commit leaves a transaction open, which holds
// the control partition's last stable offset back: a Java-tool apply
// started in that window cannot see its own COMMITTED. The coordinator must
// abort it within the control transaction timeout plus its check interval.
func TestSingleKilledApplierTransactionIsAborted(t *testing.T) {
	if os.Getenv(killedApplierEnv) != "" {
		runKilledApplier() // the child: never returns
	}
	env := loadEnv(t, "single")
	_, adm, ops := env.superClient(t)
	control := uniqueName("killed-applier-control")
	createTopic(t, ops, control, 1, 1, map[string]string{cleanup.ConfigCleanupPolicy: "compact"})

	cmd := exec.Command(os.Args[0], "-test.run=^TestSingleKilledApplierTransactionIsAborted$")
	cmd.Env = append(os.Environ(), killedApplierEnv+"="+env.get(t, "KAFKA_BOOTSTRAP_SERVERS")+"|"+control)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	werr := cmd.Wait()
	killedAt := time.Now()
	var ee *exec.ExitError
	if !errors.As(werr, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the applier was meant to die by SIGKILL mid-transaction; it ended with %v after printing %q", werr, line)
	}
	appended, err := strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(line, "appended at ")), 10, 64)
	if err != nil {
		t.Fatalf("the applier did not report its append: %q", line)
	}

	bound := kafkaops.ControlTxnTimeout + brokerAbortInterval + 5*time.Second
	for {
		lso := committedEnd(t, adm, control)
		if lso > appended {
			took := time.Since(killedAt)
			t.Logf("transaction timeout %s: the killed applier's transaction was aborted %.1fs after the kill (last stable offset %d)",
				kafkaops.ControlTxnTimeout, took.Seconds(), lso)
			break
		}
		if time.Since(killedAt) > bound {
			t.Fatalf("the killed applier's transaction still holds the last stable offset at %d (record at %d) %s after the kill", lso, appended, bound)
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Aborted, not committed: read_committed readers never see the record.
	n := 0
	if _, err := ops.ReadControlLog(context.Background(), control, func(kafkaops.ControlRecord) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("read_committed readers see %d records of the killed applier's transaction", n)
	}
}

// runKilledApplier appends inside a control transaction, reports the
// offset, and dies before committing.
func runKilledApplier() {
	brokers, control, _ := strings.Cut(os.Getenv(killedApplierEnv), "|")
	k, err := kafkaops.New(kafkaops.Config{Brokers: strings.Split(brokers, ","), Timeout: 20 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	ctx := context.Background()
	txn, err := k.BeginControlTxn(ctx, control)
	if err == nil {
		err = txn.Append(ctx, []byte("killed"), []byte("never committed"))
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	end, err := kadm.NewClient(mustClient(brokers)).ListEndOffsets(ctx, control)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	o, _ := end.Lookup(control, 0)
	fmt.Printf("appended at %d\n", o.Offset-1)
	_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
	select {}
}

func mustClient(brokers string) *kgo.Client {
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(brokers, ",")...))
	if err != nil {
		panic(err)
	}
	return cl
}

// committedEnd is the control partition's last stable offset.
func committedEnd(t *testing.T, adm *kadm.Client, topic string) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	l, err := adm.ListCommittedOffsets(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	o, ok := l.Lookup(topic, 0)
	if !ok || o.Err != nil {
		t.Fatalf("last stable offset of %s: %v", topic, o.Err)
	}
	return o.Offset
}

// freezeOnProduce stops the broker (SIGSTOP: connections stay open, nothing
// answers) right after the first Produce request is written to it.
type freezeOnProduce struct {
	pid    int
	armed  chan struct{}
	once   sync.Once
	frozen chan struct{}
}

func (f *freezeOnProduce) OnBrokerWrite(_ kgo.BrokerMetadata, key int16, _ int, _, _ time.Duration, err error) {
	if key != int16(kmsg.Produce) || err != nil {
		return
	}
	select {
	case <-f.armed:
	default:
		return
	}
	f.once.Do(func() {
		_ = syscall.Kill(f.pid, syscall.SIGSTOP)
		close(f.frozen)
	})
}

// TestSingleFrozenBrokerDuringCommit: the broker stops answering while the
// COMMITTED record is in flight (measured before this fix: apply waited 676
// s, until the broker came back). The apply must end within the provider's
// timeout plus a margin, record nothing, and the next apply must converge.
func TestSingleFrozenBrokerDuringCommit(t *testing.T) {
	env := loadEnv(t, "single")
	pid, err := strconv.Atoi(env.get(t, "KAFKA_PID"))
	if err != nil {
		t.Fatal(err)
	}
	cl, _, ops := env.superClient(t)
	data, control := uniqueName("frozen-data"), uniqueName("frozen-control")
	topicID := createTopic(t, ops, data, 2, 1, cleanup.DataTopicSettings)
	createTopic(t, ops, control, 1, 1, map[string]string{cleanup.ConfigCleanupPolicy: "compact"})
	produce(t, cl, data, 2, 20)
	plan, err := cleanupplan.New("file:/frozen/chk-1", data, topicID, cleanupplan.Offsets{0: 10, 1: 10})
	if err != nil {
		t.Fatal(err)
	}

	freeze := &freezeOnProduce{pid: pid, armed: make(chan struct{}), frozen: make(chan struct{})}
	thaw := func() { _ = syscall.Kill(pid, syscall.SIGCONT) }
	t.Cleanup(thaw) // never leave the shared broker stopped
	const timeout = 3 * time.Second
	k, err := kafkaops.New(kafkaops.Config{Brokers: strings.Split(env.get(t, "KAFKA_BOOTSTRAP_SERVERS"), ","),
		Timeout: timeout, Hooks: []kgo.Hook{freeze}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)

	close(freeze.armed)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // the resource's timeouts block
	defer cancel()
	start := time.Now()
	_, err = cleanup.Apply(ctx, k, cleanup.Request{Plan: plan, ControlTopic: control})
	took := time.Since(start)
	select {
	case <-freeze.frozen:
	default:
		t.Fatalf("the broker was never frozen (apply returned %v)", err)
	}
	thaw()
	if err == nil {
		t.Fatal("apply succeeded against a frozen broker")
	}
	// Until the COMMITTED append the apply made a dozen quick requests; the
	// append itself may wait one provider timeout.
	if took > 2*timeout+5*time.Second {
		t.Fatalf("apply took %s against a frozen broker with timeout %s", took, timeout)
	}
	t.Logf("apply against a frozen broker ended after %.1fs (timeout %s): %v", took.Seconds(), timeout, err)

	// The broker is back: the same apply converges.
	k2, err := kafkaops.New(kafkaops.Config{Brokers: strings.Split(env.get(t, "KAFKA_BOOTSTRAP_SERVERS"), ","), Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k2.Close)
	res, err := cleanup.Apply(context.Background(), k2, cleanup.Request{Plan: plan, ControlTopic: control})
	if err != nil {
		t.Fatalf("re-apply after the broker returned: %v", err)
	}
	starts, err := k2.StartOffsets(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	if starts[0] != 10 || starts[1] != 10 || res.AlreadyApplied {
		t.Fatalf("after re-apply: start offsets %v, result %+v", starts, res)
	}
}
