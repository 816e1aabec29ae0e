package resources_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// v0BoundaryState is a terraform.tfstate holding one boundary as 0.0.x
// wrote it: schema version 0, the attributes removed since, partitions
// keyed zero-padded, and the sensitive marks of its sensitive attributes.
func (b *boundaryEnv) v0BoundaryState(t *testing.T, p cleanupplan.Plan, res cleanup.Result, controlTopicID string) string {
	t.Helper()
	offsets, parts := map[string]int64{}, map[string]string{}
	ranges := []map[string]int64{}
	for _, part := range p.Offsets.Partitions() {
		offsets[fmt.Sprint(part)] = p.Offsets[part]
		parts[fmt.Sprintf("%02d", part)] = fmt.Sprintf("boundary %d, nothing to delete", p.Offsets[part])
	}
	for _, r := range res.Deleted {
		parts[fmt.Sprintf("%02d", r.Partition)] = fmt.Sprintf("boundary %d, deletes [%d, %d): %d records", r.To, r.From, r.To, r.To-r.From)
		ranges = append(ranges, map[string]int64{"partition": int64(r.Partition), "from": r.From, "to": r.To})
	}
	var deleted int64
	for _, r := range res.Deleted {
		deleted += r.To - r.From
	}
	sensitive := []any{}
	for _, name := range []string{"committed_boundary", "delete_ranges", "offsets", "plan_json"} {
		sensitive = append(sensitive, []any{map[string]any{"type": "get_attr", "value": name}})
	}
	state, err := json.MarshalIndent(map[string]any{
		"version": 4, "terraform_version": "1.11.4", "serial": 3, "lineage": "0d7d3c9e-3c1a-4a57-9e43-3e1f7e0b5a10",
		"outputs": map[string]any{}, "check_results": nil,
		"resources": []any{map[string]any{
			"mode": "managed", "type": "flinkagents_cleanup_boundary", "name": "orders",
			"provider": fmt.Sprintf("provider[%q]", acctest.ProviderAddress()),
			"instances": []any{map[string]any{
				"schema_version": 0,
				"attributes": map[string]any{
					"id": b.control, "control_topic": b.control, "control_topic_id": controlTopicID, "action_state_topic": b.data,
					"plan_json": string(p.File()), "timeouts": nil, "plan_id": p.ID(), "topic": p.Topic, "topic_id": p.TopicID,
					"source_recovery_point": p.SourceRecoveryPoint, "offsets": offsets, "status": "APPLIED",
					"committed_boundary": offsets, "records_to_delete": deleted, "delete_ranges": ranges, "partitions": parts,
					"recovery_points": nil, "keep_restorable": nil, "unrestorable_points": nil,
				},
				"sensitive_attributes": sensitive,
			}},
		}},
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(state)
}

// TestCleanupBoundaryStateFromV0Plans: a working directory whose state
// 0.0.x wrote upgrades on the first plan. Terraform keeps the old sensitive
// mark on plan_json until an apply drops it, so that plan proposes only
// that (the value unchanged); its apply writes nothing to Kafka, the plan
// after it is empty, and the next advance hides nothing behind
// "(sensitive value)" and keys partitions in decimal.
func TestCleanupBoundaryStateFromV0Plans(t *testing.T) {
	b := newBoundaryEnv(t, 12, 30)
	applied := b.plan(t, "file:/checkpoints/orders/chk-10", func(p int32) int64 { return 5 + int64(p) })
	res, err := cleanup.Apply(context.Background(), b.Admin, cleanup.Request{Plan: applied, ControlTopic: b.control})
	if err != nil {
		t.Fatal(err)
	}
	w := b.Workdir()
	w.Write("terraform.tfstate", b.v0BoundaryState(t, applied, res, res.ControlTopicID))
	w.Write("main.tf", requiredProviders+b.config(applied))
	// OpenTofu also lists recovery_points as "(write-only attribute)" in any
	// update, a value it never shows; only changed values count here.
	out := string(w.Terraform("plan"))
	if !strings.Contains(out, "will no longer be marked as sensitive") || len(regexp.MustCompile(`(?m)^\s+~ [a-z_]+\s+= [^(\n]|^\s+~ [a-z_]+\s+= \(sensitive`).FindAllString(out, -1)) != 1 ||
		regexp.MustCompile(`(?m)^\s+~ \S+\s+=.*->`).MatchString(out) {
		t.Fatalf("the first plan after the upgrade should only drop plan_json's sensitive mark:\n%s", out)
	}
	w.Terraform("apply", "-auto-approve")
	if out := string(w.Terraform("plan")); !strings.Contains(out, "No changes.") {
		t.Fatalf("the plan after the upgrade's apply is not empty:\n%s", out)
	}
	log, err := cleanup.History(context.Background(), b.Admin, b.control)
	if err != nil {
		t.Fatal(err)
	}
	if ops := log.Operations(); len(ops) != 1 || ops[0].PlanID != applied.ID() {
		t.Fatalf("the upgrade's apply changed the control topic: %+v", ops)
	}

	w.Write("main.tf", requiredProviders+b.config(b.plan(t, "file:/checkpoints/orders/chk-20", func(int32) int64 { return 20 })))
	out = string(w.Terraform("plan"))
	if strings.Contains(out, "(sensitive value)") {
		t.Fatalf("the first advance after the upgrade hides a value:\n%s", out)
	}
	for _, want := range []string{`~ "11" = "nothing to delete" -> "deletes 4 records from offset 16"`, `~ "10" = 15 -> 20`} {
		if !strings.Contains(out, want) {
			t.Fatalf("the first advance after the upgrade does not show %s:\n%s", want, out)
		}
	}
}
