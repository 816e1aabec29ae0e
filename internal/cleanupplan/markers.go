package cleanupplan

import (
	"fmt"
)

// Marker is one recovery marker as read from a checkpoint: one per subtask.
type Marker struct {
	// Legacy is set for pre-versioned markers (a bare HashMap of offsets).
	Legacy        bool
	SchemaVersion int32
	Topic         string
	TopicID       string
	Offsets       Offsets
}

// FromMarkers builds the plan of one recovery point: all markers must be
// versioned, schema version 1, name the same topic and topic ID and carry the
// same partition set; the plan's offset per partition is the minimum over
// all markers (the oldest position any subtask may replay from).
func FromMarkers(sourceRecoveryPoint string, markers []Marker) (Plan, error) {
	if len(markers) == 0 {
		return Plan{}, fmt.Errorf("%w: the recovery point holds no recovery markers; was the job using the Kafka action-state store when it was taken?", ErrInconsistentMarkers)
	}
	for i, m := range markers {
		if m.Legacy {
			return Plan{}, fmt.Errorf("%w: marker %d is a bare partition-offset map (the marker form before versioned markers); "+
				"it does not name the physical topic, so it cannot authorize deletion. Run the job on a runtime that writes KafkaActionStateRecoveryMarker "+
				"(the proposed plan/apply cleanup; no Flink Agents release up to 0.3.1 has it) and take a new checkpoint or savepoint", ErrLegacyMarker, i)
		}
		if m.SchemaVersion != SchemaVersion {
			return Plan{}, fmt.Errorf("%w: marker %d has schema version %d; only %d is supported", ErrInconsistentMarkers, i, m.SchemaVersion, SchemaVersion)
		}
	}
	first := markers[0]
	offsets := first.Offsets.Clone()
	for i, m := range markers[1:] {
		if m.Topic != first.Topic || m.TopicID != first.TopicID {
			return Plan{}, fmt.Errorf("%w: marker %d names topic %q (ID %s) but marker 0 names %q (ID %s); one plan can only clean one topic",
				ErrInconsistentMarkers, i+1, m.Topic, m.TopicID, first.Topic, first.TopicID)
		}
		if !m.Offsets.samePartitions(first.Offsets) {
			return Plan{}, fmt.Errorf("%w: marker %d covers partitions %s but marker 0 covers %s",
				ErrInconsistentMarkers, i+1, partitionList(m.Offsets), partitionList(first.Offsets))
		}
		for part, off := range m.Offsets {
			if off < offsets[part] {
				offsets[part] = off
			}
		}
	}
	return New(sourceRecoveryPoint, first.Topic, first.TopicID, offsets)
}
