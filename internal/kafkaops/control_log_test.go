package kafkaops_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/actionstate/terraform-provider-flinkagents/internal/javatool"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// An error fn returns for one record comes back carrying where that record
// lives, so a diagnostic can say how to inspect it; its text is fn's.
func TestReadControlLogLocatesTheRecordFnRefused(t *testing.T) {
	ctx := context.Background()
	const topic = "orders-cleanup"
	k, appendAsTool := newControlTopic(t, topic)
	for _, v := range []string{"first", "second", "\xff garbage"} {
		if _, err := appendAsTool([]byte("k"), []byte(v)); err != nil {
			t.Fatal(err)
		}
	}
	refused := errors.New("not a control record")
	_, err := k.ReadControlLog(ctx, topic, func(r kafkaops.ControlRecord) error {
		if string(r.Value) == "\xff garbage" {
			return refused
		}
		return nil
	})
	var loc *kafkaops.ControlRecordError
	if !errors.As(err, &loc) || !errors.Is(err, refused) || err.Error() != refused.Error() {
		t.Fatalf("err = %v, want a ControlRecordError around fn's error with fn's text", err)
	}
	if loc.Topic != topic || loc.Partition != 0 || loc.Offset != 2 {
		t.Fatalf("location = %+v, want %s partition 0 offset 2", loc, topic)
	}
}

// newControlTopic starts an in-process broker holding control topic name
// and connects a client; appendAsTool appends a record as the runtime's
// tool does (no transaction).
func newControlTopic(t *testing.T, name string) (k *kafkaops.Client, appendAsTool func(key, value []byte) (int64, error)) {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	k, err = kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	ctx := context.Background()
	if _, err := k.CreateTopic(ctx, name, 1, 1, map[string]string{"cleanup.policy": "compact"}); err != nil {
		t.Fatal(err)
	}
	return k, func(key, value []byte) (int64, error) {
		return javatool.Append(ctx, []kgo.Opt{kgo.SeedBrokers(c.ListenAddrs()...)}, name, key, value)
	}
}
