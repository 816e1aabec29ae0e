package kafkaops

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
)

// NotEnoughReplicasError: a partition has fewer in-sync replicas than its
// topic's min.insync.replicas, so the broker refuses every acks=all write
// to it (NOT_ENOUGH_REPLICAS). franz-go retries that error without end, so
// on its own it surfaces as a timeout; this names the cause.
type NotEnoughReplicasError struct {
	Topic     string
	Partition int32
	// MinInSync is the topic's effective min.insync.replicas (its own
	// setting or the broker's default).
	MinInSync int
	// Replicas and InSync are the partition's replicas and in-sync replicas
	// as the broker's metadata lists them.
	Replicas, InSync []int32
	Err              error // what the write ended with
}

// Never reports whether the partition can never take the write as it is
// configured: fewer replicas than min.insync.replicas, whatever their
// state. Otherwise replicas are only out of sync for now.
func (e *NotEnoughReplicasError) Never() bool { return len(e.Replicas) < e.MinInSync }

func (e *NotEnoughReplicasError) Error() string {
	s := fmt.Sprintf("topic %q partition %d has %d replicas %v, %d in sync %v, fewer than its min.insync.replicas=%d, so the broker refuses writes with acks=all",
		e.Topic, e.Partition, len(e.Replicas), e.Replicas, len(e.InSync), e.InSync, e.MinInSync)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *NotEnoughReplicasError) Unwrap() error { return e.Err }

const configMinInSyncReplicas = "min.insync.replicas"

// notEnoughReplicas compares partition's replicas in t with min.insync.replicas
// in cfg, returning nil when they are enough (or unknown: no metadata, no
// setting), since only the broker decides then.
func notEnoughReplicas(t Topic, cfg map[string]ConfigValue, partition int32, err error) *NotEnoughReplicasError {
	v, ok := cfg[configMinInSyncReplicas]
	if !ok || v.Null {
		return nil
	}
	minISR, perr := strconv.Atoi(v.Value)
	replicas, listed := t.Replicas[partition]
	if perr != nil || !listed {
		return nil
	}
	isr := t.ISR[partition]
	if len(isr) >= minISR && len(replicas) >= minISR {
		return nil
	}
	return &NotEnoughReplicasError{Topic: t.Name, Partition: partition, MinInSync: minISR, Replicas: replicas, InSync: isr, Err: err}
}

// refuseUnwritable fails before a transaction begins when partition of
// topic has fewer replicas than min.insync.replicas: no append could ever
// succeed, and trying would only wait out the timeout. Replicas merely out
// of sync may come back within it, so those are left to the append. It
// returns the topic as described.
func (c *Client) refuseUnwritable(ctx context.Context, topic string, partition int32) (Topic, error) {
	t, cfg, err := c.replicasAndSettings(ctx, topic)
	if err != nil {
		return t, err
	}
	if ner := notEnoughReplicas(t, cfg, partition, nil); ner != nil && ner.Never() {
		return t, opErr(OpBeginControlTxn, topic, ner)
	}
	return t, nil
}

// explainFailedWrite looks, after a write to partition of topic failed with
// err (a timeout, or NOT_ENOUGH_REPLICAS itself), for too few in-sync
// replicas, and names them. ctx is the caller's, not the expired
// per-request one; the look is short and skipped when ctx is done too.
func (c *Client) explainFailedWrite(ctx context.Context, topic string, partition int32, err error) error {
	if ctx.Err() != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, min(c.cfg.Timeout, 5*time.Second))
	defer cancel()
	t, cfg, derr := c.replicasAndSettings(ctx, topic)
	if derr != nil {
		return err
	}
	if ner := notEnoughReplicas(t, cfg, partition, err); ner != nil {
		return ner
	}
	if errors.Is(err, kerr.NotEnoughReplicas) || errors.Is(err, kerr.NotEnoughReplicasAfterAppend) {
		// The broker said so, yet its metadata shows enough now: a
		// replica that fell behind for a moment. Say that it was this.
		return fmt.Errorf("%w (the replicas of topic %q partition %d were out of sync; metadata now lists in sync %v)", err, topic, partition, t.ISR[partition])
	}
	return err
}

// replicasAndSettings is what notEnoughReplicas judges: the topic's
// replicas and in-sync replicas, and its configs.
func (c *Client) replicasAndSettings(ctx context.Context, topic string) (Topic, map[string]ConfigValue, error) {
	t, err := c.DescribeTopic(ctx, topic)
	if err != nil {
		return Topic{}, nil, err
	}
	cfg, err := c.TopicConfigs(ctx, topic)
	return t, cfg, err
}
