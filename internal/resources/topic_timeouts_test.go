package resources_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// The timeouts block bounds each write of a topic as a whole, step by step:
// kfake leaves one kind of request unanswered (or answers a deletion it does
// not perform), the provider's own per-request timeout is 20s, and each
// step must end at the block's 2s with a diagnostic naming the block, the
// step and the topic, having changed nothing the step did not reach.

// stall leaves kfake's requests of key unanswered while on is set.
func stall(e *acctest.Env, key kmsg.Key, on *atomic.Bool) {
	e.Cluster.ControlKey(int16(key), func(kmsg.Request) (kmsg.Response, error, bool) {
		e.Cluster.KeepControl()
		return nil, nil, on.Load()
	})
}

func timedOutTopicConfig(e *acctest.Env, name, ratio, block string) string {
	return e.Provider() + fmt.Sprintf(`
resource "flinkagents_action_state_topic" "orders" {
  name                = %q
  partitions          = 3
  deletion_protection = false
  config = {
    "min.cleanable.dirty.ratio" = %q
  }
  timeouts {
    %s = "2s"
  }
}
`, name, ratio, block)
}

// timeoutError matches the diagnostic of a step the timeouts block ended.
func timeoutError(summary, step, name, key string) *regexp.Regexp {
	text := regexp.QuoteMeta(fmt.Sprintf("%s %q, the resource's timeouts.%s (2s) ran out", step, name, key))
	return regexp.MustCompile(`(?s)` + summary + `.*While\s+` + strings.ReplaceAll(text, " ", `\s+`))
}

func TestTopicCreateTimesOut(t *testing.T) {
	e := acctest.NewInProcess(t)
	name := e.Name("orders-action-state")
	var on atomic.Bool
	stall(e, kmsg.CreateTopics, &on)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { on.Store(true) },
				Config:      timedOutTopicConfig(e, name, "0.3", "create"),
				ExpectError: timeoutError("Action-State Topic Create Timed Out", "creating action-state topic", name, "create"),
			},
			{
				PreConfig: func() {
					if _, err := e.Admin.DescribeTopic(context.Background(), name); !errors.Is(err, kafkaops.ErrTopicNotFound) {
						t.Fatalf("after the timed-out create, describing %s: %v; want not found", name, err)
					}
					on.Store(false)
				},
				Config:           timedOutTopicConfig(e, name, "0.3", "create"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

func TestTopicUpdateSettingsTimesOut(t *testing.T) {
	e := acctest.NewInProcess(t)
	name := e.Name("orders-action-state")
	var on atomic.Bool
	stall(e, kmsg.IncrementalAlterConfigs, &on)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: timedOutTopicConfig(e, name, "0.3", "update")},
			{
				PreConfig:   func() { on.Store(true) },
				Config:      timedOutTopicConfig(e, name, "0.4", "update"),
				ExpectError: timeoutError("Action-State Topic Update Timed Out", "updating the settings of action-state topic", name, "update"),
			},
			{
				PreConfig: func() {
					if got := e.TopicConfig(name, "min.cleanable.dirty.ratio"); got != "0.3" {
						t.Fatalf("after the timed-out update, min.cleanable.dirty.ratio = %q; want 0.3", got)
					}
					on.Store(false)
				},
				Config: timedOutTopicConfig(e, name, "0.4", "update"),
				Check: func(*terraformState) error {
					if got := e.TopicConfig(name, "min.cleanable.dirty.ratio"); got != "0.4" {
						return fmt.Errorf("min.cleanable.dirty.ratio = %q after the next apply", got)
					}
					return nil
				},
			},
		},
	})
}

func TestTopicDeleteTimesOut(t *testing.T) {
	e := acctest.NewInProcess(t)
	name := e.Name("orders-action-state")
	var on atomic.Bool
	stall(e, kmsg.DeleteTopics, &on)
	testTopicDeleteTimeout(t, e, name, &on, "deleting action-state topic")
}

// TestTopicDeleteWaitTimesOut: the broker acknowledges the deletion but
// keeps listing the topic (as a broker does while it deletes in the
// background); the wait for it to go is bounded too.
func TestTopicDeleteWaitTimesOut(t *testing.T) {
	e := acctest.NewInProcess(t)
	name := e.Name("orders-action-state")
	var on atomic.Bool
	e.Cluster.ControlKey(int16(kmsg.DeleteTopics), func(req kmsg.Request) (kmsg.Response, error, bool) {
		e.Cluster.KeepControl()
		if !on.Load() {
			return nil, nil, false
		}
		del := req.(*kmsg.DeleteTopicsRequest)
		resp := del.ResponseKind().(*kmsg.DeleteTopicsResponse)
		resp.SetVersion(del.GetVersion())
		for _, rt := range del.Topics {
			topic := kmsg.NewDeleteTopicsResponseTopic()
			topic.Topic, topic.TopicID = rt.Topic, rt.TopicID
			resp.Topics = append(resp.Topics, topic)
		}
		for _, n := range del.TopicNames {
			topic := kmsg.NewDeleteTopicsResponseTopic()
			topic.Topic = kmsg.StringPtr(n)
			resp.Topics = append(resp.Topics, topic)
		}
		return resp, nil, true
	})
	testTopicDeleteTimeout(t, e, name, &on, "waiting for Kafka to finish deleting action-state topic")
}

// testTopicDeleteTimeout destroys name while on is set, expecting step to
// time out with the topic still there, then destroys it with on unset.
func testTopicDeleteTimeout(t *testing.T, e *acctest.Env, name string, on *atomic.Bool, step string) {
	config := timedOutTopicConfig(e, name, "0.3", "delete")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig:   func() { on.Store(true) },
				Config:      config,
				Destroy:     true,
				ExpectError: timeoutError("Action-State Topic Delete Timed Out", step, name, "delete"),
			},
			{
				PreConfig: func() {
					if _, err := e.Admin.DescribeTopic(context.Background(), name); err != nil {
						t.Fatalf("after the timed-out delete, describing %s: %v; want it still there", name, err)
					}
					on.Store(false)
				},
				Config: config,
			},
		},
		CheckDestroy: func(*terraformState) error {
			if _, err := e.Admin.DescribeTopic(context.Background(), name); !errors.Is(err, kafkaops.ErrTopicNotFound) {
				return fmt.Errorf("after destroy, describing %s: %v; want not found", name, err)
			}
			return nil
		},
	})
}
