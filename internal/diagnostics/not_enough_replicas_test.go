package diagnostics

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// TestNotEnoughReplicas: an append refused for too few in-sync replicas,
// which franz-go turns into a timeout, is reported as that, naming the
// topic, partition, min.insync.replicas, the replicas and the fix; not as
// "Kafka Operation Timed Out".
func TestNotEnoughReplicas(t *testing.T) {
	timeout := fmt.Errorf("no acknowledgement from the control partition's leader (no answer within 30s: %w)", context.DeadlineExceeded)
	const op = `recording cleanup boundary abc in control topic "orders-cleanup"`
	for _, tc := range []struct {
		name string
		err  error
		want []string
	}{
		{"fewer replicas than the setting",
			&kafkaops.NotEnoughReplicasError{Topic: "orders-cleanup", MinInSync: 2, Replicas: []int32{1}, InSync: []int32{1}, Err: timeout},
			[]string{`topic "orders-cleanup" partition 0`, "min.insync.replicas=2", "1 replicas [1]", "replication factor to at least 2",
				"min.insync.replicas to at most 1", "--entity-name orders-cleanup --add-config min.insync.replicas=1", "no answer within 30s"}},
		{"replicas out of sync",
			&kafkaops.NotEnoughReplicasError{Topic: "orders-cleanup", MinInSync: 2, Replicas: []int32{1, 2, 3}, InSync: []int32{3}, Err: timeout},
			[]string{"min.insync.replicas=2", "3 replicas [1 2 3], of which 1 in sync [3]", "Bring the brokers holding the missing replicas back"}},
		{"the broker's error alone", fmt.Errorf("append control record: %w", kerr.NotEnoughReplicasAfterAppend),
			[]string{"NOT_ENOUGH_REPLICAS", "min.insync.replicas", "kafka-topics.sh --describe"}},
	} {
		wrapped := &kafkaops.OpError{Op: kafkaops.OpAppendControlRecord, Topic: "orders-cleanup", Err: tc.err}
		d := FromCleanupError(op, wrapped)
		if d.Summary() != "Not Enough In-Sync Replicas To Write" {
			t.Errorf("%s: summary %q, want Not Enough In-Sync Replicas To Write\n%s", tc.name, d.Summary(), d.Detail())
			continue
		}
		for _, w := range append(tc.want, "While "+op) {
			if !strings.Contains(d.Detail(), w) {
				t.Errorf("%s: detail lacks %q:\n%s", tc.name, w, d.Detail())
			}
		}
	}
}
