package cleanupplan

import (
	"fmt"
	"maps"
	"slices"
)

// Operation is one plan recorded in the control topic with its latest status.
type Operation struct {
	PlanID string
	Status Status
	Plan   Plan
	// Offset is where the plan first appeared in the control partition.
	Offset int64
}

// Log replays a control partition record by record, applying the spec's
// reading rules, and answers what the history says. The zero value is an
// empty history.
type Log struct {
	ops  []Operation
	byID map[string]int
	// canon holds each plan's compact JSON, for the fast path in Add.
	canon [][]byte
}

// Add applies one record read at offset. It rejects tombstones, keys that are
// not the plan ID inside, a plan ID that reappears with a different plan,
// and APPLIED going back to COMMITTED. A record with an unchanged status
// (a retried append) is accepted.
func (l *Log) Add(offset int64, key, value []byte) error {
	// Fast path: a plan seen before, in canonical bytes (every status
	// change and every retried append): recognising the exact bytes proves
	// the same plan without parsing or hashing again.
	if i, ok := l.byID[string(key)]; ok {
		if st, ok := canonicalStatus(value, l.canon[i]); ok {
			return l.setStatus(offset, i, st)
		}
	}
	rec, err := DecodeRecord(key, value)
	if err != nil {
		return &RecordError{Offset: offset, Key: key, Size: len(value), Err: err}
	}
	return l.addRecord(offset, rec)
}

// addRecord is Add for an already decoded record.
func (l *Log) addRecord(offset int64, rec Record) error {
	id := rec.PlanID
	if id == "" {
		id = rec.Plan.ID()
	}
	if l.byID == nil {
		l.byID = make(map[string]int)
	}
	i, seen := l.byID[id]
	if !seen {
		l.byID[id] = len(l.ops)
		l.ops = append(l.ops, Operation{PlanID: id, Status: rec.Status, Plan: rec.Plan, Offset: offset})
		l.canon = append(l.canon, rec.Plan.CompactJSON())
		return nil
	}
	if !l.ops[i].Plan.Equal(rec.Plan) {
		return fmt.Errorf("%w: control record at offset %d carries plan %s with contents different from its first record at offset %d",
			ErrCorruptControlLog, offset, id, l.ops[i].Offset)
	}
	return l.setStatus(offset, i, rec.Status)
}

func (l *Log) setStatus(offset int64, i int, st Status) error {
	op := &l.ops[i]
	if op.Status == StatusApplied && st == StatusCommitted {
		return fmt.Errorf("%w: control record at offset %d moves plan %s from APPLIED back to COMMITTED",
			ErrCorruptControlLog, offset, op.PlanID)
	}
	op.Status = st
	return nil
}

// canonicalStatus reports whether value is exactly the canonical record of
// the plan whose compact JSON is plan, and with which status.
func canonicalStatus(value, plan []byte) (Status, bool) {
	const head, mid = `{"schemaVersion":1,"status":"`, `","plan":`
	for _, st := range []Status{StatusApplied, StatusCommitted} {
		n := len(head) + len(st) + len(mid) + len(plan) + 1
		if len(value) != n {
			continue
		}
		v := value
		if string(v[:len(head)]) != head {
			return "", false
		}
		v = v[len(head):]
		if string(v[:len(st)]) != string(st) || string(v[len(st):len(st)+len(mid)]) != mid {
			continue
		}
		v = v[len(st)+len(mid):]
		if string(v[:len(plan)]) == string(plan) && v[len(plan)] == '}' {
			return st, true
		}
	}
	return "", false
}

// Operations returns the recorded plans in order of first appearance.
func (l *Log) Operations() []Operation { return slices.Clone(l.ops) }

// Lookup returns the recorded operation for a plan ID.
func (l *Log) Lookup(planID string) (Operation, bool) {
	i, ok := l.byID[planID]
	if !ok {
		return Operation{}, false
	}
	return l.ops[i], true
}

// Latest returns the most recently first-recorded plan.
func (l *Log) Latest() (Operation, bool) {
	if len(l.ops) == 0 {
		return Operation{}, false
	}
	return l.ops[len(l.ops)-1], true
}

// Boundary is the effective boundary: per partition, the maximum offset over
// all recorded plans, COMMITTED and APPLIED alike. Empty when nothing is
// recorded. Call Validate first: on an inconsistent history it means nothing.
func (l *Log) Boundary() Offsets {
	b := Offsets{}
	for _, op := range l.ops {
		for part, off := range op.Plan.Offsets {
			if cur, ok := b[part]; !ok || off > cur {
				b[part] = off
			}
		}
	}
	return b
}

// Validate checks that all recorded plans name the same topic, topic ID and
// partition set, and that every pair is comparable (the history is a chain).
func (l *Log) Validate() error {
	if len(l.ops) == 0 {
		return nil
	}
	first := l.ops[0].Plan
	for _, op := range l.ops[1:] {
		if !op.Plan.sameHistory(first) {
			return fmt.Errorf("%w: plan %s (offset %d) names topic %q, topic ID %s, partitions %s, but plan %s (offset %d) names topic %q, topic ID %s, partitions %s; "+
				"a control topic must serve exactly one action-state topic",
				ErrForeignPlan, op.PlanID, op.Offset, op.Plan.Topic, op.Plan.TopicID, partitionList(op.Plan.Offsets),
				l.ops[0].PlanID, l.ops[0].Offset, first.Topic, first.TopicID, partitionList(first.Offsets))
		}
	}
	// A set is a chain under "advances or equals" iff, sorted by a total
	// order extending it, each element dominates its predecessor.
	order := make([]int, len(l.ops))
	sums := make([]offsetSum, len(l.ops))
	for i := range l.ops {
		order[i] = i
		sums[i] = sumOf(l.ops[i].Plan.Offsets)
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case sums[a].less(sums[b]):
			return -1
		case sums[b].less(sums[a]):
			return 1
		}
		return 0
	})
	for k := 1; k < len(order); k++ {
		lo, hi := l.ops[order[k-1]], l.ops[order[k]]
		if !dominates(hi.Plan.Offsets, lo.Plan.Offsets) {
			return fmt.Errorf("%w: plans %s (offset %d) and %s (offset %d) each set a higher offset than the other on some partition (%s); "+
				"the effective boundary is ambiguous and nothing will be deleted. Inspect the control topic and the tools that wrote it",
				ErrIncomparablePlans, lo.PlanID, lo.Offset, hi.PlanID, hi.Offset, crossing(lo.Plan.Offsets, hi.Plan.Offsets))
		}
	}
	return nil
}

// ValidateFor checks that the history belongs to the given physical topic
// and partition set.
func (l *Log) ValidateFor(topic, topicID string, partitions Offsets) error {
	for _, op := range l.ops {
		if op.Plan.Topic != topic || op.Plan.TopicID != topicID || !op.Plan.Offsets.samePartitions(partitions) {
			if op.Plan.Topic == topic && op.Plan.TopicID == topicID {
				// The plan checked, not the recorded one, lacks partitions.
				if err := MissingPartitions("", topic, partitions, op.Plan.Offsets.Partitions(),
					fmt.Sprintf("recorded plan %s (offset %d) covers %s", op.PlanID, op.Offset, partitionList(op.Plan.Offsets))); err != nil {
					return err
				}
			}
			return fmt.Errorf("%w: recorded plan %s (offset %d) names topic %q, topic ID %s, partitions %s, not topic %q, topic ID %s, partitions %s; "+
				"if the action-state topic was deleted and recreated, its old boundaries no longer describe it: use a new control topic",
				ErrForeignPlan, op.PlanID, op.Offset, op.Plan.Topic, op.Plan.TopicID, partitionList(op.Plan.Offsets),
				topic, topicID, partitionList(partitions))
		}
	}
	return nil
}

// crossing names one partition where a is ahead of b and one where b is
// ahead of a.
func crossing(a, b Offsets) string {
	parts := slices.Sorted(maps.Keys(a))
	var ahead, behind = int32(-1), int32(-1)
	for _, p := range parts {
		if a[p] > b[p] && ahead < 0 {
			ahead = p
		}
		if a[p] < b[p] && behind < 0 {
			behind = p
		}
	}
	return fmt.Sprintf("partition %d: %d vs %d; partition %d: %d vs %d", ahead, a[ahead], b[ahead], behind, a[behind], b[behind])
}
