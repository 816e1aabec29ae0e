package resources_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// TestCleanupBoundaryReviewsTheEffectiveBoundary: another applier recorded
// a higher plan COMMITTED and never applied it. The unchanged configuration
// (the lower plan, APPLIED) must review what its apply will do, which is to
// complete the deletion up to the recorded boundary: records_to_delete,
// partitions and unrestorable_points are computed against it, keep_restorable
// refuses a savepoint between the two plans, and the warning names the plan
// that was recorded, its status and its offset in the control topic.
func TestCleanupBoundaryReviewsTheEffectiveBoundary(t *testing.T) {
	b := newBoundaryEnv(t, 2, 10)
	lower := b.plan(t, "file:/cp/job/chk-2", func(int32) int64 { return 2 })
	higher := b.plan(t, "file:/cp/job/chk-6", func(int32) int64 { return 6 })
	point := func(path string, off int) string {
		return fmt.Sprintf(`{ path = %q, topic = %q, topic_id = %q, offsets = { "0" = %d, "1" = %d } }`, path, b.data, b.topicID, off, off)
	}
	config := func(keep string) string {
		c := b.config(lower)
		end := strings.LastIndex(c, "}")
		return c[:end] + "  recovery_points = [" + point("file:/cp/job/chk-2", 2) + ", " + point("file:/sp/savepoint-release", 4) + "]\n" + keep + "\n}\n"
	}
	addr := "flinkagents_cleanup_boundary.orders"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: config(`  keep_restorable = ["file:/sp/"]`)},
			{
				PreConfig: func() {
					k, v := cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, higher)
					if _, err := b.AppendControl(context.Background(), b.control, k, v); err != nil {
						t.Fatal(err)
					}
				},
				Config:   config(`  keep_restorable = ["file:/sp/"]`),
				PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Boundary Would Make A Kept Recovery Point Unrestorable.*file:/sp/savepoint-release.*` +
					`marker\s+is\s+4\s+and\s+the\s+new\s+boundary\s+is\s+6`),
			},
			{
				Config: config(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("records_to_delete"), knownvalue.Int64Exact(8)),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("partitions").AtMapKey("0"),
						knownvalue.StringExact("deletes 4 records from offset 2; recorded boundary 6 (higher plan recorded elsewhere)")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("unrestorable_points"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"path": knownvalue.StringExact("file:/cp/job/chk-2")}),
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"path": knownvalue.StringExact("file:/sp/savepoint-release")}),
					})),
				}},
			},
		},
	})
	for p, s := range b.StartOffsets(b.data) {
		if s != 6 {
			t.Errorf("partition %d starts at %d, want 6: the apply completes the recorded boundary", p, s)
		}
	}
}

// TestCleanupBoundaryNamesWhoRecordedTheHigherBoundary: the warning of a
// refresh that finds records below the effective boundary says which plan
// the control topic records above this one, with its status and offset,
// instead of guessing at a broker crash.
func TestCleanupBoundaryNamesWhoRecordedTheHigherBoundary(t *testing.T) {
	b := newBoundaryEnv(t, 2, 10)
	lower := b.plan(t, "file:/cp/job/chk-2", func(int32) int64 { return 2 })
	higher := b.plan(t, "file:/cp/job/chk-6", func(int32) int64 { return 6 })
	w := b.Workdir()
	w.Write("main.tf", requiredProviders+b.config(lower))
	w.Terraform("apply", "-auto-approve")
	k, v := cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, higher)
	offset, err := b.AppendControl(context.Background(), b.control, k, v)
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Join(strings.Fields(string(w.Terraform("plan"))), " ")
	want := fmt.Sprintf(`Warning: A Higher Cleanup Boundary Is Recorded But Not Applied .* records plan %s (from "file:/cp/job/chk-6", recorded COMMITTED at offset %d) above this boundary's plan %s`,
		higher.ID(), offset, lower.ID())
	if !regexp.MustCompile(strings.ReplaceAll(regexp.QuoteMeta(want), `\.\*`, `.*`)).MatchString(out) {
		t.Errorf("the warning does not name the plan recorded above:\nwant %s\n%s", want, out)
	}
	if strings.Contains(out, "crash") {
		t.Errorf("the warning guesses at a broker crash:\n%s", out)
	}
}

// TestCleanupBoundaryTopicGoneBeforeSavedPlanApplies: the action-state topic
// is deleted between `terraform plan -out` and the apply of that saved plan.
// The apply stops with a diagnostic naming the topic, not Terraform's
// "Provider produced inconsistent final plan", and nothing is written.
func TestCleanupBoundaryTopicGoneBeforeSavedPlanApplies(t *testing.T) {
	b := newBoundaryEnv(t, 2, 10)
	w := b.Workdir()
	w.Write("main.tf", requiredProviders+b.config(b.plan(t, "file:/cp/job/chk-2", func(int32) int64 { return 2 })))
	w.Terraform("plan", "-out=tfplan")
	b.DeleteTopic(b.data)
	out, err := w.TerraformErr("apply", "tfplan")
	all := strings.Join(strings.Fields(string(out)+fmt.Sprint(err)), " ")
	if err == nil || !strings.Contains(all, "Action-State Topic Is Gone") || !strings.Contains(all, b.data) {
		t.Fatalf("apply of a saved plan whose topic is gone: %v, want the topic named as gone:\n%s", err, all)
	}
	if strings.Contains(all, "inconsistent final plan") {
		t.Fatalf("Terraform blames the provider:\n%s", all)
	}
	log, err := cleanup.History(context.Background(), b.Admin, b.control)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(log.Operations()); n != 0 {
		t.Fatalf("the control topic records %d plans, want none", n)
	}
}
