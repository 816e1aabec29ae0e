package adoption

import (
	"context"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// AdoptScan is how much of a one-partition topic is read before it is
// adopted as an action-state topic (an import, or a plan that would set
// compact,delete on it): one topic at a time, so more than a survey reads.
var AdoptScan = kafkaops.ScanBudget{HeadBytes: 64 << 20, TailOffsets: 10_000}

// ControlRecordIn returns the first control record found in t, nil when
// the read found none, or why t could not be read (then nothing can say
// what t is). A topic of more than one partition is never a control topic
// (the runtime requires exactly one) and is not read.
func ControlRecordIn(ctx context.Context, k *kafkaops.Client, t kafkaops.Topic) (*kafkaops.Record, error) {
	if len(t.Partitions) != 1 {
		return nil, nil
	}
	scans, failed, err := scanForControl(ctx, k, []kafkaops.Topic{t}, AdoptScan)
	if err != nil {
		return nil, err
	}
	if err := failed[t.Name]; err != nil {
		return nil, err
	}
	return scans[t.Name].Match, nil
}
