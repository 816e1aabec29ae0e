package checkpoint

import (
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
)

// recoveryMarkerState is the union list state Flink Agents writes
// (KafkaActionStateRecoveryMarker.UNION_STATE_NAME).
const recoveryMarkerState = "recoveryMarker"

// Selector picks the agent operator. Set at most one field; with neither,
// the unique operator holding a UNION "recoveryMarker" state is used.
type Selector struct {
	// UID is the uid set with .uid() on the operator; its ID is
	// OperatorIDFromUID(UID).
	UID string
	// UIDHash is the operator ID as 32 hex digits (Flink's "uid hash").
	UIDHash string
}

// selectOperator applies sel to md.
func selectOperator(md *Metadata, sel Selector) (*Operator, error) {
	switch {
	case sel.UID != "" && sel.UIDHash != "":
		return nil, fmt.Errorf("%w: set either the operator uid or the uid hash, not both", ErrInvalidSelector)
	case sel.UIDHash != "":
		raw, err := hex.DecodeString(sel.UIDHash)
		if err != nil || len(raw) != 16 {
			return nil, fmt.Errorf("%w: uid hash %q is not 32 hexadecimal digits", ErrInvalidSelector, sel.UIDHash)
		}
		if op := findOperator(md, [16]byte(raw)); op != nil {
			return op, nil
		}
		return nil, fmt.Errorf("%w: no operator with uid hash %s; %s", ErrOperatorNotFound, strings.ToLower(sel.UIDHash), describeOperators(md))
	case sel.UID != "":
		id := OperatorIDFromUID(sel.UID)
		if op := findOperator(md, id); op != nil {
			return op, nil
		}
		// From metadata version 5 the uid itself is stored; it differs from
		// the ID's source only when the job used setUidHash.
		for i := range md.Operators {
			if md.Operators[i].UID == sel.UID {
				return &md.Operators[i], nil
			}
		}
		return nil, fmt.Errorf("%w: no operator with uid %q (uid hash %x); %s", ErrOperatorNotFound, sel.UID, id, describeOperators(md))
	}
	var candidates []*Operator
	for i := range md.Operators {
		if holdsUnionState(&md.Operators[i], recoveryMarkerState) {
			candidates = append(candidates, &md.Operators[i])
		}
	}
	switch len(candidates) {
	case 1:
		return candidates[0], nil
	case 0:
		return nil, fmt.Errorf("%w: no operator holds a UNION state %q; %s", ErrOperatorNotFound, recoveryMarkerState, describeOperators(md))
	}
	names := make([]string, len(candidates))
	for i, op := range candidates {
		names[i] = describeOperator(op)
	}
	return nil, fmt.Errorf("%w: %s; choose one by operator uid or uid hash", ErrAmbiguousOperator, strings.Join(names, ", "))
}

func findOperator(md *Metadata, id [16]byte) *Operator {
	for i := range md.Operators {
		if md.Operators[i].ID == id {
			return &md.Operators[i]
		}
	}
	return nil
}

func holdsUnionState(op *Operator, name string) bool {
	for _, sub := range op.Subtasks {
		if sub.Managed != nil {
			if s := sub.Managed.State(name); s != nil && s.Mode == ModeUnion {
				return true
			}
		}
	}
	return false
}

// stateNames lists the managed operator-state names of op, sorted.
func stateNames(op *Operator) []string {
	seen := map[string]bool{}
	var names []string
	for _, sub := range op.Subtasks {
		if sub.Managed == nil {
			continue
		}
		for _, s := range sub.Managed.States {
			if !seen[s.Name] {
				seen[s.Name] = true
				names = append(names, s.Name)
			}
		}
	}
	sort.Strings(names)
	return names
}

func describeOperator(op *Operator) string {
	var b strings.Builder
	b.WriteString(op.IDHex())
	if op.Name != "" || op.UID != "" {
		fmt.Fprintf(&b, " (name %q, uid %q)", op.Name, op.UID)
	}
	return b.String()
}

func describeOperators(md *Metadata) string {
	if len(md.Operators) == 0 {
		return "the checkpoint has no operators"
	}
	parts := make([]string, len(md.Operators))
	for i := range md.Operators {
		op := &md.Operators[i]
		parts[i] = fmt.Sprintf("%s states %v", describeOperator(op), stateNames(op))
	}
	return "operators: " + strings.Join(parts, "; ")
}
