package cleanupplan

import (
	"fmt"
	"strings"
)

// RestoreRefusal is why the runtime would refuse to restore a recovery
// point once a boundary is recorded.
type RestoreRefusal struct {
	// Partition is the first partition whose marker is below the boundary,
	// -1 when the point names another topic or partition set.
	Partition int32
	Marker    int64 // the point's marker offset on Partition
	Boundary  int64 // the boundary's offset on Partition
	Reason    string
}

// RefusesRestoreOf reports whether recording p as the boundary makes the
// recovery point whose markers merge to point unrestorable, and why. The
// runtime refuses a restore when a recorded plan names another topic, topic
// ID or partition set than the point's markers, or when the point's marker
// for any partition is below the boundary (cleanup-protocol.md, "Restore");
// point's offsets are the minimum over its markers, so one marker below
// means the minimum is.
func (p Plan) RefusesRestoreOf(point Plan) (RestoreRefusal, bool) {
	if !p.sameHistory(point) {
		return RestoreRefusal{Partition: -1, Reason: fmt.Sprintf("its markers name topic %q, topic ID %s, partitions %s; the boundary is for topic %q, topic ID %s, partitions %s",
			point.Topic, point.TopicID, partitionList(point.Offsets), p.Topic, p.TopicID, partitionList(p.Offsets))}, true
	}
	var below []string
	first := RestoreRefusal{Partition: -1}
	for _, part := range p.Offsets.Partitions() {
		if point.Offsets[part] < p.Offsets[part] {
			if first.Partition < 0 {
				first = RestoreRefusal{Partition: part, Marker: point.Offsets[part], Boundary: p.Offsets[part]}
			}
			below = append(below, fmt.Sprintf("partition %d: marker %d below new boundary %d", part, point.Offsets[part], p.Offsets[part]))
		}
	}
	if len(below) == 0 {
		return RestoreRefusal{}, false
	}
	if len(below) > 8 {
		below = append(below[:8], fmt.Sprintf("and %d more partitions", len(below)-8))
	}
	first.Reason = strings.Join(below, "; ")
	return first, true
}
