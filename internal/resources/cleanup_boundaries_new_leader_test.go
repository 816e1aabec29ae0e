package resources_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// TestAccCleanupBoundariesNewControlTopicWaitsForItsLeader: at a rollout,
// the boundary of a new operator reads the control topic the same apply
// created. Brokers still making many new logs answer NOT_LEADER_FOR_PARTITION
// for it, or UNKNOWN_TOPIC_OR_PARTITION from a leader that has not made
// the partition yet, for longer than one operation's timeout (here the
// provider's timeout is 1 s and the new topic is refused about 5 s); the
// entry waits for its leader and ends NONE, as on a quiet cluster, instead
// of REFUSED with a warning until the next apply.
func TestAccCleanupBoundariesNewControlTopicWaitsForItsLeader(t *testing.T) {
	for name, fault := range map[string]kfake.Fault{
		"offsets, not leader":     {Keys: []kmsg.Key{kmsg.ListOffsets}, Err: kerr.NotLeaderForPartition},
		"offsets, not hosted yet": {Keys: []kmsg.Key{kmsg.ListOffsets}, Err: kerr.UnknownTopicOrPartition},
	} {
		t.Run(name, func(t *testing.T) { testNewControlTopicWaitsForItsLeader(t, fault) })
	}
}

func testNewControlTopicWaitsForItsLeader(t *testing.T, fault kfake.Fault) {
	e := acctest.NewInProcess(t)
	control, data := e.Name("orders-cleanup-control"), e.Name("orders-action-state")
	fault.Topic, fault.Count = control, 20
	leaderless := e.Cluster.Fault(fault)
	config := fmt.Sprintf(`
provider "flinkagents" {
  bootstrap_servers = [%s]
  timeout           = "1s"
}

resource "flinkagents_cleanup_control_topic" "orders" {
  name                = %q
  deletion_protection = false
}

resource "flinkagents_cleanup_boundaries" "fleet" {
  boundaries = {
    "orders" = {
      control_topic      = flinkagents_cleanup_control_topic.orders.name
      action_state_topic = %q
    }
  }
}
`, e.BrokersHCL(), control, data)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectUnknownValue(fleetAddr, entryAttr("orders", "status"))},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "status"), knownvalue.StringExact("NONE")),
				statecheck.ExpectKnownValue(fleetAddr, entryAttr("orders", "control_topic_id"), knownvalue.NotNull()),
			},
		}},
	})
	if hits := leaderless.Hits(); hits != 20 {
		t.Errorf("the new control topic's offsets were refused %d times, want all 20 (the entry read it until its leader answered)", hits)
	}
}
