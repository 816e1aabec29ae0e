package resources_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// TestCleanupControlTopicPolicyIsRestoredExactly: a control topic whose
// cleanup.policy is "compact" only as a trimmed set (" compact",
// "compact,compact") is drift, because the runtime compares the string
// exactly and refuses every restore with it; the next apply sets "compact".
//
// Apache Kafka itself trims and de-duplicates list values before storing
// them (4.4 describes " compact" and "compact,compact" as "compact"), so on a
// real broker those two cannot reach the runtime and the right plan is
// empty; the embedded broker keeps the string as written. The expected
// action follows what the broker reports, and "compact,delete" drifts on
// every broker.
func TestCleanupControlTopicPolicyIsRestoredExactly(t *testing.T) {
	e := acctest.New(t)
	name := e.Name("orders-cleanup-control")
	addr := "flinkagents_cleanup_control_topic.orders"
	steps := []resource.TestStep{{Config: controlTopicConfig(e, name, false)}}
	for _, policy := range []string{" compact", "compact,compact", "compact,delete"} {
		want := plancheck.ResourceActionUpdate
		steps = append(steps, resource.TestStep{
			PreConfig: func() {
				// "delete" first, so that the broker's view of policy always
				// differs from the one before and SetTopicConfigs can tell a
				// stored value from a lagging one (reading "compact" from a
				// broker that had not yet applied "compact,delete" once made
				// this step expect no change).
				e.SetTopicConfigs(name, map[string]string{"cleanup.policy": "delete"})
				e.SetTopicConfigs(name, map[string]string{"cleanup.policy": policy})
				if stored := e.TopicConfig(name, "cleanup.policy"); stored == "compact" {
					t.Logf("the broker stored cleanup.policy %q as %q: nothing for the runtime to refuse", policy, stored)
					want = plancheck.ResourceActionNoop
				}
			},
			Config: controlTopicConfig(e, name, false),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{expectActionOf(addr, &want)},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			Check: func(*terraformState) error {
				if got := e.TopicConfig(name, "cleanup.policy"); got != "compact" {
					return fmt.Errorf("cleanup.policy %q was not restored: %q", policy, got)
				}
				return nil
			},
		})
	}
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.Factories, Steps: steps})
}

// expectActionOf is plancheck.ExpectResourceAction with the action read when
// the plan is checked, for steps whose PreConfig learns what to expect.
func expectActionOf(addr string, want *plancheck.ResourceActionType) plancheck.PlanCheck {
	return lateAction{addr: addr, want: want}
}

type lateAction struct {
	addr string
	want *plancheck.ResourceActionType
}

func (l lateAction) CheckPlan(ctx context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	plancheck.ExpectResourceAction(l.addr, *l.want).CheckPlan(ctx, req, resp)
}

// TestCleanupControlTopicReplicationFactorRange: the runtime creates a
// control topic only with a replication factor from 1 to 32767 (a Kafka
// short); the resource refuses the rest before anything is created.
func TestCleanupControlTopicReplicationFactorRange(t *testing.T) {
	e := acctest.New(t)
	var steps []resource.TestStep
	for _, factor := range []int{0, 32768} {
		steps = append(steps, resource.TestStep{
			Config: e.Provider() + fmt.Sprintf(`
resource "flinkagents_cleanup_control_topic" "orders" {
  name               = %q
  replication_factor = %d
}
`, e.Name("orders-cleanup-control"), factor),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)replication_factor.*between 1 and 32767`),
		})
	}
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.Factories, Steps: steps})
}
