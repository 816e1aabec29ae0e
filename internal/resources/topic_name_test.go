package resources_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// longName is one character longer than Kafka allows.
var longName = strings.Repeat("x", 250)

// TestAccTopicNamesKafkaRefuses: every resource attribute that names a
// topic refuses what Kafka refuses ("." and ".." included) at validate
// time, and the apply creates nothing.
func TestAccTopicNamesKafkaRefuses(t *testing.T) {
	e := acctest.New(t)
	for name, tc := range map[string]struct{ body, want, env string }{
		"action-state topic named .": {`
resource "flinkagents_action_state_topic" "x" {
  name = "."
}`, `(?s)Invalid Kafka Topic Name.*name.*"\." is refused by Kafka`, ""},
		"control topic named ..": {`
resource "flinkagents_cleanup_control_topic" "x" {
  name = ".."
}`, `(?s)Invalid Kafka Topic Name.*name.*"\.\." is refused by Kafka`, ""},
		"control topic serving a topic with a space": {`
resource "flinkagents_cleanup_control_topic" "x" {
  name               = "orders-control"
  action_state_topic = "orders state"
}`, `(?s)Invalid Kafka Topic Name.*action_state_topic.*' ' at byte 6`, ""},
		"boundary on control topic ..": {`
resource "flinkagents_cleanup_boundary" "x" {
  control_topic = ".."
}`, `(?s)Invalid Kafka Topic Name.*control_topic.*"\.\." is refused by Kafka`, ""},
		"boundary for action-state topic .": {`
resource "flinkagents_cleanup_boundary" "x" {
  control_topic      = "orders-control"
  action_state_topic = "."
}`, `(?s)Invalid Kafka Topic Name.*action_state_topic.*"\." is refused by Kafka`, ""},
		"action-state topic named __consumer_offsets": {body: `
resource "flinkagents_action_state_topic" "x" {
  name = "__consumer_offsets"
}`, want: `(?s)Invalid Kafka Topic Name.*name.*one of Kafka's internal topics`},
		// The provider reads no topic name from the environment itself; a
		// name from the environment reaches it as a Terraform variable, and
		// meets the same validator.
		"control topic named by TF_VAR_control": {body: `
variable "control" {
  type = string
}
resource "flinkagents_cleanup_control_topic" "x" {
  name = var.control
}`, env: "a b", want: `(?s)Invalid Kafka Topic Name.*name.*' ' at byte 1`},
		"action-state topic of 250 characters": {`
resource "flinkagents_action_state_topic" "x" {
  name = "` + longName + `"
}`, `(?s)Invalid Kafka Topic Name.*250 characters long`, ""},
	} {
		t.Run(name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("TF_VAR_control", tc.env)
			}
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.Factories,
				Steps:                    []resource.TestStep{{Config: e.Provider() + tc.body, ExpectError: regexp.MustCompile(tc.want)}},
			})
			cl, err := kgo.NewClient(e.ClientOpts()...)
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			topics, err := kadm.NewClient(cl).ListTopics(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, bad := range []string{".", "..", "orders state", "orders-control", longName, "a b"} {
				if topics.Has(bad) {
					t.Errorf("topic %q was created", bad)
				}
			}
		})
	}
}
