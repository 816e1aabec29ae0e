// Package cleanup is the coordinator of checkpoint-aligned cleanup: Apply
// runs the spec's commit-then-delete protocol (apply.go), History reads what
// the control topic records, Preview answers what an apply would delete.
package cleanup

import (
	"context"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// Kafka is what the coordinator needs from the cluster; *kafkaops.Client
// implements it. It is an interface so tests can watch every call (the
// invariant check wraps DeleteRecords).
type Kafka interface {
	DescribeTopic(ctx context.Context, name string) (kafkaops.Topic, error)
	TopicConfigs(ctx context.Context, name string) (map[string]kafkaops.ConfigValue, error)
	StartOffsets(ctx context.Context, topic string) (map[int32]int64, error)
	EndOffsets(ctx context.Context, topic string) (map[int32]int64, error)
	DeleteRecords(ctx context.Context, topic string, id kafkaops.TopicID, upTo map[int32]int64) (map[int32]int64, error)
	ReadControlLog(ctx context.Context, topic string, fn func(kafkaops.ControlRecord) error) (int64, error)
	BeginControlTxn(ctx context.Context, topic string) (kafkaops.ControlTxn, error)
	ControlTxnState(ctx context.Context, controlTopic string) (kafkaops.TxnState, error)
}

var _ Kafka = (*kafkaops.Client)(nil)
