package kafkaops

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrTopicNotFound: the broker does not know the topic.
var ErrTopicNotFound = errors.New("topic not found")

// The operations OpError.Op names, one per kind of request this package
// sends. They are exported so that a refusal can be traced to the ACL the
// broker checked (internal/permissions maps each to it).
const (
	OpCreateTopic         = "create topic"
	OpDeleteTopic         = "delete topic"
	OpDescribeTopic       = "describe topic"
	OpDescribeConfigs     = "describe topic configs"
	OpAlterConfigs        = "alter topic configs"
	OpListStartOffsets    = "list start offsets"
	OpListEndOffsets      = "list end offsets"
	OpListCommittedEnd    = "list committed end offset"
	OpDeleteRecords       = "delete records"
	OpReadControlLog      = "read control log"
	OpBeginControlTxn     = "begin control transaction"
	OpAppendControlRecord = "append control record"
	OpCommitControlTxn    = "commit control transaction"
	OpDescribeControlTxn  = "describe control transaction"
	OpReassignPartitions  = "reassign partitions"
	OpRaiseReplication    = "raise replication factor"
	OpListReassignments   = "list partition reassignments"
	OpDescribeCluster     = "describe cluster"
)

// partitionErrors collects per-partition failures so one message names
// every failed partition instead of only the first.
type partitionErrors struct {
	op     string
	topic  string
	failed []string
	first  error
}

func (p *partitionErrors) add(partition int32, err error) {
	if p.first == nil {
		p.first = err
	}
	if len(p.failed) < 8 {
		p.failed = append(p.failed, fmt.Sprintf("partition %d: %v", partition, err))
	} else if len(p.failed) == 8 {
		p.failed = append(p.failed, "...")
	}
}

func (p *partitionErrors) err() error {
	if p.first == nil {
		return nil
	}
	return &OpError{Op: p.op, Topic: p.topic, Detail: strings.Join(p.failed, "; "), Err: p.first}
}

// OpError names the Kafka operation and topic that failed; it unwraps to
// the broker's error (a *kerr.Error where the broker sent one).
type OpError struct {
	Op     string
	Topic  string
	Detail string
	Err    error
}

func (e *OpError) Error() string {
	if e.Detail != "" {
		return fmt.Sprintf("%s on topic %q: %s", e.Op, e.Topic, e.Detail)
	}
	return fmt.Sprintf("%s on topic %q: %v", e.Op, e.Topic, e.Err)
}

func (e *OpError) Unwrap() error { return e.Err }

func opErr(op, topic string, err error) error {
	if err == nil {
		return nil
	}
	return &OpError{Op: op, Topic: topic, Err: err}
}

// waitErr says why a wait that began at start ended: Terraform cancelled
// the operation (Ctrl-C), or a deadline passed (the provider's timeout per
// request, or the resource's timeouts block for the whole operation). It
// wraps ctx.Err() so callers can still match the context error.
func waitErr(ctx context.Context, start time.Time) error {
	waited := time.Since(start).Round(time.Millisecond)
	if errors.Is(ctx.Err(), context.Canceled) {
		return fmt.Errorf("cancelled after %s, Terraform was interrupted: %w", waited, ctx.Err())
	}
	return fmt.Errorf("no answer within %s: %w", waited, ctx.Err())
}
