package resources_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// recovery_points written by hand: malformed points are refused before
// anything is written, and a point of another partition set is listed as
// unrestorable (the runtime refuses it once a boundary is recorded).
func TestCleanupBoundaryRecoveryPoints(t *testing.T) {
	b := newBoundaryEnv(t, 3, 10)
	p := b.plan(t, "file:/cp/job/chk-2", func(int32) int64 { return 5 })
	config := func(points, keep string) string {
		c := b.config(p)
		end := strings.LastIndex(c, "}")
		return c[:end] + points + "\n" + keep + "\n}\n"
	}
	point := func(path, offsets string) string {
		return fmt.Sprintf(`{ path = %q, topic = %q, topic_id = %q, offsets = %s }`, path, b.data, b.topicID, offsets)
	}
	list := func(points ...string) string { return "  recovery_points = [" + strings.Join(points, ", ") + "]" }
	same := point("file:/cp/job/chk-2", `{ "0" = 5, "1" = 5, "2" = 5 }`)
	addr := "flinkagents_cleanup_boundary.orders"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: config(list(point("file:/sp/savepoint-1", `{ "0" = 5, "one" = 5, "2" = 5 }`)), ""), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Invalid Recovery Point.*file:/sp/savepoint-1.*offsets key "one" is not a\s+partition number`)},
			{Config: config(list(same, point("file:/sp/savepoint-1", `{ "0" = 5, "1" = -1, "2" = 5 }`)), ""), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Invalid Recovery Point.*file:/sp/savepoint-1.*partition 1 has negative\s+offset -1`)},
			{Config: config("", `  keep_restorable = ["file:/sp/"]`), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*recovery_points`)},
			{
				Config: config(list(same, point("file:/sp/savepoint-old-topic", `{ "0" = 9, "1" = 9 }`)), ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("unrestorable_points"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"path":   knownvalue.StringExact("file:/sp/savepoint-old-topic"),
							"reason": knownvalue.StringRegexp(regexp.MustCompile(`partitions \[0 1\]; the boundary is for .*partitions \[0 1 2\]$`)),
						}),
					})),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("unrestorable_points").AtSliceIndex(0).AtMapKey("path"), knownvalue.StringExact("file:/sp/savepoint-old-topic")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("APPLIED")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("recovery_points"), knownvalue.Null()),
				},
			},
			{
				// A new checkpoint, and the old point retired: the boundary
				// does not move, so nothing is planned (recovery_points is
				// write-only; the review stands).
				Config: config(list(same, point("file:/cp/job/chk-3", `{ "0" = 8, "1" = 8, "2" = 8 }`)), ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
		},
	})
	if s := b.StartOffsets(b.data); s[0] != 5 {
		t.Fatalf("start offsets %v, want the boundary at 5", s)
	}
}
