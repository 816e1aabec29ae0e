package resources_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
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
	provider := fmt.Sprintf("provider \"flinkagents\" {\n  bootstrap_servers = [%s]\n  timeout           = \"1s\"\n}\n", e.BrokersHCL())
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps:                    []resource.TestStep{newOperatorRollout(provider, control, data)},
	})
	if hits := leaderless.Hits(); hits != 20 {
		t.Errorf("the new control topic's offsets were refused %d times, want all 20 (the entry read it until its leader answered)", hits)
	}
}
