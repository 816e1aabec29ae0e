//go:build interop

package interop_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
)

// TestModuleJobRestoresBeforeAndAfterFirstCleanup configures a job from the
// agent-operator module, through both of its renderings, and runs the
// runtime's restore check on what it renders: before the first cleanup (no
// control topic rendered) and after it (control topic rendered, marker at
// the boundary). It also shows the check is live: the control topic named
// before the first boundary is refused with the runtime's message, and a
// marker below the boundary is refused.
func TestModuleJobRestoresBeforeAndAfterFirstCleanup(t *testing.T) {
	e := acctest.New(t)
	prefix := e.Name("restore")
	w := e.Workdir()
	config := func(withPlans bool) string {
		return fmt.Sprintf(`
%s
module "operator" {
  source   = %q
  for_each = toset(["rendered-in-module", "rendered-by-data-source"])

  prefix              = %q
  operator            = each.key
  partitions          = 2
  deletion_protection = false
  plan_json           = %t ? file("${each.key}-plan.json") : null
  bootstrap_servers   = each.key == "rendered-in-module" ? [%s] : null
}

output "settings" {
  value = { for name, op in module.operator : name => op.agent_config.settings }
}
`, e.CLIProvider(), w.ModuleSource("../examples/modules/agent-operator"), prefix, withPlans, e.BrokersHCL())
	}
	w.Write("main.tf", config(false))
	w.Terraform("init")
	t.Cleanup(func() { w.Terraform("destroy", "-auto-approve") })
	w.Terraform("apply", "-auto-approve")

	ops := []string{"rendered-in-module", "rendered-by-data-source"}
	topic := func(op, kind string) string { return fmt.Sprintf("%s-%s-%s", prefix, op, kind) }
	ids := map[string]string{}
	for _, op := range ops {
		data := topic(op, "action-state")
		e.Produce(data, 2, 5)
		d, err := e.Admin.DescribeTopic(context.Background(), data)
		if err != nil {
			t.Fatal(err)
		}
		ids[op] = d.ID.String()
	}
	settings := func() map[string]map[string]string {
		var s map[string]map[string]string
		w.Output("settings", &s)
		return s
	}
	restore := func(op string, s map[string]string, marker string) (string, error) {
		t.Helper()
		file := filepath.Join(t.TempDir(), "settings.json")
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return javaExit(t, "restore-check", "--bootstrap", strings.Join(e.Brokers, ","), "--settings", file,
			"--marker-topic", topic(op, "action-state"), "--marker-topic-id", ids[op], "--marker", marker, "--timeout-ms", "20000")
	}

	before := settings()
	for _, op := range ops {
		if out, err := restore(op, before[op], "0=0,1=0"); err != nil || !strings.HasPrefix(out, "restore accepted") {
			t.Errorf("%s before the first cleanup: %v\n%s", op, err, out)
		}
		// What the module rendered before: the control topic from the start.
		named := map[string]string{"kafkaActionStateCleanupControlTopic": topic(op, "cleanup-control")}
		for k, v := range before[op] {
			named[k] = v
		}
		if out, err := restore(op, named, "0=0,1=0"); err == nil || !strings.Contains(out, diagnostics.RuntimeNoBoundaryRefusal) {
			t.Errorf("%s with the control topic named before any boundary: want the runtime's refusal, got %v\n%s", op, err, out)
		}
	}

	for _, op := range ops {
		p, err := cleanupplan.New("file:/checkpoints/"+op+"/chk-7", topic(op, "action-state"), ids[op], cleanupplan.Offsets{0: 3, 1: 3})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(op+"-plan.json", string(p.File()))
	}
	w.Write("main.tf", config(true))
	w.Terraform("apply", "-auto-approve")
	w.Terraform("apply", "-auto-approve") // the redeploy reads the configuration again
	after := settings()
	for _, op := range ops {
		if after[op]["kafkaActionStateCleanupControlTopic"] != topic(op, "cleanup-control") {
			t.Errorf("%s after the first cleanup does not name its control topic: %v", op, after[op])
		}
		if out, err := restore(op, after[op], "0=3,1=4"); err != nil || !strings.HasPrefix(out, "restore accepted above boundary 0=3,1=3") {
			t.Errorf("%s from the checkpoint the boundary follows: %v\n%s", op, err, out)
		}
		if out, err := restore(op, after[op], "0=2,1=4"); err == nil || !strings.Contains(out, "from offset 2 because the committed cleanup boundary is 3") {
			t.Errorf("%s from a checkpoint below the boundary: want a refusal, got %v\n%s", op, err, out)
		}
	}

	// The plans go (a removed plan_json, a night without a point): the
	// boundaries stay, and so does restore protection in both renderings.
	// A start without a recovery marker is refused under what they render,
	// as the runtime refuses it once a boundary is committed.
	w.Write("main.tf", config(false))
	w.Terraform("apply", "-auto-approve")
	if out, err := w.TerraformErr("plan", "-detailed-exitcode"); err != nil {
		t.Errorf("the plan after removing the plans is not empty (%v):\n%s", err, out)
	}
	later := settings()
	var checks []restoreCheck
	for _, op := range ops {
		if later[op]["kafkaActionStateCleanupControlTopic"] != topic(op, "cleanup-control") {
			t.Errorf("%s without its plan no longer names its control topic: %v", op, later[op])
		}
		checks = append(checks,
			restoreCheck{Name: op + "/no-marker", Settings: later[op]},
			restoreCheck{Name: op + "/at-boundary", Settings: later[op], MarkerTopic: topic(op, "action-state"), MarkerTopicID: ids[op], Marker: map[string]int64{"0": 3, "1": 3}})
	}
	verdicts := restoreChecks(t, e.Brokers, checks)
	for _, op := range ops {
		if v := verdicts[op+"/no-marker"]; !strings.HasPrefix(v, "refused: Cannot initialize Kafka action state store") || !strings.Contains(v, "without a recovery marker") {
			t.Errorf("%s: a start without a marker after the first boundary: %q, want the runtime's refusal", op, v)
		}
		if v := verdicts[op+"/at-boundary"]; v != "accepted" {
			t.Errorf("%s: a restore at the boundary: %q, want accepted", op, v)
		}
	}
}

// restoreCheck is one check of the interop CLI's restore-check-batch: a
// job's rendered settings and the marker of the point it restores from
// (none: a start without one).
type restoreCheck struct {
	Name          string            `json:"name"`
	Settings      map[string]string `json:"settings"`
	MarkerTopic   string            `json:"markerTopic,omitempty"`
	MarkerTopicID string            `json:"markerTopicId,omitempty"`
	Marker        map[string]int64  `json:"marker"`
}

// restoreChecks runs the runtime's restore check on each of checks in one
// JVM and returns each verdict by name: "accepted" or "refused: MESSAGE".
func restoreChecks(t *testing.T, brokers []string, checks []restoreCheck) map[string]string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "checks.json")
	b, err := json.Marshal(checks)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := javaExit(t, "restore-check-batch", "--bootstrap", strings.Join(brokers, ","), "--checks", file, "--timeout-ms", "20000")
	if err != nil {
		t.Fatalf("restore-check-batch: %v\n%s", err, out)
	}
	verdicts := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if name, verdict, ok := strings.Cut(line, " "); ok {
			verdicts[name] = verdict
		}
	}
	return verdicts
}

// javaExit runs the interop CLI and returns stdout and stderr together,
// with the error of a non-zero exit, for commands expected to refuse.
func javaExit(t *testing.T, args ...string) (string, error) {
	t.Helper()
	jar := os.Getenv("FLINKAGENTS_INTEROP_JAR")
	if jar == "" {
		t.Fatal("FLINKAGENTS_INTEROP_JAR is not set: run `make interop-jar` and point the variable at interop/java/target/flinkagents-interop.jar")
	}
	if f := os.Getenv("FLINKAGENTS_ACC_JAVA_SECURITY_FILE"); f != "" {
		args = append(args, "--security-file", f)
	}
	out, err := exec.Command("java", append([]string{"-jar", jar}, args...)...).CombinedOutput()
	return string(out), err
}
