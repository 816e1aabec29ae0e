//go:build realkafka

package realkafka

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// TestClusterReplicationFactorRaise: both topics created with one replica
// (min.insync.replicas 1, see replicationConfig) on the three-node cluster, records written and a boundary applied, then
// replication_factor = 3 applied in place: every partition ends with three
// in-sync replicas, the topic IDs are unchanged, every record above the
// boundary reads back intact and the boundary is still recorded.
func TestClusterReplicationFactorRaise(t *testing.T) {
	c := newClusterEnv(t)
	t.Setenv("KAFKA_BOOTSTRAP_SERVERS", strings.Join(c.brokers, ","))
	e := acctest.New(t)
	data, control := uniqueName("rf-data"), uniqueName("rf-control")
	const parts, records = 3, 30
	config := func(rf int) string {
		return e.Provider() + fmt.Sprintf(`
resource "flinkagents_action_state_topic" "orders" {
  name                = %q
  partitions          = %d
  replication_factor  = %d
  deletion_protection = false
  config              = { "min.insync.replicas" = "1" }
}

resource "flinkagents_cleanup_control_topic" "orders" {
  name                = %q
  action_state_topic  = flinkagents_action_state_topic.orders.name
  replication_factor  = %d
  deletion_protection = false
  config              = { "min.insync.replicas" = "1" }
}
`, data, parts, rf, control, rf)
	}
	boundary := cleanupplan.Offsets{0: 10, 1: 12, 2: 14}
	var dataID, controlID string
	ctx := context.Background()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: config(1),
				Check: func(s *terraform.State) error {
					dataID = s.RootModule().Resources["flinkagents_action_state_topic.orders"].Primary.Attributes["topic_id"]
					controlID = s.RootModule().Resources["flinkagents_cleanup_control_topic.orders"].Primary.Attributes["topic_id"]
					produce(t, c.cl, data, parts, records)
					plan, err := cleanupplan.New("file:/rf/chk-3", data, dataID, boundary)
					if err != nil {
						return err
					}
					_, err = cleanup.Apply(ctx, c.client(t), cleanup.Request{Plan: plan, ControlTopic: control})
					return err
				},
			},
			{
				Config: config(3),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("flinkagents_action_state_topic.orders", plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("flinkagents_cleanup_control_topic.orders", plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("flinkagents_action_state_topic.orders", tfjsonpath.New("replication_factor"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue("flinkagents_cleanup_control_topic.orders", tfjsonpath.New("replication_factor"), knownvalue.Int64Exact(3)),
				},
				Check: func(s *terraform.State) error {
					if got := s.RootModule().Resources["flinkagents_action_state_topic.orders"].Primary.Attributes["topic_id"]; got != dataID {
						return fmt.Errorf("action-state topic ID changed from %s to %s", dataID, got)
					}
					if got := s.RootModule().Resources["flinkagents_cleanup_control_topic.orders"].Primary.Attributes["topic_id"]; got != controlID {
						return fmt.Errorf("control topic ID changed from %s to %s", controlID, got)
					}
					for _, topic := range []string{data, control} {
						if err := allReplicasInSync(ctx, c.cl, topic, 3); err != nil {
							return err
						}
					}
					if err := recordsAbove(ctx, c.brokers, data, boundary, records); err != nil {
						return err
					}
					log, err := cleanup.History(ctx, c.client(t), control)
					if err != nil {
						return fmt.Errorf("the boundary is unreadable after the reassignment: %w", err)
					}
					if b := log.Boundary(); b[0] != 10 || b[1] != 12 || b[2] != 14 {
						return fmt.Errorf("recorded boundary after the reassignment: %v", b)
					}
					return nil
				},
			},
		},
	})
}

// allReplicasInSync checks every partition of topic has rf replicas, all in
// sync, as the cluster's metadata says. A broker's metadata cache may trail
// the controller by a moment (the one the provider asked already said so),
// so it asks again for up to 30 seconds.
func allReplicasInSync(ctx context.Context, cl *kgo.Client, topic string, rf int) error {
	var last error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		md, err := kadm.NewClient(cl).Metadata(ctx, topic)
		if err != nil {
			return err
		}
		last = nil
		for p, pd := range md.Topics[topic].Partitions {
			if len(pd.Replicas) != rf || len(pd.ISR) != rf {
				last = fmt.Errorf("%s partition %d: replicas %v, in sync %v; want %d of each", topic, p, pd.Replicas, pd.ISR, rf)
			}
		}
		if last == nil {
			return nil
		}
	}
	return last
}

// recordsAbove reads every partition from its start and checks exactly the
// records at or above the boundary are there, with the values produce wrote.
func recordsAbove(ctx context.Context, brokers []string, topic string, boundary cleanupplan.Offsets, perPartition int) error {
	from := map[string]map[int32]kgo.Offset{topic: {}}
	for p := range boundary {
		from[topic][p] = kgo.NewOffset().AtStart()
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...), kgo.ConsumePartitions(from))
	if err != nil {
		return err
	}
	defer cl.Close()
	want := 0
	for _, b := range boundary {
		want += perPartition - int(b)
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	for got := 0; got < want; {
		fs := cl.PollFetches(ctx)
		if err := fs.Err0(); err != nil {
			return fmt.Errorf("read %d of %d records above the boundary: %w", got, want, err)
		}
		var bad error
		fs.EachRecord(func(r *kgo.Record) {
			got++
			if r.Offset < boundary[r.Partition] || string(r.Value) != string(recordValue(r.Partition, r.Offset)) {
				bad = fmt.Errorf("partition %d offset %d: %q (boundary %d)", r.Partition, r.Offset, r.Value, boundary[r.Partition])
			}
		})
		if bad != nil {
			return bad
		}
	}
	return nil
}
