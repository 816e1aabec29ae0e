package cleanup

import (
	"context"
	"fmt"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/permissions"
)

// readHistory reads the whole control partition and validates it: no
// tombstones, keys match, statuses only move forward, all plans name one
// topic and partition set, and every pair is comparable.
func readHistory(ctx context.Context, k Kafka, controlTopic string) (*cleanupplan.Log, error) {
	var log cleanupplan.Log
	_, err := k.ReadControlLog(ctx, controlTopic, func(r kafkaops.ControlRecord) error {
		return log.Add(r.Offset, r.Key, r.Value)
	})
	if err != nil {
		return nil, fmt.Errorf("reading control topic %q: %w", controlTopic, err)
	}
	if err := log.Validate(); err != nil {
		return nil, fmt.Errorf("control topic %q: %w", controlTopic, err)
	}
	return &log, nil
}

// History reads and validates the control topic, checking its shape first.
func History(ctx context.Context, k Kafka, controlTopic string) (*cleanupplan.Log, error) {
	log, _, err := HistoryAndTopic(ctx, k, controlTopic)
	return log, err
}

// HistoryAndTopic is History also returning the control topic as described
// before the read (its ID: no second request needed for it).
func HistoryAndTopic(ctx context.Context, k Kafka, controlTopic string) (*cleanupplan.Log, kafkaops.Topic, error) {
	t, err := describeControlTopic(ctx, k, controlTopic, "")
	if err != nil {
		return nil, t, explainRefusal(err, permissions.Input{ControlTopic: controlTopic}, nothingChanged)
	}
	log, err := readHistory(ctx, k, controlTopic)
	return log, t, explainRefusal(err, permissions.Input{ControlTopic: controlTopic}, nothingChanged)
}

// nothingChanged is the outcome of a refused read, or of an apply refused
// before it committed.
const nothingChanged = "Nothing was written or deleted"
