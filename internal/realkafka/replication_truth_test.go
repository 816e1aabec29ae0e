//go:build realkafka

package realkafka

import (
	"context"
	"crypto/rand"
	"fmt"
	"regexp"
	"slices"
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
)

const truthAddr = "flinkagents_action_state_topic.orders"

// replicationConfig is one action-state topic of two partitions with
// replication factor rf and extra lines inside the block. Its
// min.insync.replicas is 1: the cluster's default of 2 refuses acks=all
// writes to a one-replica topic on Kafka 3.6 (ZooKeeper mode; 4.4 in KRaft
// mode accepted them).
func replicationConfig(e *acctest.Env, name string, rf int, extra string) string {
	return e.Provider() + fmt.Sprintf(`
resource "flinkagents_action_state_topic" "orders" {
  name                = %q
  partitions          = 2
  replication_factor  = %d
  deletion_protection = false
  config              = { "min.insync.replicas" = "1" }
  %s
}
`, name, rf, extra)
}

// TestClusterReplicationInterruptedRaise: a raise from 1 to 3 replicas that
// cannot finish in time (replication throttled to 10 KB/s under 2 MB per
// partition) is cut off by the update timeout, as Ctrl-C would. The next
// plan must still propose the raise (state keeps the factor every partition
// holds in sync, 1), not "No changes"; with the throttle lifted the next
// apply waits for the reassignment and records 3 once every replica is in
// sync, and the records are all there.
func TestClusterReplicationInterruptedRaise(t *testing.T) {
	c := newClusterEnv(t)
	t.Setenv("KAFKA_BOOTSTRAP_SERVERS", strings.Join(c.brokers, ","))
	e := acctest.New(t)
	name := uniqueName("rf-cut")
	adm := kadm.NewClient(c.cl)
	ctx := context.Background()
	throttle := func(on bool) {
		t.Helper()
		rate := kadm.AlterConfig{Op: kadm.DeleteConfig, Name: "leader.replication.throttled.rate"}
		frate := kadm.AlterConfig{Op: kadm.DeleteConfig, Name: "follower.replication.throttled.rate"}
		replicas := []kadm.AlterConfig{{Op: kadm.DeleteConfig, Name: "leader.replication.throttled.replicas"}, {Op: kadm.DeleteConfig, Name: "follower.replication.throttled.replicas"}}
		if on {
			rate.Op, rate.Value = kadm.SetConfig, kadm.StringPtr("10240")
			frate.Op, frate.Value = kadm.SetConfig, kadm.StringPtr("10240")
			for i := range replicas {
				replicas[i].Op, replicas[i].Value = kadm.SetConfig, kadm.StringPtr("*")
			}
		}
		for _, b := range []int32{1, 2, 3} {
			resps, err := adm.AlterBrokerConfigs(ctx, []kadm.AlterConfig{rate, frate}, b)
			if err == nil {
				err = firstConfigErr(resps)
			}
			if err != nil {
				t.Fatalf("throttle %v on broker %d: %v", on, b, err)
			}
		}
		if !on {
			return // the topic's throttled-replica lists do nothing without a rate
		}
		resps, err := adm.AlterTopicConfigs(ctx, replicas, name)
		if err == nil {
			err = firstConfigErr(resps)
		}
		if err != nil {
			t.Fatalf("throttle on %s: %v", name, err)
		}
	}
	t.Cleanup(func() { throttle(false) })
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: replicationConfig(e, name, 1, ""),
				Check: func(*terraform.State) error {
					produceBytes(t, c.cl, name, 2, 2000, 1024)
					throttle(true)
					return nil
				},
			},
			{
				Config:      replicationConfig(e, name, 3, `timeouts { update = "5s" }`),
				ExpectError: regexp.MustCompile(`(?s)raising\s+the\s+replication\s+factor.*the\s+next\s+apply\s+waits\s+for\s+it`),
			},
			{
				// The refresh sees the reassignment under way: state says 1,
				// the replicas every partition holds in sync, whatever the
				// failed update left there.
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: func(s *terraform.State) error {
					if got := s.RootModule().Resources[truthAddr].Primary.Attributes["replication_factor"]; got != "1" {
						return fmt.Errorf("replication_factor after refreshing mid-reassignment: %s, want 1", got)
					}
					return nil
				},
			},
			{
				// So the raise is still planned.
				Config:             replicationConfig(e, name, 3, `timeouts { update = "5s" }`),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				PreConfig: func() {
					if err := allReplicasInSync(ctx, c.cl, name, 3); err == nil {
						t.Fatal("the reassignment finished under the throttle; the test proves nothing")
					}
					throttle(false)
				},
				Config: replicationConfig(e, name, 3, `timeouts { update = "3m" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(truthAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(truthAddr, tfjsonpath.New("replication_factor"), knownvalue.Int64Exact(3)),
				},
				Check: func(*terraform.State) error {
					if err := allReplicasInSync(ctx, c.cl, name, 3); err != nil {
						return err
					}
					return recordCount(ctx, c.brokers, name, 2, 2000)
				},
			},
		},
	})
}

// TestClusterReplicationPartialOutOfBand: partition 0 moved to three
// replicas outside Terraform, partition 1 left at one. State must say 1
// (what every partition has), so a configuration asking for 3 plans an
// update, and its apply gives partition 1 its replicas too.
func TestClusterReplicationPartialOutOfBand(t *testing.T) {
	c := newClusterEnv(t)
	t.Setenv("KAFKA_BOOTSTRAP_SERVERS", strings.Join(c.brokers, ","))
	e := acctest.New(t)
	name := uniqueName("rf-partial")
	adm := kadm.NewClient(c.cl)
	ctx := context.Background()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: replicationConfig(e, name, 1, "")},
			{
				PreConfig: func() {
					md, err := adm.Metadata(ctx, name)
					if err != nil {
						t.Fatal(err)
					}
					replicas := slices.Clone(md.Topics[name].Partitions[0].Replicas)
					for _, b := range []int32{1, 2, 3} {
						if !slices.Contains(replicas, b) {
							replicas = append(replicas, b)
						}
					}
					var req kadm.AlterPartitionAssignmentsReq
					req.Assign(name, 0, replicas)
					if _, err := adm.AlterPartitionAssignments(ctx, req); err != nil {
						t.Fatal(err)
					}
					waitPartitionInSync(t, adm, name, 0, 3)
				},
				Config: replicationConfig(e, name, 3, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(truthAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(truthAddr, tfjsonpath.New("replication_factor"), knownvalue.Int64Exact(3)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: func(*terraform.State) error { return allReplicasInSync(ctx, c.cl, name, 3) },
			},
		},
	})
}

func firstConfigErr(resps kadm.AlterConfigsResponses) error {
	for _, r := range resps {
		if r.Err != nil {
			return fmt.Errorf("%s: %w (%s)", r.Name, r.Err, r.ErrMessage)
		}
	}
	return nil
}

// waitPartitionInSync waits until topic/p has rf replicas, all in sync.
func waitPartitionInSync(t *testing.T, adm *kadm.Client, topic string, p int32, rf int) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(250 * time.Millisecond) {
		md, err := adm.Metadata(context.Background(), topic)
		if err == nil {
			pd := md.Topics[topic].Partitions[p]
			if len(pd.Replicas) == rf && len(pd.ISR) == rf {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s partition %d: not %d replicas in sync within 60s (%v)", topic, p, rf, err)
		}
	}
}

// produceBytes writes n keyed records (the topic is compacted) of size
// random bytes, which no compression shrinks, to each partition.
func produceBytes(t *testing.T, cl *kgo.Client, topic string, partitions int32, n, size int) {
	t.Helper()
	var recs []*kgo.Record
	for p := range partitions {
		for i := range n {
			value := make([]byte, size)
			_, _ = rand.Read(value)
			recs = append(recs, &kgo.Record{Topic: topic, Partition: p, Key: fmt.Appendf(nil, "k-%d-%d", p, i), Value: value})
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
}

// recordCount checks every partition still holds n records from offset 0.
func recordCount(ctx context.Context, brokers []string, topic string, partitions int32, n int64) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...))
	if err != nil {
		return err
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	starts, err := adm.ListStartOffsets(ctx, topic)
	if err != nil {
		return err
	}
	ends, err := adm.ListEndOffsets(ctx, topic)
	if err != nil {
		return err
	}
	for p := range partitions {
		s, _ := starts.Lookup(topic, p)
		e, _ := ends.Lookup(topic, p)
		if s.Offset != 0 || e.Offset != n {
			return fmt.Errorf("%s partition %d holds offsets %d..%d after the reassignment; want 0..%d", topic, p, s.Offset, e.Offset, n)
		}
	}
	return nil
}
