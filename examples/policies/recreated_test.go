package policies_test

import (
	"fmt"
	"testing"
)

// TestRecreatedTopicCanPassTheGate: found by the soak (RELIABILITY.md). An
// operator's action-state topic was deleted and recreated out of band; the
// team followed the provider's advice (a new plan from a checkpoint taken on
// the new topic, a new control topic for its history). The fleet's next plan
// moves that entry to a plan for the new topic ID, whose offsets start again
// near zero. [boundary-forward] compares them with the old topic's offsets
// and denies the move, and no approval lifts it, so the nightly gate stops
// the whole fleet, every night, until someone edits the policy. A plan for
// another topic ID is a new history rather than a backward move: after
// review, an approval of its plan ID must let it through.
//
// The plan is hand-written in the shape of `terraform show -json` (the
// provider itself refuses nothing here: the new plan matches the live topic
// and the new, empty control topic).
func TestRecreatedTopicCanPassTheGate(t *testing.T) {
	const newPlanID = "5f2c3c0f0f3f5a6b2f4a1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f"
	planJSON := func(id, topicID string, p0, p1 int64) string {
		return fmt.Sprintf(`{"schemaVersion":1,"planId":%q,"sourceRecoveryPoint":"s3://ckpt/job/chk-1","topic":"orders-action-state","topicId":%q,"offsets":{"0":%d,"1":%d}}`,
			id, topicID, p0, p1)
	}
	entry := func(id, topicID string, p0, p1 int64, records int64) map[string]any {
		return map[string]any{
			"control_topic": "orders-cleanup-control", "action_state_topic": "orders-action-state",
			"plan_json": planJSON(id, topicID, p0, p1), "plan_id": id, "status": "APPLIED",
			"records_to_delete": records, "partitions": map[string]any{},
		}
	}
	p := plan{"resource_changes": []any{map[string]any{
		"address": "module.fleet.flinkagents_cleanup_boundaries.this", "mode": "managed", "type": "flinkagents_cleanup_boundaries",
		"change": map[string]any{
			"actions":       []any{"update"},
			"before":        map[string]any{"boundaries": map[string]any{"orders": entry("a1", "kOLJdqugT5uqGgQnB02hzw", 8, 13, 0)}},
			"after":         map[string]any{"boundaries": map[string]any{"orders": entry(newPlanID, "4zYbFGfzSGSD5z3jQ76t0g", 0, 7, 7)}},
			"after_unknown": map[string]any{},
		},
	}}}
	approved := map[string]any{"approvals": map[string]any{"plan_ids": []any{newPlanID}}}
	allowed(t, "a plan for the recreated topic, approved", deny(t, p, approved))
}
