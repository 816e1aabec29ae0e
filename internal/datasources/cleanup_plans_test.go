package datasources_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

const fleetAddr = "data.flinkagents_cleanup_plans.fleet"

// fleetDirs is one followEnv job with a complete checkpoint (orders),
// beside a job that has not completed one (young) and a job whose only
// point is cut short (broken).
type fleetDirs struct {
	*followEnv
	young, broken string
}

func newFleetDirs(t *testing.T) fleetDirs {
	f := newFollowEnv(t)
	f.checkpoint(1)
	root := t.TempDir()
	d := fleetDirs{followEnv: f, young: filepath.Join(root, "job-young"), broken: filepath.Join(root, "job-broken")}
	if err := os.MkdirAll(filepath.Join(d.young, "chk-1"), 0o755); err != nil { // in progress
		t.Fatal(err)
	}
	writePoint(t, filepath.Join(d.broken, "chk-1"), 1, f.data, f.topicID, followParts, 2, t0)
	cutMetadata(t, filepath.Join(d.broken, "chk-1"))
	return d
}

// config reads the three jobs together (attrs inside the plural block),
// beside the single data source on orders' directory.
func (d fleetDirs) config(attrs string) string {
	return d.Provider() + fmt.Sprintf(`
data "flinkagents_cleanup_plan" "follow" {
  checkpoint_dir = %[1]q
  operator_uid   = "agent-op"
}

data "flinkagents_cleanup_plans" "fleet" {
  jobs = {
    orders = { checkpoint_dir = %[1]q, operator_uid = "agent-op" }
    young  = { checkpoint_dir = %[2]q }
    broken = { checkpoint_dir = %[3]q, operator_uid = "agent-op" }
  }
%[4]s
}
`, d.dir, d.young, d.broken, attrs)
}

// Three jobs in one read: orders' plan is byte for byte the single data
// source's, young (no complete point yet) and broken (skipped) have no
// key, and nothing fails. Under the default on_unreadable, broken fails the
// read with an error naming it.
func TestCleanupPlansFollowsManyJobs(t *testing.T) {
	d := newFleetDirs(t)
	onlyOrders := knownvalue.MapSizeExact(1)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: d.config(`  on_unreadable = "skip"`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.CompareValuePairs(fleetAddr, tfjsonpath.New("plans").AtMapKey("orders"), followAddr, tfjsonpath.New("plan_json"), compare.ValuesSame()),
					statecheck.CompareValuePairs(fleetAddr, tfjsonpath.New("plan_ids").AtMapKey("orders"), followAddr, tfjsonpath.New("plan_id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue(fleetAddr, tfjsonpath.New("plans"), onlyOrders),
					statecheck.ExpectKnownValue(fleetAddr, tfjsonpath.New("plan_ids"), onlyOrders),
					statecheck.ExpectKnownValue(fleetAddr, tfjsonpath.New("plans").AtMapKey("orders"), knownvalue.StringRegexp(regexp.MustCompile(regexp.QuoteMeta(d.dir+"/chk-1")))),
				},
			},
			{Config: d.config(""), ExpectError: regexp.MustCompile(`Job "broken": .*\n(?s).*` + regexp.QuoteMeta(filepath.Join(d.broken, "chk-1")))},
			{Config: d.config(`  on_unreadable = "fail"`), ExpectError: regexp.MustCompile(`Job "broken": `)},
		},
	})
}

// Per-job refusals name the job's key; shared settings are checked as in
// flinkagents_cleanup_plan.
func TestCleanupPlansInputRules(t *testing.T) {
	e := acctest.New(t)
	dir := t.TempDir()
	cfg := func(jobs, attrs string) string {
		return e.Provider() + "data \"flinkagents_cleanup_plans\" \"p\" {\n  jobs = {\n" + jobs + "\n  }\n" + attrs + "\n}\n"
	}
	ok := fmt.Sprintf("    ok = { checkpoint_dir = %q }", dir)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: cfg(ok+"\n    lost = { operator_uid = \"agent-op\" }", ""), ExpectError: regexp.MustCompile(`Job "lost" Has No Directory To Follow`)},
			{Config: cfg(ok+fmt.Sprintf("\n    twice = { savepoint_dir = %q, operator_uid = \"agent-op\", operator_uid_hash = %q }", dir, "0123456789abcdef0123456789abcdef"), ""),
				ExpectError: regexp.MustCompile(`Job "twice" Names Its Operator Twice`)},
			{Config: cfg(fmt.Sprintf("    bad = { checkpoint_dir = %q, operator_uid_hash = \"xyz\" }", dir), ""), ExpectError: regexp.MustCompile(`(?s)jobs\["bad"\]\.operator_uid_hash.*32\s+hexadecimal`)},
			{Config: cfg(ok, `select = "middle"`), ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Value Match`)},
			{Config: cfg(ok, "select = \"newest\"\nnth_newest = 2"), ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination`)},
			{Config: cfg(fmt.Sprintf("    gone = { checkpoint_dir = %q }", filepath.Join(dir, "missing")), ""), ExpectError: regexp.MustCompile(`Job "gone": Recovery Point Directory Not Found`)},
			{Config: cfg(ok, ""), ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.flinkagents_cleanup_plans.p", tfjsonpath.New("plans"), knownvalue.MapExact(map[string]knownvalue.Check{})),
			}},
		},
	})
}
