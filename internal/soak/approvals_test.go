package soak

import (
	"os"
	"slices"
	"strings"
	"testing"
)

func TestReviewApprovesOnlyTheNewHistoryTheTeamExpects(t *testing.T) {
	const id = "a5440177c24ca86c94163d0a3254bca95d7c4e4d3cc3671b267c8e68797adac4"
	held := `[new-history] module.fleet.flinkagents_cleanup_boundaries.this["agent-03"]: the plan is for topic ID X, the previous one for Y (the topic was recreated); review it and approve plan ID ` + id + ` in approvals.json`
	dir := t.TempDir()
	src := dir + "/src.json"
	if err := os.WriteFile(src, []byte(`{"approvals": {"plan_ids": []}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := newApprovals(src, dir+"/approvals.json")
	if err != nil {
		t.Fatal(err)
	}
	s := &Soak{approvals: a}
	if got := s.review([]string{held}); got != nil {
		t.Fatalf("approved %v for an operator nobody recreated", got)
	}
	a.expected["agent-03"] = true
	if got := s.review([]string{held, "[deletion-cap] something else"}); got != nil {
		t.Fatalf("approved %v beside an unexpected denial", got)
	}
	if got := s.review([]string{held}); len(got) != 1 || !slices.Contains(a.planIDs, id) {
		t.Fatalf("review: %v, approvals %v", got, a.planIDs)
	}
	data, err := os.ReadFile(dir + "/approvals.json")
	if err != nil || !strings.Contains(string(data), id) {
		t.Fatalf("approvals.json: %s %v", data, err)
	}
}
