package kafkaops_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// TestAwaitTopicDeleted: a deleted topic, or one recreated under its name,
// is gone; a topic still listed is waited for until the context ends, and
// the error says the deletion was accepted.
func TestAwaitTopicDeleted(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	k, err := kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	ctx := context.Background()
	created, err := k.CreateTopic(ctx, "orders", 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}

	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	err = k.AwaitTopicDeleted(short, "orders", created.Topic.ID)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "still listed") {
		t.Fatalf("waiting for a topic nobody deleted: %v; want a deadline naming the still-listed topic", err)
	}

	if err := k.AwaitTopicDeleted(ctx, "orders", kafkaops.TopicID{1}); err != nil {
		t.Fatalf("a topic under the name with another ID: %v; want the awaited one gone", err)
	}

	if err := k.DeleteTopic(ctx, "orders"); err != nil {
		t.Fatal(err)
	}
	if err := k.AwaitTopicDeleted(ctx, "orders", created.Topic.ID); err != nil {
		t.Fatalf("after the deletion: %v", err)
	}
}
