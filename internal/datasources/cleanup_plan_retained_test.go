package datasources_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

// The job: a release savepoint with markers at 60 kept in
// savepoint_dir, retained checkpoints at 90 (chk-45) and 100 (chk-50).
// Copying the savepoint (its _metadata now the newest) changes nothing;
// the boundary lists what it makes unrestorable and refuses to make a kept
// point so.
func TestCleanupPlanKeepsACopiedSavepointRestorable(t *testing.T) {
	f := newFollowEnv(t)
	f.Produce(f.data, followParts, 80) // 110 records per partition, for markers up to 102
	spDir := filepath.Join(filepath.Dir(f.dir), "savepoints")
	savepoint := filepath.Join(spDir, "savepoint-7f3a00-0123456789ab")
	writePoint(t, savepoint, 30, f.data, f.topicID, followParts, 60, t0)
	f.checkpoint(45)
	f.checkpoint(50)
	sp, chk45 := "file:"+savepoint, fmt.Sprintf("file:%s/chk-45", f.dir)
	config := func(choice, keep string) string {
		return f.Provider() + fmt.Sprintf(`
data "flinkagents_cleanup_plan" "follow" {
  checkpoint_dir = "file:%s"
  savepoint_dir  = "file:%s"
  operator_uid   = "agent-op"
%s
}

data "flinkagents_recovery_points" "orders" {
  checkpoint_dir = data.flinkagents_cleanup_plan.follow.checkpoint_dir
  savepoint_dir  = data.flinkagents_cleanup_plan.follow.savepoint_dir
  operator_uid   = "agent-op"
}

resource "flinkagents_cleanup_boundary" "orders" {
  control_topic      = %q
  action_state_topic = %q
  plan_json          = data.flinkagents_cleanup_plan.follow.plan_json
  recovery_points    = data.flinkagents_cleanup_plan.follow.recovery_points
%s
}
`, f.dir, spDir, choice, f.control, f.data, keep)
	}
	keepSavepoints := fmt.Sprintf("  keep_restorable = [%q]", "file:"+spDir+"/")
	boundary := "flinkagents_cleanup_boundary.orders"
	unrestorable := tfjsonpath.New("unrestorable_points")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: config("", keepSavepoints),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(followAddr, tfjsonpath.New("source_recovery_point"), knownvalue.StringExact(sp)),
					statecheck.ExpectKnownValue(followAddr, tfjsonpath.New("recovery_points"), knownvalue.ListExact([]knownvalue.Check{
						recoveryPoint(fmt.Sprintf("file:%s/chk-50", f.dir), "checkpoint", 50, 100),
						recoveryPoint(chk45, "checkpoint", 45, 90),
						recoveryPoint(sp, "savepoint", 30, 60),
					})),
					statecheck.ExpectKnownValue(boundary, unrestorable, knownvalue.ListSizeExact(0)),
				},
				Check: f.startsAt(30),
			},
			{
				// cp -r / aws s3 sync: the savepoint's _metadata is now the
				// newest file. The plan follows the markers: nothing changes.
				PreConfig: func() {
					copied := filepath.Join(t.TempDir(), "copy")
					if err := os.CopyFS(copied, os.DirFS(savepoint)); err != nil {
						t.Fatal(err)
					}
					if err := os.RemoveAll(savepoint); err != nil {
						t.Fatal(err)
					}
					if err := os.CopyFS(savepoint, os.DirFS(copied)); err != nil {
						t.Fatal(err)
					}
					later := t0.Add(24 * time.Hour)
					if err := os.Chtimes(filepath.Join(savepoint, "_metadata"), later, later); err != nil {
						t.Fatal(err)
					}
				},
				Config:           config("", keepSavepoints),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(followAddr, tfjsonpath.New("source_recovery_point"), knownvalue.StringExact(sp)),
					// flinkagents_recovery_points lists in the same order.
					statecheck.ExpectKnownValue("data.flinkagents_recovery_points.orders", tfjsonpath.New("points").AtSliceIndex(0).AtMapKey("path"),
						knownvalue.StringExact(fmt.Sprintf("file:%s/chk-50", f.dir))),
					statecheck.ExpectKnownValue("data.flinkagents_recovery_points.orders", tfjsonpath.New("points").AtSliceIndex(2).AtMapKey("path"),
						knownvalue.StringExact(sp)),
				},
			},
			{
				Config:   config(`  select = "newest"`, keepSavepoints),
				PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Boundary Would Make A Kept Recovery Point Unrestorable.*` + regexp.QuoteMeta(sp) +
					`.*on\s+partition\s+0\s+its\s+marker\s+is\s+60\s+and\s+the\s+new\s+boundary\s+is\s+100.*Nothing\s+was\s+written`),
			},
			{
				Config:      config("", `  keep_restorable = ["file:/releases/savepoint-"]`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Kept Recovery Point Not Found.*file:/releases/savepoint-`),
			},
			{
				Config: config(`  select = "newest"`, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(boundary, unrestorable, knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"path": knownvalue.StringExact(chk45),
							"reason": knownvalue.StringExact("partition 0: marker 90 below new boundary 100; " +
								"partition 1: marker 91 below new boundary 101; partition 2: marker 92 below new boundary 102"),
						}),
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"path": knownvalue.StringExact(sp),
							"reason": knownvalue.StringExact("partition 0: marker 60 below new boundary 100; " +
								"partition 1: marker 61 below new boundary 101; partition 2: marker 62 below new boundary 102"),
						}),
					})),
				}},
				Check: f.startsAt(50),
			},
			{
				// A point whose markers cross the others' cannot be ordered:
				// refused, naming both, never guessed.
				PreConfig: func() {
					setMetadata(t, filepath.Join(spDir, "savepoint-7f3a00-fedcba987654"), t0, checkpoint.SavepointSpec{MetadataVersion: 5, CheckpointID: 31,
						OperatorUID: "agent-op", Markers: [][]checkpoint.Marker{{{SchemaVersion: 1, Topic: f.data, TopicID: f.topicID,
							Offsets: map[int32]int64{0: 95, 1: 50, 2: 95}}}}})
				},
				Config:      config("", ""),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Recovery Points Cannot Be Ordered.*savepoint-7f3a00-0123456789ab\s+and\s+\S*savepoint-7f3a00-fedcba987654.*partition\s+1:\s+61\s+vs\s+50`),
			},
		},
	})
}

func recoveryPoint(path, kind string, id, base int64) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"path":          knownvalue.StringExact(path),
		"kind":          knownvalue.StringExact(kind),
		"checkpoint_id": knownvalue.Int64Exact(id),
		"topic":         knownvalue.NotNull(),
		"topic_id":      knownvalue.NotNull(),
		"offsets": knownvalue.MapExact(map[string]knownvalue.Check{
			"0": knownvalue.Int64Exact(base), "1": knownvalue.Int64Exact(base + 1), "2": knownvalue.Int64Exact(base + 2),
		}),
	})
}
