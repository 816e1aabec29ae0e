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
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
)

// TestActionStateTopicImportKeepsLivePartitions: a topic of 12 partitions
// (the runtime's own size, not the 64 default) imports with no change
// planned when the configuration leaves partitions out, by import block and
// by terraform import; a configuration naming another count is still
// refused at plan time; a topic created without partitions gets 64.
func TestActionStateTopicImportKeepsLivePartitions(t *testing.T) {
	e := acctest.New(t)
	name := e.Name("runtime-action-state")
	e.CreateTopic(name, 12, cleanup.DataTopicSettings)
	addr := "flinkagents_action_state_topic.orders"
	config := func(resourceName, extra string) string {
		return e.Provider() + fmt.Sprintf(`
resource "flinkagents_action_state_topic" "orders" {
  name = %q
  %s
}
`, resourceName, extra)
	}
	importBlock := fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", addr, name)
	created := e.Name("new-action-state")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: importBlock + config(name, ""), PlanOnly: true},
			{
				Config: importBlock + config(name, "partitions = 64"), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Topic Shape Cannot Change.*partitions\s+would\s+change\s+from\s+12\s+to\s+64`),
			},
			{
				Config: config(name, ""), ResourceName: addr, ImportState: true, ImportStateId: name, ImportStatePersist: true,
			},
			{
				Config:           config(name, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("partitions"), knownvalue.Int64Exact(12)),
				},
			},
			{Config: config(name, "partitions = 12"), PlanOnly: true},
			{Config: config(name, "partitions = 64"), PlanOnly: true, ExpectError: regexp.MustCompile(`Topic Shape Cannot Change`)},
			{
				// Forget the imported topic (it stays protected in Kafka) and
				// create one without partitions: the runtime's default, 64.
				Config: e.Provider() + fmt.Sprintf("removed {\n  from = %s\n  lifecycle {\n    destroy = false\n  }\n}\n", addr) +
					fmt.Sprintf("resource \"flinkagents_action_state_topic\" \"created\" {\n  name = %q\n  deletion_protection = false\n}\n", created),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("flinkagents_action_state_topic.created", tfjsonpath.New("partitions"), knownvalue.Int64Exact(64)),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraformState) error {
					topic, err := e.Admin.DescribeTopic(context.Background(), created)
					if err != nil {
						return err
					}
					if len(topic.Partitions) != 64 {
						return fmt.Errorf("created with %d partitions, want 64", len(topic.Partitions))
					}
					return nil
				},
			},
		},
	})
}
