package resources_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// TestActionStateTopicKeptWhileBrokerLags: a fresh provider whose first
// metadata answer says a topic another run just created is unknown (a
// broker trailing the controller, seen on Kafka 3.9.1) keeps it in state;
// a topic that is really gone is still dropped, and the plan creates it.
func TestActionStateTopicKeptWhileBrokerLags(t *testing.T) {
	e := acctest.NewInProcess(t)
	name := e.Name("orders-action-state")
	addr := "flinkagents_action_state_topic.orders"
	config := actionStateTopicConfig(e, name, 3, false, "")
	var lag *kfake.FaultHandle
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig: func() {
					lag = e.Cluster.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Metadata}, Topic: name, Err: kerr.UnknownTopicOrPartition, Count: 1,
						When: func(r kmsg.Request) bool { return r.(*kmsg.MetadataRequest).IncludeTopicAuthorizedOperations }})
				},
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraformState) error {
					if lag.Hits() != 1 {
						return fmt.Errorf("the lagging answer was given %d times, want 1: the refresh did not meet it", lag.Hits())
					}
					return nil
				},
			},
			{
				PreConfig: func() {
					e.DeleteTopic(name)
				},
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)}},
			},
		},
	})
}
