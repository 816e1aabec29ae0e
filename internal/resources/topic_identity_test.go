package resources_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// betweenPlanAndApply runs an out-of-band change as a pre-apply plan check:
// the test framework saves the plan, runs these checks, then applies that
// saved plan, as `terraform plan -out` and `terraform apply FILE` would.
type betweenPlanAndApply func()

func (f betweenPlanAndApply) CheckPlan(context.Context, plancheck.CheckPlanRequest, *plancheck.CheckPlanResponse) {
	f()
}

// identityCase is one topic resource kind, configured with one managed key
// set to before, then to after (values a real broker accepts).
type identityCase struct {
	resourceType  string
	partitions    int32
	key           string
	before, after string
	config        func(e *acctest.Env, name, value string) string
}

var identityCases = []identityCase{
	{"flinkagents_action_state_topic", 3, "min.cleanable.dirty.ratio", "0.3", "0.4", func(e *acctest.Env, name, value string) string {
		return e.Provider() + fmt.Sprintf(`
resource "flinkagents_action_state_topic" "t" {
  name                = %q
  partitions          = 3
  deletion_protection = false
  config              = { "min.cleanable.dirty.ratio" = %q }
}
`, name, value)
	}},
	{"flinkagents_cleanup_control_topic", 1, "min.compaction.lag.ms", "1000", "2000", func(e *acctest.Env, name, value string) string {
		return e.Provider() + fmt.Sprintf(`
resource "flinkagents_cleanup_control_topic" "t" {
  name                = %q
  action_state_topic  = "orders-action-state"
  deletion_protection = false
  config              = { "min.compaction.lag.ms" = %q }
}
`, name, value)
	}},
}

// eachTopicKind runs the steps made for each topic resource kind, on a
// fresh broker and topic name.
func eachTopicKind(t *testing.T, steps func(t *testing.T, e *acctest.Env, c identityCase, name string) []resource.TestStep) {
	for _, c := range identityCases {
		t.Run(c.resourceType, func(t *testing.T) {
			e := acctest.New(t)
			resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.Factories, Steps: steps(t, e, c, e.Name("identity"))})
		})
	}
}

// recreate deletes name and creates it again, empty, with configs and
// nothing else, returning the new topic ID.
func recreate(t *testing.T, e *acctest.Env, name string, partitions int32, configs map[string]string) string {
	t.Helper()
	return e.RecreateTopic(name, partitions, configs)
}

// untouched fails unless the recreated topic still has exactly what it was
// created with: no enforced setting, not the planned value of key.
func untouched(t *testing.T, e *acctest.Env, name, key, planned string) {
	t.Helper()
	if got := e.TopicConfig(name, "cleanup.policy"); got != "delete" {
		t.Errorf("the recreated topic has cleanup.policy=%q, want %q: the refused apply wrote to it", got, "delete")
	}
	if got := e.TopicConfig(name, "retention.ms"); got == "-1" {
		t.Errorf("the recreated topic has retention.ms=-1: the refused apply wrote to it")
	}
	if got := e.TopicConfig(name, key); got == planned {
		t.Errorf("the recreated topic has %s=%q, the planned value: the refused apply wrote to it", key, got)
	}
}

// TestTopicRecreatedBetweenPlanAndApply: a saved plan updates a topic that
// is deleted and recreated before the apply. The apply must refuse before
// writing anything, leave the new topic exactly as it was created, and say
// so; a later plan then proposes the new topic ID for review.
func TestTopicRecreatedBetweenPlanAndApply(t *testing.T) {
	eachTopicKind(t, func(t *testing.T, e *acctest.Env, c identityCase, name string) []resource.TestStep {
		var newID string
		return []resource.TestStep{
			{Config: c.config(e, name, c.before)},
			{
				Config: c.config(e, name, c.after),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(c.resourceType+".t", plancheck.ResourceActionUpdate),
					betweenPlanAndApply(func() { newID = recreate(t, e, name, c.partitions, map[string]string{"cleanup.policy": "delete"}) }),
				}},
				ExpectError: regexp.MustCompile(`(?s)Changed Since The Plan.*Nothing\s+was\s+changed`),
			},
			{
				PreConfig: func() { untouched(t, e, name, c.key, c.after) },
				Config:    c.config(e, name, c.after),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(c.resourceType+".t", plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(c.resourceType+".t", tfjsonpath.New("topic_id"), knownvalue.StringFunc(func(v string) error {
						if v != newID {
							return fmt.Errorf("planned topic_id %s, want the recreated topic's %s", v, newID)
						}
						return nil
					})),
				}},
			},
		}
	})
}

// TestTopicRecreatedIsNotDeleted: destroying a topic whose name now belongs
// to a topic recreated outside Terraform refuses and deletes nothing.
func TestTopicRecreatedIsNotDeleted(t *testing.T) {
	eachTopicKind(t, func(t *testing.T, e *acctest.Env, c identityCase, name string) []resource.TestStep {
		var newID string
		return []resource.TestStep{
			{Config: c.config(e, name, c.before)},
			{
				Config: e.Provider(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(c.resourceType+".t", plancheck.ResourceActionDestroy),
					betweenPlanAndApply(func() { newID = recreate(t, e, name, c.partitions, map[string]string{"cleanup.policy": "delete"}) }),
				}},
				ExpectError: regexp.MustCompile(`(?s)Recreated, Not Deleted.*Nothing\s+was\s+deleted`),
			},
			{
				// Still there; accepting it lets the test's final destroy delete it.
				PreConfig: func() {
					topic, err := e.Admin.DescribeTopic(context.Background(), name)
					if err != nil || topic.ID.String() != newID {
						t.Fatalf("the recreated topic is gone or replaced (%v, %v): the refused destroy deleted it", topic.ID, err)
					}
				},
				Config: c.config(e, name, c.before),
			},
		}
	})
}
