//go:build unix

package datasources_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpointstore/stalltest"
)

// A named pipe where _metadata should be: opening it blocked in open(2)
// forever, past Ctrl-C. It is refused without being opened, whether named
// by checkpoint_path or found by listing.
func TestCheckpointFIFORefused(t *testing.T) {
	e := acctest.New(t)
	job := t.TempDir()
	chk := filepath.Join(job, "chk-3")
	if err := os.Mkdir(chk, 0o755); err != nil {
		t.Fatal(err)
	}
	metadata := filepath.Join(chk, "_metadata")
	stalltest.FIFO(t, metadata)
	refused := saysAll("Checkpoint Path Is Not A File", metadata+" is a named pipe (FIFO), not a checkpoint file")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config:      e.Provider() + fmt.Sprintf("data \"flinkagents_cleanup_plan\" \"p\" {\n  checkpoint_path = %q\n}\n", chk),
				ExpectError: refused,
			},
			{
				Config:      e.Provider() + fmt.Sprintf("data \"flinkagents_recovery_points\" \"r\" {\n  checkpoint_dir = %q\n}\n", job),
				ExpectError: refused,
			},
		},
	})
}
