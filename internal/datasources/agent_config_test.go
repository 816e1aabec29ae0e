package datasources_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// unreachableProvider names a port nothing listens on: the data source must
// render without ever dialing it.
const unreachableProvider = `
provider "flinkagents" {
  bootstrap_servers = ["127.0.0.1:1", "127.0.0.1:2"]
  timeout           = "1s"
}
`

// TestAccAgentConfigWithCleanup renders the configuration of an operator
// with checkpoint-aligned cleanup, and checks the YAML decodes (with
// Terraform's own yamldecode) to exactly the settings map.
func TestAccAgentConfigWithCleanup(t *testing.T) {
	acctest.New(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config: unreachableProvider + `
data "flinkagents_agent_config" "orders" {
  action_state_topic = "agents-orders-action-state"
  control_topic      = "agents-orders-cleanup-control"
  partitions         = 12
  replication_factor = 3
  bootstrap_servers  = ["kafka-0.kafka:9092", "kafka-1.kafka:9092"]
}

output "round_trip" {
  value = tomap(yamldecode(data.flinkagents_agent_config.orders.yaml).agent) == data.flinkagents_agent_config.orders.settings
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.flinkagents_agent_config.orders", tfjsonpath.New("settings"), knownvalue.MapExact(map[string]knownvalue.Check{
					"actionStateStoreBackend":                knownvalue.StringExact("kafka"),
					"kafkaBootstrapServers":                  knownvalue.StringExact("kafka-0.kafka:9092,kafka-1.kafka:9092"),
					"kafkaActionStateTopic":                  knownvalue.StringExact("agents-orders-action-state"),
					"kafkaActionStateTopicNumPartitions":     knownvalue.StringExact("12"),
					"kafkaActionStateTopicReplicationFactor": knownvalue.StringExact("3"),
					"kafkaActionStateTombstoneEnabled":       knownvalue.StringExact("false"),
					"kafkaActionStateCleanupControlTopic":    knownvalue.StringExact("agents-orders-cleanup-control"),
				})),
				statecheck.ExpectKnownValue("data.flinkagents_agent_config.orders", tfjsonpath.New("yaml"), knownvalue.StringExact(`agent:
  actionStateStoreBackend: "kafka"
  kafkaBootstrapServers: "kafka-0.kafka:9092,kafka-1.kafka:9092"
  kafkaActionStateTopic: "agents-orders-action-state"
  kafkaActionStateTopicNumPartitions: 12
  kafkaActionStateTopicReplicationFactor: 3
  kafkaActionStateTombstoneEnabled: false
  kafkaActionStateCleanupControlTopic: "agents-orders-cleanup-control"
`)),
				statecheck.ExpectKnownOutputValue("round_trip", knownvalue.Bool(true)),
			},
		}},
	})
}

// TestAccAgentConfigDefaults renders with every optional attribute omitted:
// the provider's bootstrap servers and the runtime's defaults, no cleanup.
func TestAccAgentConfigDefaults(t *testing.T) {
	acctest.New(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config: unreachableProvider + `
data "flinkagents_agent_config" "plain" {
  action_state_topic = "true"
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.flinkagents_agent_config.plain", tfjsonpath.New("bootstrap_servers"),
					knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("127.0.0.1:1"), knownvalue.StringExact("127.0.0.1:2")})),
				statecheck.ExpectKnownValue("data.flinkagents_agent_config.plain", tfjsonpath.New("partitions"), knownvalue.Int64Exact(64)),
				statecheck.ExpectKnownValue("data.flinkagents_agent_config.plain", tfjsonpath.New("replication_factor"), knownvalue.Int64Exact(1)),
				statecheck.ExpectKnownValue("data.flinkagents_agent_config.plain", tfjsonpath.New("tombstones_enabled"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue("data.flinkagents_agent_config.plain", tfjsonpath.New("settings"), knownvalue.MapSizeExact(6)),
				// A topic named "true" stays a string in YAML.
				statecheck.ExpectKnownValue("data.flinkagents_agent_config.plain", tfjsonpath.New("yaml"), knownvalue.StringExact(`agent:
  actionStateStoreBackend: "kafka"
  kafkaBootstrapServers: "127.0.0.1:1,127.0.0.1:2"
  kafkaActionStateTopic: "true"
  kafkaActionStateTopicNumPartitions: 64
  kafkaActionStateTopicReplicationFactor: 1
  kafkaActionStateTombstoneEnabled: false
`)),
			},
		}},
	})
}

// TestAccAgentConfigRefusals: the combinations the runtime refuses at job
// start are refused before anything is rendered.
func TestAccAgentConfigRefusals(t *testing.T) {
	acctest.New(t)
	for name, tc := range map[string]struct{ body, want string }{
		"tombstones with cleanup": {`
  action_state_topic = "a-action-state"
  control_topic      = "a-cleanup-control"
  tombstones_enabled = true
`, `Tombstones Conflict With Cleanup`},
		"control topic is the action-state topic": {`
  action_state_topic = "a-action-state"
  control_topic      = "a-action-state"
`, `Control Topic Equals Action-State Topic`},
		"invalid topic name": {`
  action_state_topic = "a action state"
`, `(?s)Invalid Kafka Topic Name.*' ' at byte 1`},
		"topic named ..": {`
  action_state_topic = "a"
  control_topic      = ".."
`, `(?s)Invalid Kafka Topic Name.*control_topic.*"\.\." is refused by Kafka`},
		"server with a comma": {`
  action_state_topic = "a"
  bootstrap_servers  = ["a:1,b:2"]
`, `must be one host:port`},
	} {
		t.Run(name, func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.Factories,
				Steps: []resource.TestStep{{
					Config:      unreachableProvider + "data \"flinkagents_agent_config\" \"x\" {" + tc.body + "}\n",
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(tc.want),
				}},
			})
		})
	}
}

// TestAccAgentConfigNoServers: with no bootstrap servers anywhere, there is
// nothing to render kafkaBootstrapServers from.
func TestAccAgentConfigNoServers(t *testing.T) {
	acctest.New(t)
	t.Setenv("KAFKA_BOOTSTRAP_SERVERS", "")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config:      `data "flinkagents_agent_config" "x" { action_state_topic = "a" }`,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`No Bootstrap Servers To Render`),
		}},
	})
}
