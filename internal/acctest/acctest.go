// Package acctest is shared setup for acceptance tests: a broker (an
// in-process kfake cluster, or the external one named by
// KAFKA_BOOTSTRAP_SERVERS), provider factories for the real Terraform CLI,
// and out-of-band helpers to arrange and assert through Kafka directly.
package acctest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/actionstate/terraform-provider-flinkagents/internal/javatool"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider"
)

// Factories serves the provider in-process to the Terraform CLI.
var Factories = map[string]func() (tfprotov6.ProviderServer, error){
	provider.TypeName: providerserver.NewProtocol6WithError(provider.New("test")()),
}

// Env is one test's view of a broker.
type Env struct {
	t       *testing.T
	Brokers []string
	// ProviderExtra is HCL appended inside the provider block (TLS/SASL
	// settings when the suite runs against a secured listener).
	ProviderExtra string
	Admin         *kafkaops.Client
	// Cluster is the in-process broker, nil against an external one.
	Cluster *kfake.Cluster
}

// New returns a broker for the test: KAFKA_BOOTSTRAP_SERVERS when set (CI's
// real Apache Kafka), otherwise a fresh kfake cluster closed by the test.
// It skips without TF_ACC and requires the terraform CLI, failing (never
// skipping) without it when TF_ACC is set.
func New(t *testing.T) *Env {
	return newEnv(t, os.Getenv("KAFKA_BOOTSTRAP_SERVERS"), 1)
}

// NewInProcess always uses a fresh kfake cluster, for tests that inject
// faults (a broker that stops answering) through kfake's control hooks.
// Such a test is skipped when KAFKA_BOOTSTRAP_SERVERS names a real broker:
// it would not touch that broker, and `make test` already ran it.
func NewInProcess(t *testing.T) *Env {
	return NewInProcessCluster(t, 1)
}

// NewInProcessCluster is NewInProcess with n brokers, for tests of
// replication.
func NewInProcessCluster(t *testing.T, n int) *Env {
	if os.Getenv("KAFKA_BOOTSTRAP_SERVERS") != "" {
		t.Skip("in-process (kfake) test: it would not use the external broker this run targets, and make test runs it")
	}
	return newEnv(t, "", n)
}

// newEnv uses the external brokers when set, else a kfake cluster of
// brokers nodes.
func newEnv(t *testing.T, external string, brokers int) *Env {
	t.Helper()
	requireTerraform(t)
	e := &Env{t: t}
	if external != "" {
		e.ProviderExtra = os.Getenv("FLINKAGENTS_ACC_PROVIDER_HCL")
		e.Brokers = strings.Split(external, ",")
	} else {
		c, err := kfake.NewCluster(kfake.NumBrokers(brokers))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		e.Cluster = c
		e.Brokers = c.ListenAddrs()
	}
	cfg := AdminConfig(t, e.Brokers)
	if e.Cluster != nil {
		cfg.TLS, cfg.SASL = nil, nil // kfake listens in plain text, whatever listener the suite targets
	}
	admin, err := kafkaops.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(admin.Close)
	e.Admin = admin
	return e
}

// requireTerraform skips the test unless TF_ACC is set, so a plain `go test
// ./...` needs Go alone (`make test` sets it); with TF_ACC it fails, never
// skips, when the terraform CLI is missing.
func requireTerraform(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 to run it (make test does); it needs the terraform CLI")
	}
	if os.Getenv("TF_ACC_TERRAFORM_PATH") != "" {
		return
	}
	bin, err := exec.LookPath("terraform")
	if err != nil {
		t.Fatalf("terraform CLI not found on PATH (%v): install Terraform >= 1.5 or set TF_ACC_TERRAFORM_PATH; "+
			"acceptance tests run the real CLI against the provider", err)
	}
	t.Setenv("TF_ACC_TERRAFORM_PATH", bin)
}

// Provider is the provider block for this broker.
func (e *Env) Provider() string {
	return fmt.Sprintf("provider \"flinkagents\" {\n  bootstrap_servers = [%s]\n  timeout = \"20s\"\n%s\n}\n", e.BrokersHCL(), e.ProviderExtra)
}

// CLIProvider is Provider behind a terraform block naming the provider's
// source, as configurations run through Workdir (modules) need it.
func (e *Env) CLIProvider() string {
	return "terraform {\n  required_providers {\n    flinkagents = {\n      source = \"actionstate/flinkagents\"\n    }\n  }\n}\n" + e.Provider()
}

// BrokersHCL is the broker addresses as the elements of an HCL list.
func (e *Env) BrokersHCL() string {
	quoted := make([]string, len(e.Brokers))
	for i, b := range e.Brokers {
		quoted[i] = fmt.Sprintf("%q", b)
	}
	return strings.Join(quoted, ", ")
}

// Name returns a topic name unique to this run, so suites can share an
// external broker.
func (e *Env) Name(prefix string) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}

// CreateTopic creates a topic out of band and returns its topic ID.
func (e *Env) CreateTopic(name string, partitions int32, configs map[string]string) string {
	e.t.Helper()
	created, err := e.Admin.CreateTopic(context.Background(), name, partitions, 1, configs)
	if err != nil {
		e.t.Fatal(err)
	}
	// Kafka answers the create before every broker's metadata shows the
	// topic: a test that lists the cluster right after (terraform query)
	// would not find it, though a real cluster's topics are long there.
	// The first describe by the client that created it waits for that.
	if _, err := e.Admin.DescribeTopic(context.Background(), name); err != nil {
		e.t.Fatal(err)
	}
	return created.Topic.ID.String()
}

// DeleteTopic deletes name, whatever its topic ID: what an operator's
// kafka-topics.sh --delete does behind Terraform's back.
func (e *Env) DeleteTopic(name string) {
	e.t.Helper()
	ctx := context.Background()
	t, err := e.Admin.DescribeTopic(ctx, name)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.Admin.DeleteTopic(ctx, name, t.ID); err != nil {
		e.t.Fatal(err)
	}
}

// RecreateTopic deletes name and creates it again, empty, with configs,
// returning the new topic ID. ZooKeeper-mode brokers (Kafka 3.x) delete a
// topic in the background and answer TOPIC_ALREADY_EXISTS until they are
// done, so the create is retried for up to a minute.
func (e *Env) RecreateTopic(name string, partitions int32, configs map[string]string) string {
	e.t.Helper()
	ctx := context.Background()
	e.DeleteTopic(name)
	deadline := time.Now().Add(time.Minute)
	for {
		created, err := e.Admin.CreateTopic(ctx, name, partitions, 1, configs)
		if err == nil {
			return created.Topic.ID.String()
		}
		if !errors.Is(err, kerr.TopicAlreadyExists) || time.Now().After(deadline) {
			e.t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// Produce writes n records to every partition of topic, as a job would:
// record i of partition p holds "state-<p>-<i>" under key "k<p>-<i>".
func (e *Env) Produce(topic string, partitions int32, n int) {
	e.t.Helper()
	// A topic created a moment ago may not be in every broker's metadata
	// yet (CreateTopic does not wait for it): keep asking, within a minute,
	// instead of failing after kgo's default four unknown-topic retries.
	cl, err := kgo.NewClient(append(e.ClientOpts(), kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.UnknownTopicRetries(-1))...)
	if err != nil {
		e.t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var recs []*kgo.Record
	for p := range partitions {
		for i := range n {
			recs = append(recs, &kgo.Record{Topic: topic, Partition: p, Key: fmt.Appendf(nil, "k%d-%d", p, i), Value: fmt.Appendf(nil, "state-%d-%d", p, i)})
		}
	}
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		e.t.Fatal(err)
	}
}

// AppendControl writes one control record the way the Java tool does
// (idempotent, not transactional), through the suite's listener.
func (e *Env) AppendControl(ctx context.Context, topic string, key, value []byte) (int64, error) {
	return javatool.Append(ctx, e.ClientOpts(), topic, key, value)
}

// StartOffsets lists each partition's log start offset.
func (e *Env) StartOffsets(topic string) map[int32]int64 {
	e.t.Helper()
	s, err := e.Admin.StartOffsets(context.Background(), topic)
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

// TopicConfig returns one live config value.
func (e *Env) TopicConfig(topic, key string) string {
	e.t.Helper()
	cfg, err := e.Admin.TopicConfigs(context.Background(), topic)
	if err != nil {
		e.t.Fatal(err)
	}
	return cfg[key].Value
}
