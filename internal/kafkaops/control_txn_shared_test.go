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
			var seen []string
			if _, err := k.ReadControlLog(ctx, name, func(r kafkaops.ControlRecord) error {
				seen = append(seen, string(r.Value))
				return nil
			}); err != nil || len(seen) != 1 {
				t.Fatalf("%s: read_committed sees %q (%v), want its one record", name, seen, err)
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

// refuseTimes makes the broker answer the first n requests of key with
// code (for every partition where the answer has them), then serve them.
func refuseTimes(c *kfake.Cluster, key kmsg.Key, n int32, answer func(kmsg.Request) kmsg.Response) *atomic.Int32 {
	var seen atomic.Int32
	c.ControlKey(int16(key), func(req kmsg.Request) (kmsg.Response, error, bool) {
		if seen.Add(1) > n {
			return nil, nil, false
		}
		c.KeepControl()
		return answer(req), nil, true
	})
	return &seen
}

// TestAppendSendsTheSameBatchAgain: a leader that answers NOT_LEADER (the
// partition moved) or drops the connection is asked again with the same
// batch, and the record is there once.
func TestAppendSendsTheSameBatchAgain(t *testing.T) {
	for _, tt := range []struct {
		name   string
		refuse func(c *kfake.Cluster) *atomic.Int32
	}{
		{"not the leader", func(c *kfake.Cluster) *atomic.Int32 {
			return refuseTimes(c, kmsg.Produce, 2, func(req kmsg.Request) kmsg.Response {
				pr := req.(*kmsg.ProduceRequest)
				resp := pr.ResponseKind().(*kmsg.ProduceResponse)
				resp.Version = pr.Version
				for _, rt := range pr.Topics {
					t := kmsg.NewProduceResponseTopic()
					t.Topic = rt.Topic
					for _, rp := range rt.Partitions {
						p := kmsg.NewProduceResponseTopicPartition()
						p.Partition, p.ErrorCode = rp.Partition, kerr.NotLeaderForPartition.Code
						t.Partitions = append(t.Partitions, p)
					}
					resp.Topics = append(resp.Topics, t)
				}
				return resp
			})
		}},
		{"connection dropped", func(c *kfake.Cluster) *atomic.Int32 {
			var seen atomic.Int32
			c.ControlKey(int16(kmsg.Produce), func(kmsg.Request) (kmsg.Response, error, bool) {
				if seen.Add(1) > 1 {
					return nil, nil, false
				}
				c.KeepControl()
				return nil, errors.New("dropped"), true // kfake closes the connection
			})
			return &seen
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			eachTxnProtocol(t, func(t *testing.T, newClient func(*kfake.Cluster, kafkaops.Config) *kafkaops.Client) {
				c := newHangCluster(t)
				k := newClient(c, kafkaops.Config{})
				ctx := context.Background()
				seen := tt.refuse(c)
				if err := commitOne(ctx, k, hangControl, "once"); err != nil {
					t.Fatal(err)
				}
				if n := seen.Load(); n < 2 {
					t.Fatalf("the broker saw %d produce requests; the refusal was never met", n)
				}
				var records []string
				if _, err := k.ReadControlLog(ctx, hangControl, func(r kafkaops.ControlRecord) error {
					records = append(records, string(r.Value))
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				if len(records) != 1 || records[0] != "once" {
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
		seen := refuseTimes(c, kmsg.InitProducerID, 3, func(req kmsg.Request) kmsg.Response {
			ir := req.(*kmsg.InitProducerIDRequest)
			resp := ir.ResponseKind().(*kmsg.InitProducerIDResponse)
			resp.Version = ir.Version
			resp.ProducerID, resp.ProducerEpoch = -1, -1
			resp.ErrorCode = kerr.ConcurrentTransactions.Code
			return resp
		})
		if err := commitOne(context.Background(), k, hangControl, "after"); err != nil {
			t.Fatal(err)
		}
		if n := seen.Load(); n < 4 {
			t.Fatalf("the coordinator saw %d registrations, want the 3 refused and one more", n)
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
		var records []string
		if _, err := k.ReadControlLog(ctx, hangControl, func(r kafkaops.ControlRecord) error {
			records = append(records, string(r.Value))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(records) != 1 || records[0] != "newer" {
			t.Fatalf("read_committed sees %q, want the newer applier's record only", records)
		}
	})
}
