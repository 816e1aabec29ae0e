package cleanup

import (
	"context"
	"errors"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/permissions"
)

// Inspection compares what the control topic records with what the
// action-state topic holds: a recorded APPLIED is a claim about the past,
// and only the topic's start offsets say whether it is still true.
type Inspection struct {
	// Log is the validated history of the control topic.
	Log *cleanupplan.Log
	// ControlTopicID is the control topic's ID as read.
	ControlTopicID string
	// Remaining lists records below the effective boundary that the topic
	// still holds, [start, boundary). After an APPLIED record this means a
	// broker lost its log start offset (Kafka persists it only every
	// log.flush.start.offset.checkpoint.interval.ms), or the APPLIED record
	// was written without a deletion.
	Remaining []Range
	// GonePast lists records at or above the boundary that are gone,
	// [boundary, start): deleted out of band, so restores from checkpoints
	// whose markers lie there can no longer replay them.
	GonePast []Range
	// TopicID and Starts are the action-state topic's ID and start offsets
	// as read when it was compared (empty otherwise).
	TopicID string
	Starts  map[int32]int64
	// Uncompared says why the topic could not be compared with the history
	// (the action-state topic is gone, was recreated, or changed
	// partitions); nil when it was compared or nothing is recorded.
	Uncompared error
}

// Inspect reads and validates the control topic, then compares its
// effective boundary with the action-state topic's start offsets.
func Inspect(ctx context.Context, k Kafka, controlTopic string) (Inspection, error) {
	log, control, err := HistoryAndTopic(ctx, k, controlTopic)
	if err != nil {
		return Inspection{}, err
	}
	ins := Inspection{Log: log, ControlTopicID: control.ID.String()}
	latest, ok := log.Latest()
	if !ok {
		return ins, nil
	}
	pair := permissions.Input{ActionStateTopic: latest.Plan.Topic, ControlTopic: controlTopic}
	topic, err := checkIdentity(ctx, k, latest.Plan)
	if err != nil {
		if errors.Is(err, ErrTopicIDChanged) || errors.Is(err, ErrPartitionSetChanged) || errors.Is(err, ErrActionStateTopicGone) {
			ins.Uncompared = err
			return ins, nil
		}
		return Inspection{}, explainRefusal(err, pair, nothingChanged)
	}
	starts, err := k.StartOffsets(ctx, latest.Plan.Topic)
	if err != nil {
		return Inspection{}, explainRefusal(err, pair, nothingChanged)
	}
	ins.TopicID, ins.Starts = topic.ID.String(), starts
	ins.Remaining = Remaining(log.Boundary(), starts)
	ins.GonePast = GonePast(log.Boundary(), starts)
	return ins, nil
}

// InspectWithTopic is Inspect for a boundary that names its action-state
// topic even while its control topic records nothing (an operator rolled
// out before its job's first checkpoint): the topic's ID and start offsets
// are read then too. The first plan's review is computed from them, as
// every later one is from Inspect's, so a topic recreated between that
// plan and its apply holds the one boundary at apply instead of making the
// plan Terraform repeats at apply differ from the one reviewed. A topic
// that cannot be read leaves them empty: the plan reads it live and says
// why.
func InspectWithTopic(ctx context.Context, k Kafka, controlTopic, actionStateTopic string) (Inspection, error) {
	ins, err := Inspect(ctx, k, controlTopic)
	if err != nil || actionStateTopic == "" || ins.Starts != nil || ins.Uncompared != nil {
		return ins, err
	}
	if _, recorded := ins.Log.Latest(); recorded {
		return ins, nil
	}
	topic, err := k.DescribeTopic(ctx, actionStateTopic)
	if err != nil {
		return ins, nil
	}
	starts, err := k.StartOffsets(ctx, actionStateTopic)
	if err != nil {
		return ins, nil
	}
	ins.TopicID, ins.Starts = topic.ID.String(), starts
	return ins, nil
}
