//go:build realkafka

package realkafka

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// outOfBand runs as a pre-apply plan check, that is between the saved
// plan and its apply.
type outOfBand func()

func (f outOfBand) CheckPlan(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) {
	f()
}

// TestClusterRaiseRefusedOnRecreatedTopic: a saved plan raises the
// replication factor of an action-state topic that is deleted and recreated
// (one replica, cleanup.policy=delete) before the apply. On a cluster that
// could reassign it, the apply must refuse first: the new topic keeps one
// replica per partition and its settings.
func TestClusterRaiseRefusedOnRecreatedTopic(t *testing.T) {
	c := newClusterEnv(t)
	t.Setenv("KAFKA_BOOTSTRAP_SERVERS", strings.Join(c.brokers, ","))
	e := acctest.New(t)
	name := uniqueName("rf-recreated")
	const parts = 3
	config := func(rf int) string {
		return e.Provider() + fmt.Sprintf(`
resource "flinkagents_action_state_topic" "orders" {
  name                = %q
  partitions          = %d
  replication_factor  = %d
  deletion_protection = false
}
`, name, parts, rf)
	}
	ctx := context.Background()
	recreate := func() {
		old, err := c.ops.DescribeTopic(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.ops.DeleteTopic(ctx, name, old.ID); err != nil {
			t.Fatal(err)
		}
		// Kafka finishes a deletion asynchronously; the name is free once
		// a create stops answering TOPIC_ALREADY_EXISTS.
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
			_, err := c.ops.CreateTopic(ctx, name, parts, 1, map[string]string{"cleanup.policy": "delete"})
			if err == nil {
				return
			}
			if !errors.Is(err, kerr.TopicAlreadyExists) || time.Now().After(deadline) {
				t.Fatal(err)
			}
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: config(1)},
			{
				Config: config(3),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("flinkagents_action_state_topic.orders", plancheck.ResourceActionUpdate),
					outOfBand(recreate),
				}},
				ExpectError: regexp.MustCompile(`(?s)Changed Since The Plan.*Nothing\s+was\s+changed`),
			},
			{
				PreConfig: func() {
					if err := allReplicasInSync(ctx, c.cl, name, 1); err != nil {
						t.Fatalf("the recreated topic's replication changed after the refused apply: %v", err)
					}
					cfg, err := c.ops.TopicConfigs(ctx, name)
					if err != nil {
						t.Fatal(err)
					}
					if got := cfg["cleanup.policy"].Value; got != "delete" {
						t.Fatalf("the recreated topic has cleanup.policy=%q after the refused apply, want delete", got)
					}
				},
				// Accepting the new topic lets the test's destroy delete it.
				Config: config(1),
			},
		},
	})
}
