// Package jobsim leaves behind what a running Flink Agents job would, for
// trying the provider without Flink: action-state records in the topic, and
// savepoints whose recovery markers name the topic by its real ID. The demo
// and cmd/write-savepoint use it.
package jobsim

import (
	"context"
	"fmt"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

// OperatorUID is the agent operator's uid in the savepoints written here,
// the one the guides use.
const OperatorUID = "action-execute-operator"

// Produce appends n keyed records to every one of partitions of topic, the
// way the runtime writes action state.
func Produce(ctx context.Context, brokers []string, topic string, partitions []int32, n int) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		return err
	}
	defer cl.Close()
	var recs []*kgo.Record
	for _, p := range partitions {
		for i := range n {
			recs = append(recs, &kgo.Record{Topic: topic, Partition: p,
				Key: fmt.Appendf(nil, "order-%d-%d", p, i), Value: fmt.Appendf(nil, `{"action":"charge","seq":%d}`, i)})
		}
	}
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		return fmt.Errorf("writing action-state records to %s: %w", topic, err)
	}
	return nil
}

// WriteSavepoint writes a Flink 2.0 savepoint (_metadata version 5) of the
// agent operator into dir: one subtask per element of subtasks, each
// recording the offsets of topic from which a restore would replay.
func WriteSavepoint(dir string, checkpointID int64, topic, topicID string, subtasks []map[int32]int64) error {
	markers := make([][]checkpoint.Marker, len(subtasks))
	for i, offsets := range subtasks {
		markers[i] = []checkpoint.Marker{{SchemaVersion: 1, Topic: topic, TopicID: topicID, Offsets: offsets}}
	}
	return checkpoint.WriteSavepoint(dir, checkpoint.SavepointSpec{
		MetadataVersion: 5, CheckpointID: checkpointID,
		OperatorUID: OperatorUID, OperatorName: OperatorUID,
		Markers: markers,
	})
}
