package resources_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

func controlTopicConfig(e *acctest.Env, name string, protection bool) string {
	return e.Provider() + fmt.Sprintf(`
resource "flinkagents_cleanup_control_topic" "orders" {
  name                = %q
  action_state_topic  = "orders-action-state"
  deletion_protection = %t
  config = {
    "min.compaction.lag.ms" = "60000"
  }
}
`, name, protection)
}

func TestCleanupControlTopicLifecycle(t *testing.T) {
	e := acctest.New(t)
	name := e.Name("orders-cleanup-control")
	addr := "flinkagents_cleanup_control_topic.orders"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: controlTopicConfig(e, name, true),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("cleanup_policy"), knownvalue.StringExact("compact")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("topic_id"), knownvalue.StringRegexp(regexp.MustCompile(`^[A-Za-z0-9_-]{22}$`))),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraformState) error {
					t, err := e.Admin.DescribeTopic(context.Background(), name)
					if err != nil {
						return err
					}
					if len(t.Partitions) != 1 {
						return fmt.Errorf("control topic has %d partitions", len(t.Partitions))
					}
					if got := e.TopicConfig(name, "cleanup.policy"); got != "compact" {
						return fmt.Errorf("cleanup.policy = %q", got)
					}
					return nil
				},
			},
			{
				ResourceName: addr, ImportState: true, ImportStateId: name, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"config", "action_state_topic"},
			},
			{
				// Someone adds delete to the policy: the next plan restores compact.
				PreConfig: func() {
					e.SetTopicConfigs(name, map[string]string{"cleanup.policy": "compact,delete"})
				},
				Config: controlTopicConfig(e, name, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraformState) error {
					if got := e.TopicConfig(name, "cleanup.policy"); got != "compact" {
						return fmt.Errorf("cleanup.policy not restored: %q", got)
					}
					return nil
				},
			},
			{Config: e.Provider(), PlanOnly: true, ExpectError: regexp.MustCompile(`Deletion Protection Is On`)},
			{Config: controlTopicConfig(e, name, false)},
		},
	})
}

func TestCleanupControlTopicRefusals(t *testing.T) {
	e := acctest.New(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: e.Provider() + `
resource "flinkagents_cleanup_control_topic" "bad" {
  name   = "ctl"
  config = { "cleanup.policy" = "compact,delete" }
}`,
				PlanOnly: true, ExpectError: regexp.MustCompile(`Reserved Topic Setting`),
			},
			{
				Config: e.Provider() + `
resource "flinkagents_cleanup_control_topic" "bad" {
  name               = "orders"
  action_state_topic = "orders"
}`,
				PlanOnly: true, ExpectError: regexp.MustCompile(`Control Topic Must Be Dedicated`),
			},
		},
	})
}

// A control topic with several partitions cannot be trusted: Read says so.
func TestCleanupControlTopicWithPartitionsIsReported(t *testing.T) {
	e := acctest.New(t)
	name := e.Name("ctl-multi")
	e.CreateTopic(name, 3, map[string]string{"cleanup.policy": "compact"})
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config:   e.Provider() + controlTopicImport(name, ""),
			PlanOnly: true, ExpectError: regexp.MustCompile(`Control Topic Has Several Partitions`),
		}},
	})
}
