package datasources_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// writePoint writes a recovery point whose two subtasks hold markers for
// topic, at offsets base+p and base+p+1 (so the merged offset is base+p),
// and sets the _metadata time.
func writePoint(t *testing.T, dir string, id int64, topic, topicID string, parts int32, base int64, at time.Time) {
	t.Helper()
	markers := make([][]checkpoint.Marker, 2)
	for sub := range markers {
		offs := map[int32]int64{}
		for p := range parts {
			offs[p] = base + int64(p) + int64(sub)
		}
		markers[sub] = []checkpoint.Marker{{SchemaVersion: 1, Topic: topic, TopicID: topicID, Offsets: offs}}
	}
	setMetadata(t, dir, at, checkpoint.SavepointSpec{MetadataVersion: 5, CheckpointID: id, OperatorUID: "agent-op", Markers: markers})
}

func setMetadata(t *testing.T, dir string, at time.Time, spec checkpoint.SavepointSpec) {
	t.Helper()
	if err := checkpoint.WriteSavepoint(dir, spec); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Join(dir, "_metadata"), at, at); err != nil {
		t.Fatal(err)
	}
}

const pointsAddr = "data.flinkagents_recovery_points.orders"

func point(i int, attr string) tfjsonpath.Path {
	return tfjsonpath.New("points").AtSliceIndex(i).AtMapKey(attr)
}

// The example workflow: keep the newest three recovery points, clean
// everything below the third, through the real CLI against a broker.
func TestRecoveryPointsKeepNewestThree(t *testing.T) {
	e := acctest.New(t)
	data, control := e.Name("orders-action-state"), e.Name("orders-cleanup-control")
	const parts = 3
	topicID := e.CreateTopic(data, parts, cleanup.DataTopicSettings)
	e.CreateTopic(control, 1, map[string]string{"cleanup.policy": "compact"})
	e.Produce(data, parts, 30)

	root := t.TempDir()
	cp, sp := filepath.Join(root, "checkpoints", "job-7f3a"), filepath.Join(root, "savepoints")
	for k := int64(1); k <= 5; k++ {
		writePoint(t, filepath.Join(cp, fmt.Sprintf("chk-%d", k)), k, data, topicID, parts, 2*k, t0.Add(time.Duration(k)*time.Minute))
	}
	if err := os.MkdirAll(filepath.Join(cp, "chk-6"), 0o755); err != nil { // in progress: no _metadata
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(cp, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	writePoint(t, filepath.Join(sp, "savepoint-7f3a00-0123456789ab"), 30, data, topicID, parts, 5, t0.Add(150*time.Second))

	config := e.Provider() + fmt.Sprintf(`
data "flinkagents_recovery_points" "orders" {
  checkpoint_dir = "file:%s"
  savepoint_dir  = %q
  operator_uid   = "agent-op"
}

data "flinkagents_cleanup_plan" "keep" {
  checkpoint_path = data.flinkagents_recovery_points.orders.points[2].path
  operator_uid    = "agent-op"
}

resource "flinkagents_cleanup_boundary" "orders" {
  control_topic      = %q
  action_state_topic = %q
  plan_json          = data.flinkagents_cleanup_plan.keep.plan_json
}
`, cp, sp, control, data)

	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(pointsAddr, tfjsonpath.New("points"), knownvalue.ListSizeExact(6)),
				statecheck.ExpectKnownValue(pointsAddr, point(0, "path"), knownvalue.StringExact("file:"+cp+"/chk-5")),
				statecheck.ExpectKnownValue(pointsAddr, point(0, "checkpoint_id"), knownvalue.Int64Exact(5)),
				statecheck.ExpectKnownValue(pointsAddr, point(0, "modified_at"), knownvalue.StringExact("2026-03-01T12:05:00Z")),
				statecheck.ExpectKnownValue(pointsAddr, point(2, "path"), knownvalue.StringExact("file:"+cp+"/chk-3")),
				statecheck.ExpectKnownValue(pointsAddr, point(2, "offsets"), knownvalue.MapExact(map[string]knownvalue.Check{
					"0": knownvalue.Int64Exact(6), "1": knownvalue.Int64Exact(7), "2": knownvalue.Int64Exact(8),
				})),
				statecheck.ExpectKnownValue(pointsAddr, point(2, "topic"), knownvalue.StringExact(data)),
				statecheck.ExpectKnownValue(pointsAddr, point(2, "topic_id"), knownvalue.StringExact(topicID)),
				statecheck.ExpectKnownValue(pointsAddr, point(2, "error"), knownvalue.Null()),
				statecheck.ExpectKnownValue(pointsAddr, point(3, "kind"), knownvalue.StringExact("savepoint")),
				statecheck.ExpectKnownValue(pointsAddr, point(3, "path"), knownvalue.StringExact(sp+"/savepoint-7f3a00-0123456789ab")),
				statecheck.ExpectKnownValue(pointsAddr, point(3, "checkpoint_id"), knownvalue.Int64Exact(30)),
				statecheck.ExpectKnownValue(pointsAddr, point(3, "modified_at"), knownvalue.StringExact("2026-03-01T12:02:30Z")),
				statecheck.ExpectKnownValue(pointsAddr, point(5, "path"), knownvalue.StringExact("file:"+cp+"/chk-1")),
				// The listed plan ID is the plan the plan data source derives from the same path.
				statecheck.CompareValuePairs(pointsAddr, point(2, "plan_id"), "data.flinkagents_cleanup_plan.keep", tfjsonpath.New("plan_id"), compare.ValuesSame()),
				statecheck.ExpectKnownValue("flinkagents_cleanup_boundary.orders", tfjsonpath.New("status"), knownvalue.StringExact("APPLIED")),
			},
			Check: func(*terraform.State) error {
				for p, s := range e.StartOffsets(data) {
					if want := 6 + int64(p); s != want {
						return fmt.Errorf("partition %d starts at %d, want %d (chk-3's marker)", p, s, want)
					}
				}
				return nil
			},
		}},
	})
}

func TestRecoveryPointsUnreadable(t *testing.T) {
	e := acctest.New(t)
	cp := t.TempDir()
	const topic, topicID = "orders-action-state", "q1Yw3mZ7QGu3c8m0b7o5Zg"
	writePoint(t, filepath.Join(cp, "chk-1"), 1, topic, topicID, 2, 0, t0)
	writePoint(t, filepath.Join(cp, "chk-2"), 2, topic, topicID, 2, 4, t0.Add(time.Minute))
	if err := os.WriteFile(filepath.Join(cp, "chk-2", "_metadata"), []byte("not a checkpoint"), 0o644); err != nil {
		t.Fatal(err)
	}
	setMetadata(t, filepath.Join(cp, "chk-3"), t0.Add(2*time.Minute), checkpoint.SavepointSpec{MetadataVersion: 4, CheckpointID: 3, OperatorUID: "agent-op",
		Markers: [][]checkpoint.Marker{{{Legacy: true, Offsets: map[int32]int64{0: 9, 1: 9}}}}})
	writePoint(t, filepath.Join(cp, "chk-4"), 5, topic, topicID, 2, 6, t0.Add(3*time.Minute)) // renamed or copied

	cfg := func(extra string) string {
		return e.Provider() + fmt.Sprintf("data \"flinkagents_recovery_points\" \"orders\" {\n  checkpoint_dir = %q\n%s}\n", cp, extra)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			// By default one unreadable point fails the whole read.
			{Config: cfg(""), ExpectError: regexp.MustCompile(`(?s)Corrupt Checkpoint Data.*chk-4.*records checkpoint 5.*ignore_unreadable`)},
			{Config: cfg(`  operator_uid = "another-op"` + "\n"), ExpectError: regexp.MustCompile(`Operator Not Found In Checkpoint`)},
			{
				Config: cfg("  ignore_unreadable = true\n"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(pointsAddr, tfjsonpath.New("points"), knownvalue.ListSizeExact(4)),
					statecheck.ExpectKnownValue(pointsAddr, point(0, "checkpoint_id"), knownvalue.Int64Exact(4)),
					statecheck.ExpectKnownValue(pointsAddr, point(0, "error"), knownvalue.StringRegexp(regexp.MustCompile(`named chk-4 but its _metadata records checkpoint 5`))),
					statecheck.ExpectKnownValue(pointsAddr, point(1, "error"), knownvalue.StringRegexp(regexp.MustCompile(`(?s)bare partition-offset map`))),
					statecheck.ExpectKnownValue(pointsAddr, point(1, "offsets"), knownvalue.Null()),
					statecheck.ExpectKnownValue(pointsAddr, point(1, "plan_id"), knownvalue.Null()),
					statecheck.ExpectKnownValue(pointsAddr, point(2, "checkpoint_id"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(pointsAddr, point(2, "error"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(pointsAddr, point(3, "error"), knownvalue.Null()),
					statecheck.ExpectKnownValue(pointsAddr, point(3, "offsets"), knownvalue.MapExact(map[string]knownvalue.Check{
						"0": knownvalue.Int64Exact(0), "1": knownvalue.Int64Exact(1),
					})),
				},
			},
			{Config: cfg("  savepoint_dir = \"" + filepath.Join(cp, "missing") + "\"\n  ignore_unreadable = true\n"),
				ExpectError: regexp.MustCompile(`Recovery Point Directory Not Found`)},
		},
	})
}

// Points whose _metadata is cut short or whose state file is gone are not
// usable: they fail the read, or with ignore_unreadable are listed with an
// error that says what is missing.
func TestRecoveryPointsIncomplete(t *testing.T) {
	e := acctest.New(t)
	cp := t.TempDir()
	const topic, topicID = "orders-action-state", "q1Yw3mZ7QGu3c8m0b7o5Zg"
	writePoint(t, filepath.Join(cp, "chk-1"), 1, topic, topicID, 2, 0, t0)
	marker := []checkpoint.Marker{{SchemaVersion: 1, Topic: topic, TopicID: topicID, Offsets: map[int32]int64{0: 4, 1: 4}}}
	chk2 := filepath.Join(cp, "chk-2")
	setMetadata(t, chk2, t0.Add(time.Minute), checkpoint.SavepointSpec{MetadataVersion: 5, CheckpointID: 2, OperatorUID: "agent-op",
		Markers: [][]checkpoint.Marker{marker, marker}, StateFiles: true})
	gone := removeStateFile(t, chk2)
	chk3 := filepath.Join(cp, "chk-3")
	writePoint(t, chk3, 3, topic, topicID, 2, 8, t0.Add(2*time.Minute))
	cut := fmt.Sprintf(`ends\s+at\s+byte\s+%d,\s+inside\s+its\s+checkpoint\s+properties`, cutMetadata(t, chk3))

	cfg := func(extra string) string {
		return e.Provider() + fmt.Sprintf("data \"flinkagents_recovery_points\" \"orders\" {\n  checkpoint_dir = %q\n%s}\n", cp, extra)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: cfg(""), ExpectError: regexp.MustCompile(`(?s)Checkpoint Metadata Incomplete.*chk-3.*` + cut + `.*ignore_unreadable`)},
			{
				Config: cfg("  ignore_unreadable = true\n"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(pointsAddr, tfjsonpath.New("points"), knownvalue.ListSizeExact(3)),
					statecheck.ExpectKnownValue(pointsAddr, point(0, "checkpoint_id"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue(pointsAddr, point(0, "error"), knownvalue.StringRegexp(regexp.MustCompile(cut))),
					statecheck.ExpectKnownValue(pointsAddr, point(0, "offsets"), knownvalue.Null()),
					statecheck.ExpectKnownValue(pointsAddr, point(1, "checkpoint_id"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(pointsAddr, point(1, "error"), knownvalue.StringRegexp(regexp.MustCompile(
						`The checkpoint is incomplete: .* references the state file `+regexp.QuoteMeta(filepath.Join(chk2, gone))+`, which does not exist`))),
					statecheck.ExpectKnownValue(pointsAddr, point(1, "plan_id"), knownvalue.Null()),
					statecheck.ExpectKnownValue(pointsAddr, point(2, "error"), knownvalue.Null()),
					statecheck.ExpectKnownValue(pointsAddr, point(2, "offsets"), knownvalue.MapExact(map[string]knownvalue.Check{
						"0": knownvalue.Int64Exact(0), "1": knownvalue.Int64Exact(1),
					})),
				},
			},
		},
	})
}
