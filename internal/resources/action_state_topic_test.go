package resources_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

func actionStateTopicConfig(e *acctest.Env, name string, partitions int, protection bool, extra string) string {
	return e.Provider() + fmt.Sprintf(`
resource "flinkagents_action_state_topic" "orders" {
  name                = %q
  partitions          = %d
  deletion_protection = %t
  config = {
    "min.cleanable.dirty.ratio" = "0.3"
  }
  %s
}
`, name, partitions, protection, extra)
}

func TestActionStateTopicLifecycle(t *testing.T) {
	e := acctest.New(t)
	name := e.Name("orders-action-state")
	addr := "flinkagents_action_state_topic.orders"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: actionStateTopicConfig(e, name, 6, true, ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("partitions"), knownvalue.Int64Exact(6)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("cleanup_policy"), knownvalue.StringExact("compact,delete")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("retention_ms"), knownvalue.StringExact("-1")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("retention_bytes"), knownvalue.StringExact("-1")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("topic_id"), knownvalue.StringRegexp(regexp.MustCompile(`^[A-Za-z0-9_-]{22}$`))),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraformState) error {
					for k, want := range map[string]string{"cleanup.policy": "compact,delete", "retention.ms": "-1", "retention.bytes": "-1", "min.cleanable.dirty.ratio": "0.3"} {
						if got := e.TopicConfig(name, k); got != want {
							return fmt.Errorf("broker has %s=%q, want %q", k, got, want)
						}
					}
					return nil
				},
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"config"},
			},
			{
				// Drift on an enforced setting and on a managed key plans an
				// in-place update that restores both.
				PreConfig: func() {
					e.SetTopicConfigs(name, map[string]string{"cleanup.policy": "compact", "min.cleanable.dirty.ratio": "0.9"})
				},
				Config: actionStateTopicConfig(e, name, 6, true, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("cleanup_policy"), knownvalue.StringExact("compact,delete")),
				}},
				Check: func(*terraformState) error {
					if got := e.TopicConfig(name, "cleanup.policy"); got != "compact,delete" {
						return fmt.Errorf("cleanup.policy not restored: %q", got)
					}
					if got := e.TopicConfig(name, "min.cleanable.dirty.ratio"); got != "0.3" {
						return fmt.Errorf("managed key not restored: %q", got)
					}
					return nil
				},
			},
			{
				// Unmanaged keys set by someone else never show as drift.
				PreConfig: func() {
					e.SetTopicConfigs(name, map[string]string{"max.message.bytes": "2097152"})
				},
				Config:             actionStateTopicConfig(e, name, 6, true, ""),
				PlanOnly:           true,
				ExpectNonEmptyPlan: false,
			},
			{
				Config:      actionStateTopicConfig(e, name, 12, true, ""),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Topic Shape Cannot Change`),
			},
			{
				// Removing the block of a protected topic is refused at plan time.
				Config:      e.Provider(),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Deletion Protection Is On`),
			},
			{
				Config: actionStateTopicConfig(e, name, 6, false, ""),
			},
		},
	})
}

func TestActionStateTopicRefusesEnforcedKeys(t *testing.T) {
	e := acctest.New(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config: e.Provider() + `
resource "flinkagents_action_state_topic" "bad" {
  name   = "x"
  config = { "retention.ms" = "604800000" }
}
`,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Reserved Topic Setting.*retention.ms=-1`),
		}},
	})
}

// A topic the runtime created with cleanup.policy=compact is adopted with an
// import block and upgraded in place to compact,delete; its records survive.
func TestActionStateTopicImportUpgradesRuntimeTopic(t *testing.T) {
	e := acctest.New(t)
	name := e.Name("legacy-action-state")
	e.CreateTopic(name, 4, map[string]string{"cleanup.policy": "compact"})
	e.Produce(name, 4, 5)
	addr := "flinkagents_action_state_topic.legacy"
	cfg := e.Provider() + fmt.Sprintf(`
import {
  to = %[2]s
  id = %[1]q
}
resource "flinkagents_action_state_topic" "legacy" {
  name                = %[1]q
  partitions          = 4
  deletion_protection = false
}
`, name, addr)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
			}},
			Check: func(*terraformState) error {
				if got := e.TopicConfig(name, "cleanup.policy"); got != "compact,delete" {
					return fmt.Errorf("cleanup.policy = %q", got)
				}
				ends, err := e.Admin.EndOffsets(context.Background(), name)
				if err != nil {
					return err
				}
				for p, end := range ends {
					if end != 5 {
						return fmt.Errorf("partition %d holds %d records, want 5", p, end)
					}
				}
				return nil
			},
		}},
	})
}

// TestActionStateTopicRecreatedOutsideTerraform: a topic deleted and
// recreated with the same name and settings is a new topic (new ID, none
// of the old action state). The plan must show the new ID as a change to
// confirm instead of adopting it silently.
func TestActionStateTopicRecreatedOutsideTerraform(t *testing.T) {
	e := acctest.New(t)
	name := e.Name("orders-action-state")
	addr := "flinkagents_action_state_topic.orders"
	config := actionStateTopicConfig(e, name, 3, false, "")
	var newID string
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig: func() {
					newID = e.RecreateTopic(name, 3, map[string]string{
						"cleanup.policy": "compact,delete", "retention.ms": "-1", "retention.bytes": "-1", "min.cleanable.dirty.ratio": "0.3",
					})
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addr, tfjsonpath.New("topic_id"), knownvalue.StringFunc(func(v string) error {
							if v != newID {
								return fmt.Errorf("planned topic_id %s, want the new topic's %s", v, newID)
							}
							return nil
						})),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}

// TestActionStateTopicReplicationFactorTooHigh: more replicas than live
// brokers is refused at plan time, naming the topic and the broker count,
// not at apply as "Unexpected Kafka Error"; nothing is created.
func TestActionStateTopicReplicationFactorTooHigh(t *testing.T) {
	e := acctest.New(t)
	name := e.Name("orders-action-state")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config:      actionStateTopicConfig(e, name, 3, false, "replication_factor = 9"),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Replication Factor Above Broker Count.*replication_factor = 9, the cluster\s+has\s+1\s+live\s+broker`),
		}},
	})
	if _, err := e.Admin.DescribeTopic(context.Background(), name); !errors.Is(err, kafkaops.ErrTopicNotFound) {
		t.Fatalf("after the refused plan, describing %s: %v; want not found", name, err)
	}
}

// TestActionStateTopicReplicationRaiseAboveBrokers: raising an existing
// topic past the live brokers (4 on 3) is refused at plan time too.
func TestActionStateTopicReplicationRaiseAboveBrokers(t *testing.T) {
	e := acctest.NewInProcessCluster(t, 3)
	name := e.Name("orders-action-state")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: actionStateTopicConfig(e, name, 3, false, "replication_factor = 1")},
			{
				Config:      actionStateTopicConfig(e, name, 3, false, "replication_factor = 4"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Replication Factor Above Broker Count.*replication_factor = 4, the cluster\s+has\s+3\s+live\s+broker\(s\)\s+\(IDs\s+\[0 1 2\]\)`),
			},
		},
	})
}

// TestActionStateTopicReplicationFactor: absent, the broker's default is
// used and shown in state; raising it plans an in-place update (applied on
// a real three-node cluster in internal/realkafka, since the in-process
// broker does not move replicas); lowering it is refused at plan time.
func TestActionStateTopicReplicationFactor(t *testing.T) {
	e := acctest.NewInProcessCluster(t, 3)
	name := e.Name("orders-action-state")
	addr := "flinkagents_action_state_topic.orders"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: actionStateTopicConfig(e, name, 3, false, ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("replication_factor"), knownvalue.NotNull()),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
	raised := e.Name("orders-action-state")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: actionStateTopicConfig(e, raised, 3, false, "replication_factor = 1")},
			{
				// kfake accepts the reassignment but never moves replicas, so
				// the wait for in-sync replicas ends at the update timeout.
				Config: actionStateTopicConfig(e, raised, 3, false, "replication_factor = 3\n  timeouts {\n    update = \"2s\"\n  }"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("replication_factor"), knownvalue.Int64Exact(3)),
				}},
				ExpectError: regexp.MustCompile(`(?s)Action-State Topic Update Timed Out.*raising\s+the\s+replication\s+factor.*0\s+of\s+3\s+partitions\s+have\s+all\s+3\s+replicas\s+in\s+sync`),
			},
		},
	})
	lowered := e.Name("orders-action-state")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: actionStateTopicConfig(e, lowered, 3, false, "replication_factor = 3")},
			{
				Config:      actionStateTopicConfig(e, lowered, 3, false, "replication_factor = 2"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Replication Factor Cannot Be Lowered.*from 3 to 2`),
			},
		},
	})
}
