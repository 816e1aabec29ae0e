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
	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

func TestCleanupPlanFromPlanJSONReemitsJavaBytes(t *testing.T) {
	e := acctest.New(t)
	p, err := cleanupplan.New("file:/var/flink/checkpoints/7f3a/chk-42", "orders-agent-action-state", "q1Yw3mZ7QGu3c8m0b7o5Zg", cleanupplan.Offsets{0: 150, 1: 100, 2: 0})
	if err != nil {
		t.Fatal(err)
	}
	checks := []statecheck.StateCheck{
		statecheck.ExpectKnownValue("data.flinkagents_cleanup_plan.p", tfjsonpath.New("plan_json"), knownvalue.StringExact(string(p.File()))),
		statecheck.ExpectKnownValue("data.flinkagents_cleanup_plan.p", tfjsonpath.New("plan_id"), knownvalue.StringExact("a5440177c24ca86c94163d0a3254bca95d7c4e4d3cc3671b267c8e68797adac4")),
		statecheck.ExpectKnownValue("data.flinkagents_cleanup_plan.p", tfjsonpath.New("offsets").AtMapKey("0"), knownvalue.Int64Exact(150)),
		statecheck.ExpectKnownValue("data.flinkagents_cleanup_plan.p", tfjsonpath.New("checkpoint_id"), knownvalue.Null()),
	}
	config := func(planJSON string) string {
		return e.Provider() + fmt.Sprintf("data \"flinkagents_cleanup_plan\" \"p\" {\n  plan_json = %q\n}\n", planJSON)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			// Compact input, as someone might hand it over; the output is the file.
			{Config: config(string(p.CompactJSON())), ConfigStateChecks: checks},
			// A file saved with a UTF-8 byte-order mark (some Windows editors
			// do; file() keeps it) is read, as the Java tool's Jackson reads
			// it; the output is the file without the mark.
			{Config: config("\ufeff" + string(p.File())), ConfigStateChecks: checks},
		},
	})
}

func TestCleanupPlanInputRules(t *testing.T) {
	e := acctest.New(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: e.Provider() + `data "flinkagents_cleanup_plan" "p" {}`, ExpectError: regexp.MustCompile(`(?s)At least one of these attributes must be configured.*checkpoint_dir`)},
			{Config: e.Provider() + `data "flinkagents_cleanup_plan" "p" {
  checkpoint_path   = "/nowhere"
  operator_uid      = "a"
  operator_uid_hash = "00000000000000000000000000000000"
}`, ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*cannot be configured together`)},
			{Config: e.Provider() + `data "flinkagents_cleanup_plan" "p" {
  checkpoint_path = "/nowhere/chk-1"
}`, ExpectError: regexp.MustCompile(`Checkpoint Not Found`)},
			{Config: e.Provider() + `data "flinkagents_cleanup_plan" "p" {
  plan_json = "{\"schemaVersion\":1}"
}`, ExpectError: regexp.MustCompile(`Malformed Cleanup Plan`)},
		},
	})
}

// The whole path on real files: a savepoint whose markers reference the live
// topic, planned natively and applied as a boundary.
func TestCleanupPlanFromSavepointThroughBoundary(t *testing.T) {
	e := acctest.New(t)
	data, control := e.Name("agent-action-state"), e.Name("agent-cleanup-control")
	topicID := e.CreateTopic(data, 4, cleanup.DataTopicSettings)
	e.CreateTopic(control, 1, map[string]string{"cleanup.policy": "compact"})
	e.Produce(data, 4, 40)

	dir := filepath.Join(t.TempDir(), "savepoint-1a2b3c-0123456789ab")
	marker := func(base int64) []checkpoint.Marker {
		offs := map[int32]int64{}
		for p := int32(0); p < 4; p++ {
			offs[p] = base + int64(p)
		}
		return []checkpoint.Marker{{SchemaVersion: 1, Topic: data, TopicID: topicID, Offsets: offs}}
	}
	err := checkpoint.WriteSavepoint(dir, checkpoint.SavepointSpec{
		MetadataVersion: 5, CheckpointID: 17, OperatorUID: "action-execute-operator", OperatorName: "action-execute-operator",
		Markers: [][]checkpoint.Marker{marker(12), marker(10), marker(15)},
	})
	if err != nil {
		t.Fatal(err)
	}
	src := "file:" + dir
	cfg := e.Provider() + fmt.Sprintf(`
data "flinkagents_cleanup_plan" "latest" {
  checkpoint_path = %q
}

resource "flinkagents_cleanup_boundary" "agent" {
  control_topic      = %q
  action_state_topic = %q
  plan_json          = data.flinkagents_cleanup_plan.latest.plan_json
}
`, src, control, data)
	ds := "data.flinkagents_cleanup_plan.latest"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("source_recovery_point"), knownvalue.StringExact(src)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("checkpoint_id"), knownvalue.Int64Exact(17)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("marker_count"), knownvalue.Int64Exact(3)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("flink_metadata_version"), knownvalue.Int64Exact(5)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("operator_id"), knownvalue.StringExact("5957a8f59332436746a9d052223172e4")),
				// Per partition, the minimum over the three subtasks.
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("offsets").AtMapKey("3"), knownvalue.Int64Exact(13)),
				statecheck.ExpectKnownValue("flinkagents_cleanup_boundary.agent", tfjsonpath.New("status"), knownvalue.StringExact("APPLIED")),
			},
			Check: func(*terraformState) error {
				for p, s := range e.StartOffsets(data) {
					if s != 10+int64(p) {
						return fmt.Errorf("partition %d starts at %d, want %d", p, s, 10+int64(p))
					}
				}
				return nil
			},
		}},
	})
}

func TestCleanupPlanRefusesLegacyMarkers(t *testing.T) {
	e := acctest.New(t)
	dir := filepath.Join(t.TempDir(), "chk-3")
	err := checkpoint.WriteSavepoint(dir, checkpoint.SavepointSpec{
		MetadataVersion: 4, CheckpointID: 3, OperatorUID: "agents",
		Markers: [][]checkpoint.Marker{{{Legacy: true, Offsets: map[int32]int64{0: 5}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config:      e.Provider() + fmt.Sprintf("data \"flinkagents_cleanup_plan\" \"p\" {\n  checkpoint_path = %q\n  operator_uid = \"agents\"\n}\n", dir),
			ExpectError: regexp.MustCompile(`Checkpoint Holds Legacy Recovery Markers`),
		}},
	})
}

// An incomplete checkpoint gives no plan, and the error says what is
// missing rather than blaming checkpoint_path: a state file removed after
// _metadata was written, and a _metadata cut one byte short.
func TestCleanupPlanRefusesIncompleteCheckpoint(t *testing.T) {
	e := acctest.New(t)
	marker := []checkpoint.Marker{{SchemaVersion: 1, Topic: "orders-action-state", TopicID: "q1Yw3mZ7QGu3c8m0b7o5Zg", Offsets: map[int32]int64{0: 5}}}
	write := func(name string) string {
		dir := filepath.Join(t.TempDir(), name)
		err := checkpoint.WriteSavepoint(dir, checkpoint.SavepointSpec{MetadataVersion: 5, CheckpointID: 3, OperatorUID: "agents",
			Markers: [][]checkpoint.Marker{marker, marker}, StateFiles: true})
		if err != nil {
			t.Fatal(err)
		}
		return dir
	}
	missingFile := write("chk-3")
	gone := removeStateFile(t, missingFile)
	cut := write("chk-4")
	cutLen := cutMetadata(t, cut)
	cfg := func(dir string) string {
		return e.Provider() + fmt.Sprintf("data \"flinkagents_cleanup_plan\" \"p\" {\n  checkpoint_path = %q\n}\n", dir)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: cfg(missingFile), ExpectError: regexp.MustCompile(`(?s)Checkpoint State File Missing.*checkpoint is\s+incomplete.*` + regexp.QuoteMeta(gone))},
			{Config: cfg(cut), ExpectError: regexp.MustCompile(fmt.Sprintf(`(?s)Checkpoint Metadata Incomplete.*ends\s+at\s+byte\s+%d,\s+inside\s+its\s+checkpoint\s+properties`, cutLen))},
		},
	})
}
