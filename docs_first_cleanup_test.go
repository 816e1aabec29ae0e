package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The first-cleanup guide reads the savepoint it wrote: each shell block
// that takes one (flink stop's reported path, or cmd/write-savepoint's
// -out) exports that same path as TF_VAR_savepoint_path, the plan's
// checkpoint_path is var.savepoint_path, and the restart uses it. The guide
// used to write /tmp/savepoints/... and plan from /var/flink/savepoints/....
func TestFirstCleanupReadsTheSavepointItWrites(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("docs", "guides", "first-cleanup.md"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	var (
		shellBlock = regexp.MustCompile("(?ms)^```shell\n(.*?)^```")
		flinkPath  = regexp.MustCompile(`Savepoint completed\. Path: (\S+)`)
		outPath    = regexp.MustCompile(`-out\s+(\S+)`)
		exported   = regexp.MustCompile(`export TF_VAR_savepoint_path=(\S+)`)
		restart    = regexp.MustCompile(`flink run -s (\S+)`)
		planPath   = regexp.MustCompile(`(?m)^\s*checkpoint_path\s*=\s*(\S+)`)
	)
	writes := 0
	for _, m := range shellBlock.FindAllStringSubmatch(page, -1) {
		block := m[1]
		var wrote []string
		for _, w := range flinkPath.FindAllStringSubmatch(block, -1) {
			wrote = append(wrote, w[1])
		}
		for _, w := range outPath.FindAllStringSubmatch(block, -1) {
			wrote = append(wrote, "file:"+w[1])
		}
		writes += len(wrote)
		exports := exported.FindAllStringSubmatch(block, -1)
		for _, w := range wrote {
			if len(exports) != 1 || exports[0][1] != w {
				t.Errorf("a block writes the savepoint to %s but exports %q as TF_VAR_savepoint_path:\n%s", w, exports, block)
			}
		}
		for _, r := range restart.FindAllStringSubmatch(block, -1) {
			if r[1] != `"$TF_VAR_savepoint_path"` {
				t.Errorf("the restart reads %s, not the savepoint the plan was made from (\"$TF_VAR_savepoint_path\")", r[1])
			}
		}
	}
	if writes < 2 {
		t.Errorf("found %d places that write a savepoint (flink stop, cmd/write-savepoint); the guide has two", writes)
	}
	plans := planPath.FindAllStringSubmatch(page, -1)
	if len(plans) == 0 {
		t.Error("no checkpoint_path in the guide's plans")
	}
	for _, p := range plans {
		if p[1] != "var.savepoint_path" {
			t.Errorf("a plan reads checkpoint_path = %s, not var.savepoint_path (what step 1 exports)", p[1])
		}
	}
	if strings.Count(page, `variable "savepoint_path"`) == 0 {
		t.Error(`the guide's plan reads var.savepoint_path but no snippet declares variable "savepoint_path"`)
	}
}
