package kafkaops_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// connections counts the connections a client opened and the requests it
// wrote, by kind.
type connections struct {
	mu       sync.Mutex
	opened   int
	requests map[string]int
}

func (c *connections) OnBrokerConnect(_ kgo.BrokerMetadata, _ time.Duration, _ net.Conn, err error) {
	if err == nil {
		c.mu.Lock()
		c.opened++
		c.mu.Unlock()
	}
}

func (c *connections) OnBrokerWrite(_ kgo.BrokerMetadata, key int16, _ int, _, _ time.Duration, err error) {
	if err == nil {
		c.mu.Lock()
		c.requests[kmsg.NameForKey(key)]++
		c.mu.Unlock()
	}
}

// eachTxnProtocol runs test under both transaction protocols the provider
// speaks: KIP-890's, which the in-process broker offers, and the classic
// one (Kafka before 4.0, or transaction.version 1).
func eachTxnProtocol(t *testing.T, test func(t *testing.T, newClient func(c *kfake.Cluster, cfg kafkaops.Config) *kafkaops.Client)) {
	for _, classic := range []bool{false, true} {
		name := "KIP-890"
		if classic {
			name = "classic"
		}
		t.Run(name, func(t *testing.T) {
			test(t, func(c *kfake.Cluster, cfg kafkaops.Config) *kafkaops.Client {
				t.Helper()
				cfg.Brokers = c.ListenAddrs()
				if cfg.Timeout == 0 {
					cfg.Timeout = 10 * time.Second
				}
				k, err := kafkaops.New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(k.Close)
				if classic {
					k.ClassicTxns()
				}
				return k
			})
		})
	}
}

// TestTxnProtocolFollowsTheCluster: KIP-890's transactions where the
// cluster finalized them (the in-process broker does), and the classic
// ones when asked for (as on a broker without them).
func TestTxnProtocolFollowsTheCluster(t *testing.T) {
	ctx := context.Background()
	for _, classic := range []bool{false, true} {
		c := newHangCluster(t)
		k, err := kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(k.Close)
		if classic {
			k.ClassicTxns()
		}
		if err := commitOne(ctx, k, hangControl, "x"); err != nil {
			t.Fatal(err)
		}
		if k.TxnV2() == classic {
			t.Errorf("classic asked %v: KIP-890's transactions %v", classic, k.TxnV2())
		}
	}
}

// commitOne appends value to topic in a transaction of its own and commits.
func commitOne(ctx context.Context, k *kafkaops.Client, topic, value string) error {
	txn, err := k.BeginControlTxn(ctx, topic)
	if err != nil {
		return err
	}
	defer txn.Close()
	if err := txn.Append(ctx, []byte("k"), []byte(value)); err != nil {
		return err
	}
	return txn.Commit(ctx)
}

// committedValues is what a read_committed reader sees in topic, in order.
func committedValues(t *testing.T, k *kafkaops.Client, topic string) []string {
	t.Helper()
	var seen []string
	if _, err := k.ReadControlLog(context.Background(), topic, func(r kafkaops.ControlRecord) error {
		seen = append(seen, string(r.Value))
		return nil
	}); err != nil {
		t.Fatalf("reading control topic %s: %v", topic, err)
	}
	return seen
}

// TestControlTxnsShareConnections: the transactions of many control topics
// go over the connections one client already holds. A Kafka client per
// control topic opened three connections for each (a TLS handshake and a
// SASL exchange each on a secured cluster) and asked for metadata twice.
func TestControlTxnsShareConnections(t *testing.T) {
	eachTxnProtocol(t, func(t *testing.T, newClient func(*kfake.Cluster, kafkaops.Config) *kafkaops.Client) {
		const topics = 20
		c, err := kfake.NewCluster(kfake.NumBrokers(1))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		names := make([]string, topics)
		for i := range names {
			names[i] = fmt.Sprintf("control-%d", i)
			if err := c.CreateTopic(names[i], 1, map[string]string{"cleanup.policy": "compact"}); err != nil {
				t.Fatal(err)
			}
		}
		counted := &connections{requests: map[string]int{}}
		k := newClient(c, kafkaops.Config{Hooks: []kgo.Hook{counted}})
		ctx := context.Background()
		for i, name := range names {
			if err := commitOne(ctx, k, name, fmt.Sprint("record ", i)); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		for _, name := range names {
			if seen := committedValues(t, k, name); len(seen) != 1 {
				t.Fatalf("%s: read_committed sees %q, want its one record", name, seen)
			}
		}
		counted.mu.Lock()
		defer counted.mu.Unlock()
		// Two clients (the provider's and the transactions'), each with a
		// seed connection and a broker's connections for its kinds of
		// request.
		if counted.opened > 8 {
			t.Errorf("%d transactions opened %d connections; they should share a handful", topics, counted.opened)
		}
		for kind, most := range map[string]int{"InitProducerID": topics, "EndTxn": topics, "Produce": topics, "ApiVersions": 9} {
			if n := counted.requests[kind]; n > most {
				t.Errorf("%s: %d requests for %d transactions, want at most %d (all: %v)", kind, n, topics, most, counted.requests)
			}
		}
		t.Logf("%d transactions: %d connections, requests %v", topics, counted.opened, counted.requests)
	})
}

// TestAppendSendsTheSameBatchAgain: a leader that answers NOT_LEADER (the
// partition moved) or drops the connection is asked again with the same
// batch, and the record is there once.
func TestAppendSendsTheSameBatchAgain(t *testing.T) {
	for _, tt := range []struct {
		name string
		// refuse installs the refusals and returns how many the broker
		// made, and how many it is to make.
		refuse func(c *kfake.Cluster) (made func() int, want int)
	}{
		{"not the leader", func(c *kfake.Cluster) (func() int, int) {
			h := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Produce}, Topic: hangControl, Partitions: []int32{0}, Err: kerr.NotLeaderForPartition, Count: 2})
			return h.Hits, 2
		}},
		{"connection dropped", func(c *kfake.Cluster) (func() int, int) {
			var dropped atomic.Int32
			c.ControlKey(int16(kmsg.Produce), func(kmsg.Request) (kmsg.Response, error, bool) {
				if dropped.Load() > 0 {
					return nil, nil, false
				}
				dropped.Add(1)
				c.KeepControl()
				return nil, errors.New("dropped"), true // kfake closes the connection
			})
			return func() int { return int(dropped.Load()) }, 1
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			eachTxnProtocol(t, func(t *testing.T, newClient func(*kfake.Cluster, kafkaops.Config) *kafkaops.Client) {
				c := newHangCluster(t)
				k := newClient(c, kafkaops.Config{})
				made, want := tt.refuse(c)
				if err := commitOne(context.Background(), k, hangControl, "once"); err != nil {
					t.Fatal(err)
				}
				if n := made(); n != want {
					t.Fatalf("the broker refused %d produce requests, want %d: the refusal was never met", n, want)
				}
				if records := committedValues(t, k, hangControl); len(records) != 1 || records[0] != "once" {
					t.Fatalf("read_committed sees %q, want the record once", records)
				}
			})
		})
	}
}

// TestBeginWaitsOutConcurrentTransactions: the coordinator answers
// CONCURRENT_TRANSACTIONS while it ends an earlier applier's transaction
// of the same ID; the registration is asked again, not failed.
func TestBeginWaitsOutConcurrentTransactions(t *testing.T) {
	eachTxnProtocol(t, func(t *testing.T, newClient func(*kfake.Cluster, kafkaops.Config) *kafkaops.Client) {
		c := newHangCluster(t)
		k := newClient(c, kafkaops.Config{})
		busy := c.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.InitProducerID}, TopLevel: true, Err: kerr.ConcurrentTransactions, Count: 3})
		if err := commitOne(context.Background(), k, hangControl, "after"); err != nil {
			t.Fatal(err)
		}
		if n := busy.Hits(); n != 3 {
			t.Fatalf("the coordinator refused %d registrations, want 3 before the one that went through", n)
		}
	})
}

// TestAppendAfterTheRegistrationWasReplaced: an applier whose registration
// a newer one replaced before its first append is fenced at that append,
// and nothing it appended becomes visible.
func TestAppendAfterTheRegistrationWasReplaced(t *testing.T) {
	eachTxnProtocol(t, func(t *testing.T, client func(*kfake.Cluster, kafkaops.Config) *kafkaops.Client) {
		c := newHangCluster(t)
		newClient := func() *kafkaops.Client { return client(c, kafkaops.Config{}) }
		ctx := context.Background()
		k := newClient()
		older, err := k.BeginControlTxn(ctx, hangControl)
		if err != nil {
			t.Fatal(err)
		}
		defer older.Close()
		if err := commitOne(ctx, newClient(), hangControl, "newer"); err != nil {
			t.Fatal(err)
		}
		err = older.Append(ctx, []byte("k"), []byte("older"))
		if err == nil {
			err = older.Commit(ctx)
		}
		if !errors.Is(err, kafkaops.ErrFenced) {
			t.Fatalf("the replaced registration's append or commit: %v, want ErrFenced", err)
		}
		if records := committedValues(t, k, hangControl); len(records) != 1 || records[0] != "newer" {
			t.Fatalf("read_committed sees %q, want the newer applier's record only", records)
		}
	})
}
