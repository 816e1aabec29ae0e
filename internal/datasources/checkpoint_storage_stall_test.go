package datasources_test

import (
	"encoding/base64"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpointstore/stalltest"
)

// Checkpoint storage that accepts connections and never answers used to
// leave `terraform plan` at "Still reading..." forever. Through the real
// CLI: each storage request ends at the provider's timeout, the whole read
// at timeouts.read, and Ctrl-C ends it at once, each with a diagnostic
// naming what was waited for. The bounds are asserted on the silent
// listener's side: every connection the provider made was released within
// the bound plus stallMargin.

// stallMargin is what a bounded operation may take beyond its bound before
// the test calls it unbounded. Which bound ended the wait is proven by the
// error, which names it; the margin only tells an operation that ended from
// one that hung, so it is wide enough for a loaded 2-core machine.
const stallMargin = 30 * time.Second

// saysAll matches text containing the phrases in order, across the line
// breaks Terraform wraps diagnostics with.
func saysAll(phrases ...string) *regexp.Regexp {
	parts := make([]string, len(phrases))
	for i, p := range phrases {
		parts[i] = strings.Join(strings.Fields(regexp.QuoteMeta(p)), `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, ".*"))
}

// quietClouds points every cloud SDK away from real credentials and
// endpoints, then applies env.
func quietClouds(t *testing.T, env map[string]string) {
	for _, k := range []string{"AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_SESSION_TOKEN",
		"AZURE_STORAGE_ACCOUNT", "AZURE_STORAGE_KEY", "AZURE_STORAGE_SAS_TOKEN", "AZURE_STORAGE_CONNECTION_STRING",
		"AZURE_STORAGEBLOB_CONNECTIONSTRING", "STORAGE_EMULATOR_HOST"} {
		t.Setenv(k, "")
	}
	none := filepath.Join(t.TempDir(), "none")
	t.Setenv("AWS_CONFIG_FILE", none)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", none)
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "not-a-secret")
	for k, v := range env {
		t.Setenv(k, v)
	}
}

func providerWithTimeout(timeout string) string {
	return fmt.Sprintf("provider \"flinkagents\" {\n  timeout = %q\n}\n", timeout)
}

// The provider's timeout bounds each request: S3 through s3_endpoint, and
// Azure through a connection string's BlobEndpoint.
func TestCheckpointStorageRequestTimeout(t *testing.T) {
	acctest.New(t)
	s3 := stalltest.Silent(t)
	azure := stalltest.Silent(t)
	quietClouds(t, map[string]string{"AZURE_STORAGEBLOB_CONNECTIONSTRING": fmt.Sprintf(
		"DefaultEndpointsProtocol=http;AccountName=stalled;AccountKey=%s;BlobEndpoint=%s/stalled;",
		base64.StdEncoding.EncodeToString([]byte("not a real storage account key")), azure.URL())})
	start := time.Now()
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: providerWithTimeout("2s") + fmt.Sprintf(`data "flinkagents_cleanup_plan" "p" {
  checkpoint_path = "s3://ckpt/flink/job/chk-7"
  storage = {
    s3_endpoint   = %q
    s3_path_style = true
  }
}`, s3.URL()),
				ExpectError: saysAll("Checkpoint Storage Timed Out", `reading recovery markers from "s3://ckpt/flink/job/chk-7"`,
					`s3 bucket "ckpt" key "flink/job/chk-7"`, "no answer from "+s3.URL()+" within 2s (the per-request timeout)"),
			},
			{
				Config: providerWithTimeout("2s") + `data "flinkagents_recovery_points" "r" {
  checkpoint_dir = "abfss://ckpt@stalled.dfs.core.windows.net/flink/job"
}`,
				ExpectError: saysAll("Checkpoint Storage Timed Out", `azure account "stalled" container "ckpt" blob "flink/job"`,
					"no answer from "+azure.URL()+"/stalled", "within 2s (the per-request timeout)"),
			},
		},
	})
	t.Logf("both steps took %s", time.Since(start).Round(time.Millisecond))
	s3.RequireReleased(t, 2*time.Second+stallMargin)
	azure.RequireReleased(t, 2*time.Second+stallMargin)
}

// timeouts.read bounds the whole read when it is shorter than the
// provider's timeout: GCS through STORAGE_EMULATOR_HOST.
func TestCheckpointStorageReadDeadline(t *testing.T) {
	acctest.New(t)
	gcs := stalltest.Silent(t)
	quietClouds(t, map[string]string{"STORAGE_EMULATOR_HOST": gcs.Addr})
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config: providerWithTimeout("1h") + `data "flinkagents_recovery_points" "r" {
  checkpoint_dir = "gs://ckpt/flink/job"
  timeouts {
    read = "2s"
  }
}`,
			ExpectError: saysAll("Checkpoint Storage Timed Out", "timeouts.read", `gcs bucket "ckpt" key "flink/job"`,
				"no answer from STORAGE_EMULATOR_HOST "+gcs.Addr, "before the deadline of the whole read passed"),
		}},
	})
	gcs.RequireReleased(t, 2*time.Second+stallMargin)
}

// Ctrl-C during `terraform plan` ends the wait on the store at once, even
// with a long provider timeout.
func TestCheckpointStorageInterrupted(t *testing.T) {
	e := acctest.New(t)
	s3 := stalltest.Silent(t)
	quietClouds(t, nil)
	w := e.Workdir()
	w.Write("main.tf", `terraform {
  required_providers {
    flinkagents = { source = "actionstate/flinkagents" }
  }
}
`+providerWithTimeout("1h")+fmt.Sprintf(`
data "flinkagents_cleanup_plan" "p" {
  checkpoint_path = "s3://ckpt/flink/job/chk-7"
  storage = {
    s3_endpoint   = %q
    s3_path_style = true
  }
}
`, s3.URL()))
	w.Terraform("init")

	// Ctrl-C once the provider has been waiting on the store a moment.
	const waitBeforeInterrupt = 500 * time.Millisecond
	interrupt := make(chan struct{})
	var interrupted time.Time
	go func() {
		for s3.Accepted() == 0 {
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(waitBeforeInterrupt)
		interrupted = time.Now()
		close(interrupt)
	}()
	out, err := w.TerraformInterrupted(interrupt, "plan")
	select {
	case <-interrupt:
	default:
		t.Fatalf("terraform plan ended before it was interrupted, without waiting on the store: %v\n%s", err, out)
	}
	exitedAfter := time.Since(interrupted)
	t.Logf("terraform plan exited %s after the interrupt: %v\n%s", exitedAfter.Round(time.Millisecond), err, out)
	if err == nil {
		t.Error("an interrupted plan succeeded")
	} else if want := saysAll("Checkpoint Read Cancelled", `s3 bucket "ckpt" key "flink/job/chk-7"`, "while waiting for "+s3.URL()); !want.MatchString(err.Error()) {
		t.Errorf("the interrupted plan does not say what it was waiting for (want %s)", want)
	}
	s3.RequireReleased(t, waitBeforeInterrupt+stallMargin)
	if exitedAfter > stallMargin+10*time.Second {
		t.Errorf("terraform plan exited %s after the interrupt", exitedAfter)
	}
}
