// Package cleanupplan is the checkpoint-aligned cleanup plan of Flink Agents'
// Kafka action state: validation, the plan ID, the plan-file and
// control-record JSON, and the control-log state machine. Every byte it
// writes must be what the Java runtime and its KafkaActionStateCleanupTool
// write, so the encoders here are hand-written rather than encoding/json.
package cleanupplan

import (
	"fmt"
	"maps"
	"slices"
)

// SchemaVersion is the only plan and control-record schema version the
// runtime understands.
const SchemaVersion = 1

// zeroTopicID is Kafka's Uuid.ZERO_UUID in its Java string form; the runtime
// treats it as "no topic ID", which can never authorize a deletion.
const zeroTopicID = "AAAAAAAAAAAAAAAAAAAAAA"

// Offsets maps a partition to an offset.
type Offsets map[int32]int64

// Partitions returns the partitions in ascending numeric order, the order of
// the plan ID and of every JSON rendering.
func (o Offsets) Partitions() []int32 {
	return slices.Sorted(maps.Keys(o))
}

// samePartitions reports whether o and other hold exactly the same partitions.
func (o Offsets) samePartitions(other Offsets) bool {
	if len(o) != len(other) {
		return false
	}
	for p := range o {
		if _, ok := other[p]; !ok {
			return false
		}
	}
	return true
}

// Clone returns an independent copy.
func (o Offsets) Clone() Offsets { return maps.Clone(o) }

// Plan is one validated cleanup plan. Construct it with New, FromMarkers or
// Parse; a Plan value obtained any other way may violate the spec.
type Plan struct {
	// SourceRecoveryPoint is the checkpoint or savepoint path exactly as the
	// operator gave it: it is part of the plan ID.
	SourceRecoveryPoint string
	Topic               string
	// TopicID is in Kafka's Java Uuid.toString() form (22 chars, base64url).
	TopicID string
	Offsets Offsets
}

// New validates and returns a plan. The offsets map is copied. A plan whose
// file would exceed MaxPlanBytes is refused, so that every plan built here
// can be handed back as plan_json.
func New(sourceRecoveryPoint, topic, topicID string, offsets Offsets) (Plan, error) {
	p := Plan{SourceRecoveryPoint: sourceRecoveryPoint, Topic: topic, TopicID: topicID, Offsets: offsets.Clone()}
	if err := p.validate(); err != nil {
		return Plan{}, err
	}
	if n := len(p.File()); n > MaxPlanBytes {
		return Plan{}, malformed("plan", fmt.Sprintf("file would be %d bytes (%d partitions), more than the limit of %d bytes on plans", n, len(p.Offsets), MaxPlanBytes))
	}
	return p, nil
}

func (p Plan) validate() error {
	switch {
	case isJavaTrimEmpty(p.SourceRecoveryPoint):
		return blank("sourceRecoveryPoint", p.SourceRecoveryPoint)
	case isJavaTrimEmpty(p.Topic):
		return blank("topic", p.Topic)
	case isJavaTrimEmpty(p.TopicID):
		return blank("topicId", p.TopicID)
	case p.TopicID == zeroTopicID:
		return malformed("topicId", "is the zero UUID "+zeroTopicID+", which names no topic")
	case len(p.Offsets) == 0:
		return malformed("offsets", "must not be empty")
	}
	for part, off := range p.Offsets {
		if part < 0 || off < 0 {
			return p.firstInvalidOffset() // sorted only on this error path
		}
	}
	return nil
}

// blank says why the runtime would refuse value, showing it when short.
func blank(field, value string) error {
	if value == "" {
		return malformed(field, "must not be empty")
	}
	shown := fmt.Sprintf("%q", value)
	if len(value) > 32 {
		shown = fmt.Sprintf("its %d bytes", len(value))
	}
	return malformed(field, "must not be blank: "+shown+" holds nothing but characters at or below U+0020 (spaces and controls), "+
		"which the runtime's Java trim() removes, so it would refuse the plan on every restore")
}

// firstInvalidOffset names the lowest invalid partition, so the message is
// the same on every run.
func (p Plan) firstInvalidOffset() error {
	for _, part := range p.Offsets.Partitions() {
		if part < 0 {
			return malformed("offsets", fmt.Sprintf("partition %d is negative", part))
		}
		if off := p.Offsets[part]; off < 0 {
			return malformed("offsets", fmt.Sprintf("partition %d has negative offset %d", part, off))
		}
	}
	return nil
}

// Equal reports whether two plans are identical in every field.
func (p Plan) Equal(other Plan) bool {
	return p.SourceRecoveryPoint == other.SourceRecoveryPoint &&
		p.Topic == other.Topic && p.TopicID == other.TopicID &&
		maps.Equal(p.Offsets, other.Offsets)
}

// sameHistory reports whether other names the same physical topic and
// partition set, the precondition for two plans to live in one control topic.
func (p Plan) sameHistory(other Plan) bool {
	return p.Topic == other.Topic && p.TopicID == other.TopicID && p.Offsets.samePartitions(other.Offsets)
}
