package adoption

import (
	"context"
	"errors"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// Reading again a topic whose read failed for a reason that passes: a
// partition between leaders, or a topic so new that its leader is not
// known yet (seen on Apache Kafka 4.4 for a topic created a moment before
// the listing). An offline partition is named after these.
const (
	scanRetries    = 20
	scanRetryPause = 250 * time.Millisecond
)

// scanForControl reads topics for control records within budget, reading
// again with fresh metadata the topics whose read failed for a reason that
// passes. A refusal (no READ ACL) or a partition that stays offline stays
// in failed.
func scanForControl(ctx context.Context, k *kafkaops.Client, topics []kafkaops.Topic, budget kafkaops.ScanBudget) (map[string]kafkaops.Scan, map[string]error, error) {
	isControl := func(r kafkaops.Record) bool { return cleanupplan.IsControlRecord(r.Key, r.Value) }
	scans, failed, err := k.ScanPartitionZero(ctx, topics, isControl, budget)
	for range scanRetries {
		if err != nil {
			return nil, nil, err
		}
		var again []kafkaops.Topic
		for name, why := range failed {
			if !passing(why) {
				continue
			}
			t, err := k.DescribeTopic(ctx, name)
			if err != nil {
				continue // failed keeps the scan's own reason
			}
			again = append(again, t)
		}
		if len(again) == 0 {
			break
		}
		if err := sleep(ctx, scanRetryPause); err != nil {
			break
		}
		var more map[string]kafkaops.Scan
		var stillFailed map[string]error
		more, stillFailed, err = k.ScanPartitionZero(ctx, again, isControl, budget)
		for _, t := range again {
			delete(failed, t.Name)
		}
		for name, s := range more {
			scans[name] = s
		}
		for name, why := range stillFailed {
			failed[name] = why
		}
	}
	return scans, failed, err
}

// passing reports a read failure that reading again may not meet.
func passing(err error) bool {
	return errors.Is(err, kafkaops.ErrNoLeader) || errors.Is(err, kafkaops.ErrNotAnswered) || kerr.IsRetriable(err)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// describeAgain describes a topic the listing could not describe in full
// (why), again while the reason is one that passes: a topic created a
// moment before may have a partition no broker reports yet.
func describeAgain(ctx context.Context, k *kafkaops.Client, name string, why error) (kafkaops.Topic, error) {
	for range scanRetries {
		if !passing(why) {
			break
		}
		if err := sleep(ctx, scanRetryPause); err != nil {
			break
		}
		t, err := k.DescribeTopic(ctx, name)
		if err == nil {
			return t, nil
		}
		why = err
	}
	return kafkaops.Topic{}, why
}
