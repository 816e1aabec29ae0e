package actions_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/jobsim"
)

// TestAccApplyCleanupPlanTriggerExample: the action_trigger example of the
// action's page, alone in its directory with only a provider block beside
// it, does what its comment says: the first apply with a savepoint cleans
// up to it, an apply with the same path triggers nothing, and an apply with
// a newer savepoint cleans up to that one. It used to reference the other
// example's action and a path written into it.
func TestAccApplyCleanupPlanTriggerExample(t *testing.T) {
	acctest.SkipBelowCLI(t, 1, 14, "actions")
	example, err := os.ReadFile(filepath.Join("..", "..", "examples", "actions", "flinkagents_apply_cleanup_plan", "trigger.tf"))
	if err != nil {
		t.Fatal(err)
	}
	e := acctest.New(t)
	p := newPair(t, e)
	savepoint := func(id, offset int64) string {
		dir := filepath.Join(t.TempDir(), "savepoint")
		subtasks := []map[int32]int64{{0: offset, 1: offset, 2: offset}}
		if err := jobsim.WriteSavepoint(dir, id, p.data, p.dataID, subtasks); err != nil {
			t.Fatal(err)
		}
		return "file:" + dir
	}
	w := e.Workdir()
	w.Write("main.tf", e.CLIProvider()+"\n"+string(example))
	w.Terraform("init")
	apply := func(path string) string {
		return string(w.Terraform("apply", "-auto-approve", "-var", "savepoint_path="+path, "-var", "control_topic="+p.control))
	}

	first := savepoint(3, 4)
	if out := apply(first); !strings.Contains(out, "is APPLIED") {
		t.Errorf("the first apply did not run the action:\n%s", out)
	}
	if got, want := p.starts(), "0=4 1=4 2=4"; got != want {
		t.Errorf("after the first savepoint: start offsets %s, want %s", got, want)
	}
	if out := apply(first); strings.Contains(out, "flinkagents_apply_cleanup_plan") {
		t.Errorf("an apply with the same savepoint ran the action:\n%s", out)
	}
	if out := apply(savepoint(4, 7)); !strings.Contains(out, "is APPLIED") {
		t.Errorf("an apply with a newer savepoint did not run the action:\n%s", out)
	}
	if got, want := p.starts(), "0=7 1=7 2=7"; got != want {
		t.Errorf("after the newer savepoint: start offsets %s, want %s", got, want)
	}
	if got := p.statuses(t); len(got) != 2 {
		t.Errorf("control topic history %q, want two plans APPLIED", got)
	}
}
