package datasources_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/emulators"
)

// A savepoint in an S3-compatible store (gofakes3 on 127.0.0.1), read with
// the storage attributes; the store package's own suite covers GCS, Azure
// and the error cases.
func TestCleanupPlanFromS3(t *testing.T) {
	e := acctest.New(t)
	srv := emulators.StartS3(t, "ckpt")
	for k, v := range map[string]string{"AWS_ACCESS_KEY_ID": "AKIDTEST", "AWS_SECRET_ACCESS_KEY": "not-a-secret", "AWS_PROFILE": "",
		"AWS_CONFIG_FILE": filepath.Join(t.TempDir(), "none"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(t.TempDir(), "none"),
		"AWS_EC2_METADATA_DISABLED": "true"} {
		t.Setenv(k, v)
	}

	dir := t.TempDir()
	markers := [][]checkpoint.Marker{
		{{SchemaVersion: 1, Topic: "orders-agent-action-state", TopicID: "q1Yw3mZ7QGu3c8m0b7o5Zg", Offsets: map[int32]int64{0: 12, 1: 30}}},
		{{SchemaVersion: 1, Topic: "orders-agent-action-state", TopicID: "q1Yw3mZ7QGu3c8m0b7o5Zg", Offsets: map[int32]int64{0: 10, 1: 31}}},
	}
	if err := checkpoint.WriteSavepoint(dir, checkpoint.SavepointSpec{MetadataVersion: 5, CheckpointID: 17,
		OperatorUID: "action-execute-operator", Markers: markers, StateFiles: true}); err != nil {
		t.Fatal(err)
	}
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		b, _ := os.ReadFile(filepath.Join(dir, de.Name()))
		key := "flink/savepoints/savepoint-1a2b3c-0123456789ab/" + de.Name()
		srv.Put(t, key, b)
	}

	storage := fmt.Sprintf(`
  storage = {
    s3_endpoint   = %q
    s3_region     = "eu-central-1"
    s3_path_style = true
    path_rewrite = [
      { from = "s3a://old-bucket/savepoints", to = "s3://ckpt/flink/savepoints" },
    ]
  }`, srv.URL)
	ds := "data.flinkagents_cleanup_plan.p"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: e.Provider() + `data "flinkagents_cleanup_plan" "p" {
  checkpoint_path = "s3://ckpt/flink/savepoints/savepoint-1a2b3c-0123456789ab"` + storage + "\n}\n",
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("source_recovery_point"), knownvalue.StringExact("s3://ckpt/flink/savepoints/savepoint-1a2b3c-0123456789ab")),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("checkpoint_id"), knownvalue.Int64Exact(17)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("marker_count"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("offsets").AtMapKey("0"), knownvalue.Int64Exact(10)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("offsets").AtMapKey("1"), knownvalue.Int64Exact(30)),
				},
			},
			{
				// The path as the job recorded it, before the copy: the
				// rewrite applies to the pointer as to every state file,
				// and the plan keeps the string given.
				Config: e.Provider() + `data "flinkagents_cleanup_plan" "p" {
  checkpoint_path = "s3a://old-bucket/savepoints/savepoint-1a2b3c-0123456789ab"` + storage + "\n}\n",
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("source_recovery_point"), knownvalue.StringExact("s3a://old-bucket/savepoints/savepoint-1a2b3c-0123456789ab")),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("offsets").AtMapKey("0"), knownvalue.Int64Exact(10)),
				},
			},
			{
				Config: e.Provider() + `data "flinkagents_cleanup_plan" "p" {
  checkpoint_path = "hdfs://namenode:8020/flink/chk-3"
}`,
				ExpectError: regexp.MustCompile(`(?s)unsupported\s+checkpoint\s+storage\s+scheme\s+"hdfs".*supported\s+are\s+s3://`),
			},
			{
				Config: e.Provider() + `data "flinkagents_cleanup_plan" "p" {
  checkpoint_path = "s3://ckpt/flink/savepoints/savepoint-1a2b3c-0123456789ab"
  storage = {
    path_rewrite = [{ from = "", to = "s3://ckpt" }]
  }
}`,
				ExpectError: regexp.MustCompile(`Invalid Checkpoint Storage Settings`),
			},
		},
	})
}
