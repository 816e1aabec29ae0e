package datasources_test

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// TestAccAgentConfigTombstonesKnownOnlyAtApply: tombstones_enabled from
// another resource is unknown when the configuration is first validated;
// once it is known (Terraform validates again before the read), tombstones
// and a control topic holding a boundary are still never rendered together.
func TestAccAgentConfigTombstonesKnownOnlyAtApply(t *testing.T) {
	e := acctest.New(t)
	data, control := e.Name("ac-tomb-action-state"), e.Name("ac-tomb-cleanup-control")
	recordBoundary(t, e, data, control)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config: e.Provider() + fmt.Sprintf(`
resource "terraform_data" "tombstones" {
  input = true
}

data "flinkagents_agent_config" "job" {
  action_state_topic = %q
  control_topic      = %q
  tombstones_enabled = terraform_data.tombstones.output
}
`, data, control),
			ExpectError: regexp.MustCompile(`Tombstones Conflict With Cleanup`),
		}},
	})
}

// tombstoneGuide is the guide on moving from tombstones, whose steps are
// the runtime's documented order.
const tombstoneGuide = "../../templates/guides/moving-from-tombstones.md.tmpl"

// agentConfigBlocks returns the guide's flinkagents_agent_config blocks in
// the order they appear, keyed by their names.
func agentConfigBlocks(t *testing.T) (names []string, blocks map[string]string) {
	t.Helper()
	b, err := os.ReadFile(tombstoneGuide)
	if err != nil {
		t.Fatal(err)
	}
	blocks = map[string]string{}
	fence := regexp.MustCompile("(?ms)^( *)```terraform\n(.*?)^ *```")
	name := regexp.MustCompile(`data "flinkagents_agent_config" "([a-z_]+)"`)
	for _, m := range fence.FindAllStringSubmatch(string(b), -1) {
		if n := name.FindStringSubmatch(m[2]); n != nil {
			names = append(names, n[1])
			blocks[n[1]] = regexp.MustCompile("(?m)^"+m[1]).ReplaceAllString(m[2], "")
		}
	}
	return names, blocks
}

// TestAccAgentConfigFollowsTheTombstoneGuide runs the guide's agent_config
// blocks in the guide's order against the topics it names, with the first
// boundary recorded where the guide records it, and holds what each renders
// to the runtime's procedure: tombstones on and no control topic while the
// job runs as it does today; both off once it restarts; the control topic,
// with tombstones off, only after the boundary from the new recovery point.
// Tombstones and a control topic are never rendered together.
func TestAccAgentConfigFollowsTheTombstoneGuide(t *testing.T) {
	names, blocks := agentConfigBlocks(t)
	if want := []string{"with_tombstones", "without_tombstones", "with_cleanup"}; strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("the guide's agent_config blocks are %v, in that order; the runtime's procedure needs %v", names, want)
	}
	e := acctest.NewInProcess(t) // the guide's topic names, on a broker of the test's own
	const data, control = "orders-agent-action-state", "orders-agent-cleanup-control"
	id := e.CreateTopic(data, 2, cleanup.DataTopicSettings)
	e.CreateTopic(control, 1, map[string]string{cleanup.ConfigCleanupPolicy: cleanup.ControlTopicPolicy})
	e.Produce(data, 2, 10)
	w := e.Workdir()
	render := func(step string) map[string]string {
		t.Helper()
		w.Write("main.tf", e.CLIProvider()+blocks[step]+fmt.Sprintf(`
output "settings" {
  value = data.flinkagents_agent_config.%s.settings
}
`, step))
		w.Terraform("apply", "-auto-approve")
		var s map[string]string
		w.Output("settings", &s)
		if s["kafkaActionStateTombstoneEnabled"] == "true" && s["kafkaActionStateCleanupControlTopic"] != "" {
			t.Fatalf("%s renders tombstones and a control topic together: %v", step, s)
		}
		return s
	}
	expect := func(step, tombstones, controlTopic string) {
		t.Helper()
		s := render(step)
		if s["kafkaActionStateTombstoneEnabled"] != tombstones || s["kafkaActionStateCleanupControlTopic"] != controlTopic || s["kafkaActionStateTopic"] != data {
			t.Errorf("%s renders %v; want kafkaActionStateTombstoneEnabled=%s and kafkaActionStateCleanupControlTopic=%q", step, s, tombstones, controlTopic)
		}
	}
	w.Terraform("init")
	expect("with_tombstones", "true", "")     // the job today
	expect("without_tombstones", "false", "") // step 3: restarted without either
	expect("with_cleanup", "false", "")       // step 6 too early: no boundary yet, so no control topic
	// Step 5: the first boundary, from the restarted run's new recovery point.
	p, err := cleanupplan.New("file:/var/flink/savepoints/savepoint-after-tombstones", data, id, cleanupplan.Offsets{0: 10, 1: 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cleanup.Apply(context.Background(), e.Admin, cleanup.Request{Plan: p, ControlTopic: control}); err != nil {
		t.Fatal(err)
	}
	expect("with_cleanup", "false", control) // step 6
}
