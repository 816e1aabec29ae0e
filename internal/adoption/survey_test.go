package adoption_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"

	"github.com/actionstate/terraform-provider-flinkagents/internal/adoption"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// runtimeCluster is a cluster as a team adopting the provider has it: the
// runtime's store made the action-state topics (compaction only), control
// topics hold boundaries (one behind an aborted transaction, one only a
// tombstone), one is new and empty, and other teams' topics sit beside
// them, one of them a one-partition topic of other records.
func runtimeCluster(t *testing.T, producer []kgo.Opt, opts ...kfake.Opt) (*kfake.Cluster, *kgo.Client) {
	t.Helper()
	c, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1), kfake.SeedTopics(-1, "__consumer_offsets")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	for _, tp := range []struct {
		name       string
		partitions int32
	}{{"agents-a", 4}, {"agents-b", 4}, {"agents-c", 1}, {"agents-a-control", 1}, {"agents-b-control", 1}, {"agents-c-control", 1}, {"agents-new-control", 1}, {"billing", 3}, {"billing-log", 1}} {
		if err := c.CreateTopic(tp.name, tp.partitions, map[string]string{"cleanup.policy": "compact"}); err != nil {
			t.Fatal(err)
		}
	}
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(c.ListenAddrs()...), kgo.TransactionalID("t")}, producer...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	ctx := context.Background()
	plan := func(topic string) cleanupplan.Plan {
		p, err := cleanupplan.New("s3://ckpt/"+topic+"/chk-7", topic, "AAAAAAAAAAAAAAAAAAAAAQ", cleanupplan.Offsets{0: 5})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	produce := func(commit bool, recs ...*kgo.Record) {
		if err := cl.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
			t.Fatal(err)
		}
		if err := cl.EndTransaction(ctx, kgo.TransactionEndTry(commit)); err != nil {
			t.Fatal(err)
		}
	}
	control := func(topic string, status cleanupplan.Status, p cleanupplan.Plan) *kgo.Record {
		k, v := cleanupplan.EncodeRecord(status, p)
		return &kgo.Record{Topic: topic, Key: k, Value: v}
	}
	produce(false, control("agents-b-control", cleanupplan.StatusCommitted, plan("agents-b")), &kgo.Record{Topic: "billing-log", Value: []byte("x")})
	produce(true, control("agents-a-control", cleanupplan.StatusCommitted, plan("agents-a")), control("agents-a-control", cleanupplan.StatusApplied, plan("agents-a")))
	produce(true, control("agents-b-control", cleanupplan.StatusCommitted, plan("agents-b")))
	produce(true, &kgo.Record{Topic: "agents-c-control", Key: []byte(plan("agents-c").ID())})
	produce(true, &kgo.Record{Topic: "billing-log", Key: []byte("invoice-1"), Value: []byte(`{"amount":3}`)})
	produce(true, &kgo.Record{Topic: "agents-a", Key: []byte("k"), Value: []byte("state")}, &kgo.Record{Topic: "agents-c", Key: []byte("k"), Value: []byte("state")})
	return c, cl
}

func client(t *testing.T, c *kfake.Cluster, opts ...func(*kafkaops.Config)) *kafkaops.Client {
	t.Helper()
	cfg := kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: 10 * time.Second}
	for _, o := range opts {
		o(&cfg)
	}
	k, err := kafkaops.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	return k
}

func names(found []adoption.Found) []string {
	var out []string
	for _, f := range found {
		out = append(out, f.Topic.Name)
	}
	return out
}

func TestTakeSortsTopicsByWhatTheyHold(t *testing.T) {
	c, _ := runtimeCluster(t, nil)
	k := client(t, c)
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		filter adoption.Filter
		kind   adoption.Kind
		want   []string
	}{
		// Without a filter a control topic is known by its records only:
		// the new, empty one is not told apart from any other topic.
		{"control, no filter", adoption.Filter{}, adoption.ControlTopics, []string{"agents-a-control", "agents-b-control", "agents-c-control"}},
		{"control, by prefix", adoption.Filter{Prefix: "agents-"}, adoption.ControlTopics, []string{"agents-a-control", "agents-b-control", "agents-c-control", "agents-new-control"}},
		{"control, by regex", adoption.Filter{Regex: regexp.MustCompile(`-control$`)}, adoption.ControlTopics, []string{"agents-a-control", "agents-b-control", "agents-c-control", "agents-new-control"}},
		// billing-log has one partition but other records: never a control topic.
		{"control, matching a data topic", adoption.Filter{Prefix: "billing"}, adoption.ControlTopics, nil},
		{"action-state, no filter", adoption.Filter{}, adoption.ActionStateTopics, []string{"agents-a", "agents-b", "agents-c", "agents-new-control", "billing", "billing-log"}},
		{"action-state, filtered", adoption.Filter{Prefix: "agents-", Regex: regexp.MustCompile(`^agents-[a-z]$`)}, adoption.ActionStateTopics, []string{"agents-a", "agents-b", "agents-c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			found, err := adoption.Take(ctx, k, tc.filter, tc.kind)
			if err != nil {
				t.Fatal(err)
			}
			if got := names(found); !slices.Equal(got, tc.want) {
				t.Fatalf("listed %q, want %q", got, tc.want)
			}
			for _, f := range found {
				if f.Err != nil {
					t.Errorf("%s: %v", f.Topic.Name, f.Err)
				}
				if f.Configs["cleanup.policy"].Value != "compact" || f.Topic.ReplicationFactor != 1 || f.Topic.ID == ([16]byte{}) {
					t.Errorf("%s: read as %+v with cleanup.policy %q", f.Topic.Name, f.Topic, f.Configs["cleanup.policy"].Value)
				}
			}
		})
	}
	found, err := adoption.Take(ctx, k, adoption.Filter{Prefix: "agents-"}, adoption.ControlTopics)
	if err != nil {
		t.Fatal(err)
	}
	var serves []string
	for _, f := range found {
		serves = append(serves, fmt.Sprintf("%s:%s:%v", f.Topic.Name, f.Serves, f.Empty))
	}
	// agents-b-control's first record was aborted: the committed one after it names the pairing.
	want := []string{"agents-a-control:agents-a:false", "agents-b-control:agents-b:false", "agents-c-control::false", "agents-new-control::true"}
	if !slices.Equal(serves, want) {
		t.Fatalf("pairings %q, want %q", serves, want)
	}
}

// TestTakeNamesAMissingDescribePermission: Kafka leaves out of a listing
// every topic the principal may not describe, so a principal without
// DESCRIBE sees an empty cluster. Take tells that apart from a cluster
// without topics.
func TestTakeNamesAMissingDescribePermission(t *testing.T) {
	admin := plain.Auth{User: "admin", Pass: "admin"}.AsMechanism()
	c, _ := runtimeCluster(t, []kgo.Opt{kgo.SASL(admin)}, kfake.EnableSASL(), kfake.EnableACLs(),
		kfake.Superuser("PLAIN", "admin", "admin"), kfake.User("PLAIN", "reader", "reader"))
	sasl := func(user string) func(*kafkaops.Config) {
		return func(cfg *kafkaops.Config) { cfg.SASL = plain.Auth{User: user, Pass: user}.AsMechanism() }
	}
	_, err := adoption.Take(context.Background(), client(t, c, sasl("reader")), adoption.Filter{Prefix: "agents-"}, adoption.ActionStateTopics)
	if !errors.Is(err, adoption.ErrNoDescribe) {
		t.Fatalf("got %v, want ErrNoDescribe", err)
	}
	found, err := adoption.Take(context.Background(), client(t, c, sasl("admin")), adoption.Filter{Prefix: "agents-"}, adoption.ActionStateTopics)
	if err != nil || len(found) != 4 {
		t.Fatalf("admin listed %q, %v", names(found), err)
	}
}
