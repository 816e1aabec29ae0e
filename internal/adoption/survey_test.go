package adoption_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
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
			if got := names(found.Found); !slices.Equal(got, tc.want) {
				t.Fatalf("listed %q, want %q", got, tc.want)
			}
			for _, f := range found.Found {
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
	for _, f := range found.Found {
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
	if err != nil || len(found.Found) != 4 {
		t.Fatalf("admin listed %q, %v", names(found.Found), err)
	}
}

// TestTakeFindsControlRecordsAnywhere: a control topic is a topic holding a
// control record at any offset, not only as its first record. A topic
// whose first record is garbage, or a tombstone of a foreign key, with
// COMMITTED and APPLIED after it, is a control topic; so is a large one
// whose control record sits at its end. Listed as an action-state topic,
// any of them would get compact,delete and stop its job from restoring.
func TestTakeFindsControlRecordsAnywhere(t *testing.T) {
	c, cl := runtimeCluster(t, nil)
	ctx := context.Background()
	for _, name := range []string{"agents-x-control", "agents-y-control", "agents-big", "agents-z"} {
		if err := c.CreateTopic(name, 1, map[string]string{"cleanup.policy": "compact"}); err != nil {
			t.Fatal(err)
		}
	}
	p, err := cleanupplan.New("s3://ckpt/agents-x/chk-9", "agents-x", "AAAAAAAAAAAAAAAAAAAAAQ", cleanupplan.Offsets{0: 5})
	if err != nil {
		t.Fatal(err)
	}
	committed := func(topic string) *kgo.Record {
		k, v := cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, p)
		return &kgo.Record{Topic: topic, Key: k, Value: v}
	}
	applied := func(topic string) *kgo.Record {
		k, v := cleanupplan.EncodeRecord(cleanupplan.StatusApplied, p)
		return &kgo.Record{Topic: topic, Key: k, Value: v}
	}
	produce := func(recs ...*kgo.Record) {
		t.Helper()
		if err := cl.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
			t.Fatal(err)
		}
		if err := cl.EndTransaction(ctx, kgo.TryCommit); err != nil {
			t.Fatal(err)
		}
	}
	produce(&kgo.Record{Topic: "agents-x-control", Key: []byte("k"), Value: []byte{0xde, 0xad}}, committed("agents-x-control"), applied("agents-x-control"))
	produce(&kgo.Record{Topic: "agents-y-control", Key: []byte("invoice-1")}, committed("agents-y-control"))
	state := make([]byte, 64<<10)
	for range 3 * adoption.SurveyScan.HeadBytes / int64(len(state)) {
		produce(&kgo.Record{Topic: "agents-big", Key: []byte("k"), Value: state}, &kgo.Record{Topic: "agents-z", Key: []byte("k"), Value: []byte("state")})
	}
	produce(committed("agents-big"))

	k := client(t, c)
	data, err := adoption.Take(ctx, k, adoption.Filter{}, adoption.ActionStateTopics)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names(data.Found) {
		if name == "agents-x-control" || name == "agents-y-control" || name == "agents-big" {
			t.Errorf("%s holds control records but is listed as an action-state topic", name)
		}
	}
	if !slices.Contains(names(data.Found), "agents-z") {
		t.Errorf("agents-z holds action state only but is not listed as an action-state topic: %q", names(data.Found))
	}
	control, err := adoption.Take(ctx, k, adoption.Filter{}, adoption.ControlTopics)
	if err != nil {
		t.Fatal(err)
	}
	var serves []string
	for _, f := range control.Found {
		serves = append(serves, f.Topic.Name+":"+f.Serves)
	}
	want := []string{"agents-a-control:agents-a", "agents-b-control:agents-b", "agents-big:agents-x", "agents-c-control:", "agents-x-control:agents-x", "agents-y-control:agents-x"}
	if !slices.Equal(serves, want) {
		t.Fatalf("control topics %q, want %q", serves, want)
	}
	if len(data.Untold)+len(control.Untold) != 0 {
		t.Fatalf("untold: %v %v", data.Untold, control.Untold)
	}
}

// TestTakeListsUnreadableTopicsAsNeither: a one-partition topic the
// principal may describe but not READ cannot be told apart; it is in
// neither list, named in Untold with the broker's refusal.
func TestTakeListsUnreadableTopicsAsNeither(t *testing.T) {
	admin := plain.Auth{User: "admin", Pass: "admin"}.AsMechanism()
	c, _ := runtimeCluster(t, []kgo.Opt{kgo.SASL(admin)}, kfake.EnableSASL(), kfake.EnableACLs(),
		kfake.Superuser("PLAIN", "admin", "admin"), kfake.User("PLAIN", "lister", "lister"))
	adm := kadm.NewClient(mustClient(t, c, admin))
	for _, tc := range []struct {
		topics []string
		ops    []kadm.ACLOperation
	}{
		{[]string{"agents-"}, []kadm.ACLOperation{kadm.OpDescribe, kadm.OpDescribeConfigs}},
		{[]string{"agents-a", "agents-b", "agents-c", "agents-b-control", "agents-c-control", "agents-new-control"}, []kadm.ACLOperation{kadm.OpRead}},
	} {
		pattern := kadm.ACLPatternLiteral
		if len(tc.topics) == 1 {
			pattern = kadm.ACLPatternPrefixed
		}
		b := kadm.NewACLs().Allow("User:lister").AllowHosts("*").Topics(tc.topics...).ResourcePatternType(pattern).Operations(tc.ops...)
		res, err := adm.CreateACLs(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
		}
	}
	k := client(t, c, func(cfg *kafkaops.Config) { cfg.SASL = plain.Auth{User: "lister", Pass: "lister"}.AsMechanism() })
	for _, kind := range []adoption.Kind{adoption.ActionStateTopics, adoption.ControlTopics} {
		survey, err := adoption.Take(context.Background(), k, adoption.Filter{Prefix: "agents-"}, kind)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(names(survey.Found), "agents-a-control") {
			t.Errorf("kind %d: listed agents-a-control, which the principal may not read: %q", kind, names(survey.Found))
		}
		if len(survey.Untold) != 1 || survey.Untold[0].Name != "agents-a-control" || !errors.Is(survey.Untold[0].Err, kerr.TopicAuthorizationFailed) {
			t.Errorf("kind %d: untold %v, want agents-a-control refused READ", kind, survey.Untold)
		}
	}
}

func mustClient(t *testing.T, c *kfake.Cluster, m sasl.Mechanism) *kgo.Client {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.SASL(m))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}
