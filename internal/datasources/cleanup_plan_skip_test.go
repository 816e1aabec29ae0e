package datasources_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// TestCleanupPlanSkipsUnreadablePoint: a job whose only point is cut short
// fails the plan by default; with on_unreadable = "skip" the plan is null
// (the error became a warning) and nothing is deleted. A pinned point and a
// missing directory are skipped the same way; a bad value is refused.
func TestCleanupPlanSkipsUnreadablePoint(t *testing.T) {
	f := newFollowEnv(t)
	f.checkpoint(1)
	cutMetadata(t, filepath.Join(f.dir, "chk-1"))
	cfg := func(body string) string {
		return f.Provider() + "data \"flinkagents_cleanup_plan\" \"follow\" {\n  operator_uid = \"agent-op\"\n" + body + "\n}\n"
	}
	skipped := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(followAddr, tfjsonpath.New("plan_json"), knownvalue.Null()),
		statecheck.ExpectKnownValue(followAddr, tfjsonpath.New("plan_id"), knownvalue.Null()),
		statecheck.ExpectKnownValue(followAddr, tfjsonpath.New("checkpoint_id"), knownvalue.Null()),
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: cfg(fmt.Sprintf("checkpoint_dir = %q\non_unreadable = \"ignore\"", f.dir)), ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Value Match`)},
			{Config: cfg(fmt.Sprintf("checkpoint_dir = %q", f.dir)), ExpectError: regexp.MustCompile(`chk-1`)},
			{Config: cfg(fmt.Sprintf("checkpoint_dir = %q\non_unreadable = \"fail\"", f.dir)), ExpectError: regexp.MustCompile(`chk-1`)},
			{Config: cfg(fmt.Sprintf("checkpoint_dir = %q\non_unreadable = \"skip\"", f.dir)), ConfigStateChecks: skipped},
			{Config: cfg(fmt.Sprintf("checkpoint_path = %q\non_unreadable = \"skip\"", filepath.Join(f.dir, "chk-1"))), ConfigStateChecks: skipped},
			{Config: cfg(fmt.Sprintf("checkpoint_dir = %q\non_unreadable = \"skip\"", filepath.Join(f.dir, "missing"))), ConfigStateChecks: skipped},
		},
	})
	for p, s := range f.StartOffsets(f.data) {
		if s != 0 {
			t.Errorf("partition %d starts at %d: something was deleted", p, s)
		}
	}
}
