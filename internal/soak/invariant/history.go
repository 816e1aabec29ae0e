package invariant

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// RawRecord is one record of a control partition as the log holds it,
// aborted and control records included (read_uncommitted): History decides
// what a read_committed reader sees.
type RawRecord struct {
	Offset        int64
	Key, Value    []byte
	ProducerID    int64
	Transactional bool
	Control       bool
}

// Plan is one recorded plan and its last status.
type Plan struct {
	ID                  string
	Status              string
	SourceRecoveryPoint string
	Topic, TopicID      string
	Offsets             map[int32]int64
	FirstOffset         int64
}

// History is a control topic's recorded plans as a read_committed reader
// sees them, in order of first appearance.
type History struct {
	Plans []*Plan
	// Open counts records of transactions neither committed nor aborted
	// yet: invisible to the runtime until their transaction ends.
	Open int
}

// Boundary is the effective boundary: per partition, the highest offset
// any recorded plan names; empty when nothing is recorded.
func (h History) Boundary() map[int32]int64 {
	b := map[int32]int64{}
	for _, p := range h.Plans {
		for part, off := range p.Offsets {
			if cur, ok := b[part]; !ok || off > cur {
				b[part] = off
			}
		}
	}
	return b
}

// Committed reports the plans whose last status is not APPLIED.
func (h History) Committed() []string {
	var ids []string
	for _, p := range h.Plans {
		if p.Status != "APPLIED" {
			ids = append(ids, p.ID)
		}
	}
	return ids
}

// ReplayHistory resolves transactions the way a read_committed reader does
// (a transactional record is seen once its producer's COMMIT marker
// follows it, never when ABORT does, not yet while neither has) and
// replays the visible records under the control-log rules: no tombstones,
// the key is the plan ID inside, a plan ID always carries the same plan,
// APPLIED never goes back to COMMITTED, and every plan names the same
// topic, topic ID and partition set with offsets comparable to every
// other plan's. Any breach is an error naming the offset.
func ReplayHistory(records []RawRecord) (History, error) {
	var h History
	pending := map[int64][]RawRecord{}
	var visible []RawRecord
	for _, r := range records {
		switch {
		case r.Control:
			commit, err := markerCommits(r)
			if err != nil {
				return h, err
			}
			if commit {
				visible = append(visible, pending[r.ProducerID]...)
			}
			delete(pending, r.ProducerID)
		case r.Transactional:
			pending[r.ProducerID] = append(pending[r.ProducerID], r)
		default:
			visible = append(visible, r)
		}
	}
	for _, recs := range pending {
		h.Open += len(recs)
	}
	slices.SortFunc(visible, func(a, b RawRecord) int { return cmp.Compare(a.Offset, b.Offset) })
	byID := map[string]*Plan{}
	for _, r := range visible {
		p, status, err := parseControlValue(r)
		if err != nil {
			return h, err
		}
		prev, ok := byID[p.ID]
		if !ok {
			p.Status, p.FirstOffset = status, r.Offset
			byID[p.ID] = p
			h.Plans = append(h.Plans, p)
			continue
		}
		if !samePlan(prev, p) {
			return h, fmt.Errorf("offset %d: plan %s recorded again with other contents", r.Offset, p.ID)
		}
		if prev.Status == "APPLIED" && status == "COMMITTED" {
			return h, fmt.Errorf("offset %d: plan %s goes back from APPLIED to COMMITTED", r.Offset, p.ID)
		}
		prev.Status = status
	}
	return h, checkComparable(h.Plans)
}

// markerCommits decodes a transaction marker's key: version, then type
// (0 ABORT, 1 COMMIT), both int16.
func markerCommits(r RawRecord) (bool, error) {
	if len(r.Key) < 4 {
		return false, fmt.Errorf("offset %d: control record key of %d bytes", r.Offset, len(r.Key))
	}
	switch t := binary.BigEndian.Uint16(r.Key[2:4]); t {
	case 0:
		return false, nil
	case 1:
		return true, nil
	default:
		return false, fmt.Errorf("offset %d: control record of type %d", r.Offset, t)
	}
}

type controlValue struct {
	SchemaVersion *int   `json:"schemaVersion"`
	Status        string `json:"status"`
	Plan          *struct {
		SchemaVersion       *int             `json:"schemaVersion"`
		PlanID              string           `json:"planId"`
		SourceRecoveryPoint string           `json:"sourceRecoveryPoint"`
		Topic               string           `json:"topic"`
		TopicID             string           `json:"topicId"`
		Offsets             map[string]int64 `json:"offsets"`
	} `json:"plan"`
}

func parseControlValue(r RawRecord) (*Plan, string, error) {
	if r.Value == nil {
		return nil, "", fmt.Errorf("offset %d: a tombstone (key %q): a boundary was deleted", r.Offset, r.Key)
	}
	var v controlValue
	if err := json.Unmarshal(r.Value, &v); err != nil {
		return nil, "", fmt.Errorf("offset %d: unreadable control record: %v", r.Offset, err)
	}
	if v.SchemaVersion == nil || *v.SchemaVersion != 1 || v.Plan == nil || v.Plan.SchemaVersion == nil || *v.Plan.SchemaVersion != 1 {
		return nil, "", fmt.Errorf("offset %d: control record without schema version 1 or without a plan", r.Offset)
	}
	if v.Status != "COMMITTED" && v.Status != "APPLIED" {
		return nil, "", fmt.Errorf("offset %d: status %q", r.Offset, v.Status)
	}
	if string(r.Key) != v.Plan.PlanID {
		return nil, "", fmt.Errorf("offset %d: key %q carries plan %s", r.Offset, r.Key, v.Plan.PlanID)
	}
	p := &Plan{ID: v.Plan.PlanID, SourceRecoveryPoint: v.Plan.SourceRecoveryPoint, Topic: v.Plan.Topic,
		TopicID: v.Plan.TopicID, Offsets: map[int32]int64{}}
	for k, off := range v.Plan.Offsets {
		part, err := strconv.ParseInt(k, 10, 32)
		if err != nil || part < 0 || off < 0 {
			return nil, "", fmt.Errorf("offset %d: plan %s has partition %q offset %d", r.Offset, p.ID, k, off)
		}
		p.Offsets[int32(part)] = off
	}
	if len(p.Offsets) == 0 || p.Topic == "" || p.TopicID == "" {
		return nil, "", fmt.Errorf("offset %d: plan %s names no topic, topic ID or partition", r.Offset, p.ID)
	}
	return p, v.Status, nil
}

func samePlan(a, b *Plan) bool {
	return a.SourceRecoveryPoint == b.SourceRecoveryPoint && a.Topic == b.Topic && a.TopicID == b.TopicID &&
		maps.Equal(a.Offsets, b.Offsets)
}

// checkComparable requires one topic, topic ID and partition set, and that
// of any two plans one is at or above the other on every partition.
func checkComparable(plans []*Plan) error {
	for i, a := range plans {
		for _, b := range plans[i+1:] {
			if a.Topic != b.Topic || a.TopicID != b.TopicID || !sameKeys(a.Offsets, b.Offsets) {
				return fmt.Errorf("plans %s (%s, ID %s) and %s (%s, ID %s) name different topics or partitions",
					a.ID, a.Topic, a.TopicID, b.ID, b.Topic, b.TopicID)
			}
			if !atOrAbove(a.Offsets, b.Offsets) && !atOrAbove(b.Offsets, a.Offsets) {
				return fmt.Errorf("plans %s %v and %s %v cross", a.ID, a.Offsets, b.ID, b.Offsets)
			}
		}
	}
	return nil
}

func sameKeys(a, b map[int32]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	return true
}

// atOrAbove reports whether a is at or above b on every partition of b.
func atOrAbove(a, b map[int32]int64) bool {
	for k, off := range b {
		if a[k] < off {
			return false
		}
	}
	return true
}

// Backward lists, for a boundary that should only have moved forward from
// prev, the partitions where it is now lower or gone.
func Backward(prev, now map[int32]int64) []string {
	var out []string
	for _, p := range slices.Sorted(maps.Keys(prev)) {
		cur, ok := now[p]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("partition %d: was %d, now no boundary", p, prev[p]))
		case cur < prev[p]:
			out = append(out, fmt.Sprintf("partition %d: was %d, now %d", p, prev[p], cur))
		}
	}
	return out
}
