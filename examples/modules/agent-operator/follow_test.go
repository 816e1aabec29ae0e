package agentoperator_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

// TestAccAgentOperatorModuleFollowsCheckpoints runs the nightly fleet flow:
// every operator follows its job's checkpoint directory. One job has a
// complete checkpoint and gets a boundary at it; one has none yet and gets
// none, without an error; one has an unreadable checkpoint and is skipped
// with a warning naming it, while the rest of the fleet still advances.
func TestAccAgentOperatorModuleFollowsCheckpoints(t *testing.T) {
	e := acctest.New(t)
	prefix := e.Name("fleet")
	topic := func(op, kind string) string { return fmt.Sprintf("%s-%s-%s", prefix, op, kind) }
	root := t.TempDir()
	jobDir := func(op string) string { return filepath.Join(root, op, "job-7f3a") }
	for _, op := range []string{"steady", "fresh", "broken"} {
		// Flink creates chk-N before it completes: no _metadata yet.
		if err := os.MkdirAll(filepath.Join(jobDir(op), "chk-1"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w := e.Workdir()
	w.Write("main.tf", fmt.Sprintf(`
%s
module "operator" {
  source   = %q
  for_each = toset(["steady", "fresh", "broken"])

  prefix              = %q
  operator            = each.key
  partitions          = %d
  deletion_protection = false
  checkpoint_dir      = "file:%s/${each.key}/job-7f3a"
  bootstrap_servers   = [%s]
}

output "boundaries" {
  value = { for name, op in module.operator : name => op.boundary == null ? "none" : "${op.boundary.status} ${op.boundary.source_recovery_point}" }
}

output "cleanup_enabled" {
  value = { for name, op in module.operator : name => op.agent_config.cleanup_enabled }
}
`, e.CLIProvider(), w.ModuleSource("."), prefix, partitions, root, e.BrokersHCL()))
	w.Terraform("init")
	t.Cleanup(func() { w.Terraform("destroy", "-auto-approve") })
	// The first rollout: no job has completed a checkpoint yet.
	w.Terraform("apply", "-auto-approve")
	want := map[string]string{"steady": "none", "fresh": "none", "broken": "none"}
	checkBoundaries(t, w, want)

	for _, op := range []string{"steady", "broken"} {
		data := topic(op, "action-state")
		e.Produce(data, partitions, 5)
		d, err := e.Admin.DescribeTopic(t.Context(), data)
		if err != nil {
			t.Fatal(err)
		}
		marker := checkpoint.Marker{SchemaVersion: 1, Topic: data, TopicID: d.ID.String(), Offsets: map[int32]int64{0: 2, 1: 3, 2: 4}}
		dir := filepath.Join(jobDir(op), "chk-1")
		if err := checkpoint.WriteSavepoint(dir, checkpoint.SavepointSpec{MetadataVersion: 5, CheckpointID: 1, OperatorUID: "agent-op", Markers: [][]checkpoint.Marker{{marker}}}); err != nil {
			t.Fatal(err)
		}
	}
	truncate(t, filepath.Join(jobDir("broken"), "chk-1", "_metadata"))

	out := string(w.Terraform("apply", "-auto-approve", "-no-color"))
	want["steady"] = fmt.Sprintf("APPLIED file:%s/chk-1", jobDir("steady"))
	checkBoundaries(t, w, want)
	flat := strings.Join(strings.Fields(out), " ")
	if !regexp.MustCompile(`Warning: Job "broken": Skipped: .*`+regexp.QuoteMeta(filepath.Join(jobDir("broken"), "chk-1"))).MatchString(flat) ||
		!strings.Contains(flat, `module.operator["broken"].module.fleet.data.flinkagents_cleanup_plans.follow[0]`) {
		t.Errorf("no warning naming the broken operator's point:\n%s", out)
	}
	if n := strings.Count(flat, `: Skipped:`); n != 1 {
		t.Errorf("%d operators skipped, want only the broken one (no complete point yet is not unreadable):\n%s", n, out)
	}
	for op, starts := range map[string]map[int32]int64{"steady": {0: 2, 1: 3, 2: 4}, "broken": {0: 0, 1: 0, 2: 0}} {
		for p, off := range e.StartOffsets(topic(op, "action-state")) {
			if off != starts[p] {
				t.Errorf("%s partition %d starts at %d, want %d", op, p, off, starts[p])
			}
		}
	}
	var enabled map[string]bool
	if w.Output("cleanup_enabled", &enabled); !enabled["steady"] || enabled["fresh"] || enabled["broken"] {
		t.Errorf("cleanup_enabled %v, want only steady", enabled)
	}

	// A later night the steady job's point is unreadable: its boundary does
	// not move, and its job configuration still names the control topic,
	// which holds the boundary (dropping it would let a restore below the
	// boundary through).
	truncate(t, filepath.Join(jobDir("steady"), "chk-1", "_metadata"))
	w.Terraform("apply", "-auto-approve")
	// ... and the night plans nothing: the boundary is kept, not forgotten.
	if out, err := w.TerraformErr("plan", "-detailed-exitcode"); err != nil {
		t.Errorf("the plan of a night with a skipped point is not empty (%v):\n%s", err, out)
	}
	if w.Output("cleanup_enabled", &enabled); !enabled["steady"] {
		t.Errorf("steady's job configuration dropped its control topic on a night its point was skipped: %v", enabled)
	}
	for p, off := range e.StartOffsets(topic("steady", "action-state")) {
		if want := int64(p) + 2; off != want {
			t.Errorf("steady partition %d starts at %d after a skipped night, want %d", p, off, want)
		}
	}
}

func checkBoundaries(t *testing.T, w *acctest.Workdir, want map[string]string) {
	t.Helper()
	var got map[string]string
	w.Output("boundaries", &got)
	for op, status := range want {
		if got[op] != status {
			t.Errorf("%s's boundary is %q, want %q", op, got[op], status)
		}
	}
}

// truncate cuts a file one byte short, as a partial copy would.
func truncate(t *testing.T, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b[:len(b)-1], 0o644); err != nil {
		t.Fatal(err)
	}
}
