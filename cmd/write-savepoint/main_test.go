package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/recoveryplan"
)

// The savepoint names the topic by the ID Kafka gave it and records the end
// of every partition after the records it wrote, and the provider's planner
// turns it into a plan for that topic, from the path the command printed.
func TestWriteSavepointForTheTopicInKafka(t *testing.T) {
	ctx := context.Background()
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	brokers := strings.Join(cluster.ListenAddrs(), ",")
	admin, err := kafkaops.New(kafkaops.Config{Brokers: cluster.ListenAddrs()})
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	created, err := admin.CreateTopic(ctx, "orders-agent-action-state", 3, 1, nil)
	if err != nil {
		t.Fatal(err)
	}

	first := filepath.Join(t.TempDir(), "first")
	var out bytes.Buffer
	if err := run(ctx, []string{"-bootstrap", brokers, "-topic", "orders-agent-action-state", "-produce", "7", "-out", first}, &out); err != nil {
		t.Fatal(err)
	}
	path := "file:" + filepath.ToSlash(first)
	if !strings.Contains(out.String(), "checkpoint_path = \""+path+"\"") || !strings.Contains(out.String(), "7 on every partition (3)") {
		t.Errorf("output does not give the path to plan from and the offsets:\n%s", out.String())
	}
	res, err := recoveryplan.FromPath(ctx, checkpoint.LocalStorage{}, path, checkpoint.Selector{UID: "action-execute-operator"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Plan.Topic != "orders-agent-action-state" || res.Plan.TopicID != created.Topic.ID.String() {
		t.Errorf("plan for %s (%s), want the topic's ID %s", res.Plan.Topic, res.Plan.TopicID, created.Topic.ID)
	}
	for p := range int32(3) {
		if res.Plan.Offsets[p] != 7 {
			t.Errorf("partition %d: boundary %d, want 7 (its end)", p, res.Plan.Offsets[p])
		}
	}

	// A directory holding anything is never written over.
	var again bytes.Buffer
	err = run(ctx, []string{"-bootstrap", brokers, "-topic", "orders-agent-action-state", "-out", first}, &again)
	if err == nil || !strings.Contains(err.Error(), "is not empty") {
		t.Errorf("writing over a savepoint: %v, want a refusal", err)
	}
	// A topic Kafka does not have gets no savepoint.
	missing := filepath.Join(t.TempDir(), "missing")
	if err := run(ctx, []string{"-bootstrap", brokers, "-topic", "no-such-topic", "-out", missing}, &again); err == nil {
		t.Error("a savepoint was written for a topic Kafka does not have")
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("%s exists after a refusal: %v", missing, err)
	}
}
