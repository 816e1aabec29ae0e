package soak

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
)

// approvals is the team's approvals.json (examples/policies' document,
// copied into the work directory), which grows when a person reviews a
// plan the gate holds for review.
type approvals struct {
	file    string
	planIDs []string
	// expected holds, by operator, what tonight's remediation told the team
	// to expect: after a recreated topic, its first plan for the new topic
	// ID is held by [new-history] until reviewed.
	expected map[string]bool
}

func newApprovals(src, file string) (*approvals, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Approvals struct {
			PlanIDs []string `json:"plan_ids"`
		} `json:"approvals"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	a := &approvals{file: file, planIDs: doc.Approvals.PlanIDs, expected: map[string]bool{}}
	return a, a.write()
}

func (a *approvals) write() error {
	doc := map[string]any{"approvals": map[string]any{"plan_ids": a.planIDs}}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(a.file, data, 0o644)
}

// newHistory matches the gate's [new-history] denial: the entry's key and
// the plan ID it asks to approve.
var newHistory = regexp.MustCompile(`^\[new-history\] \S+\["([^"]+)"\]: .* approve plan ID ([0-9a-f]{64}) in approvals\.json`)

// review is the person who reads the gate's denials after a remediation:
// a [new-history] hold of an operator whose topic the team recreated
// tonight is what they expect, so they approve that plan ID. Anything else
// stays denied. It returns what it approved.
func (s *Soak) review(deny []string) []string {
	var approved []string
	for _, d := range deny {
		m := newHistory.FindStringSubmatch(d)
		if m == nil || !s.approvals.expected[m[1]] {
			return nil // something nobody expected: no approval at all
		}
		approved = append(approved, m[1]+" plan "+m[2])
		s.approvals.planIDs = append(s.approvals.planIDs, m[2])
	}
	if len(approved) > 0 {
		if err := s.approvals.write(); err != nil {
			return nil
		}
		for _, d := range deny {
			delete(s.approvals.expected, newHistory.FindStringSubmatch(d)[1])
		}
	}
	return approved
}
