package datasources_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
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
// whose control topic holds a committed boundary, and checks the YAML
// decodes (with Terraform's own yamldecode) to exactly the settings map.
func TestAccAgentConfigWithCleanup(t *testing.T) {
	e := acctest.New(t)
	data, control := e.Name("agents-orders-action-state"), e.Name("agents-orders-cleanup-control")
	recordBoundary(t, e, data, control)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config: e.Provider() + fmt.Sprintf(`
data "flinkagents_agent_config" "orders" {
  action_state_topic = %q
  control_topic      = %q
  partitions         = 12
  replication_factor = 3
  bootstrap_servers  = ["kafka-0.kafka:9092", "kafka-1.kafka:9092"]
}

output "round_trip" {
  value = tomap(yamldecode(data.flinkagents_agent_config.orders.yaml).agent) == data.flinkagents_agent_config.orders.settings
}
`, data, control),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.flinkagents_agent_config.orders", tfjsonpath.New("settings"), knownvalue.MapExact(map[string]knownvalue.Check{
					"actionStateStoreBackend":                knownvalue.StringExact("kafka"),
					"kafkaBootstrapServers":                  knownvalue.StringExact("kafka-0.kafka:9092,kafka-1.kafka:9092"),
					"kafkaActionStateTopic":                  knownvalue.StringExact(data),
					"kafkaActionStateTopicNumPartitions":     knownvalue.StringExact("12"),
					"kafkaActionStateTopicReplicationFactor": knownvalue.StringExact("3"),
					"kafkaActionStateTombstoneEnabled":       knownvalue.StringExact("false"),
					"kafkaActionStateCleanupControlTopic":    knownvalue.StringExact(control),
				})),
				statecheck.ExpectKnownValue("data.flinkagents_agent_config.orders", tfjsonpath.New("yaml"), knownvalue.StringExact(`agent:
  actionStateStoreBackend: "kafka"
  kafkaBootstrapServers: "kafka-0.kafka:9092,kafka-1.kafka:9092"
  kafkaActionStateTopic: "`+data+`"
  kafkaActionStateTopicNumPartitions: 12
  kafkaActionStateTopicReplicationFactor: 3
  kafkaActionStateTombstoneEnabled: false
  kafkaActionStateCleanupControlTopic: "`+control+`"
`)),
				statecheck.ExpectKnownValue("data.flinkagents_agent_config.orders", tfjsonpath.New("cleanup_enabled"), knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("round_trip", knownvalue.Bool(true)),
			},
		}},
	})
}

// TestAccAgentConfigControlTopicWithoutBoundary: a control topic that is
// missing, then empty, is left out of the rendered configuration, without a
// warning (a new operator is healthy; cleanup_enabled says so); once a
// boundary is committed it is rendered.
func TestAccAgentConfigControlTopicWithoutBoundary(t *testing.T) {
	e := acctest.New(t)
	data, control := e.Name("ac-action-state"), e.Name("ac-cleanup-control")
	w := e.Workdir()
	w.Write("main.tf", e.CLIProvider()+fmt.Sprintf(`
data "flinkagents_agent_config" "job" {
  action_state_topic = %q
  control_topic      = %q
}

output "settings" {
  value = data.flinkagents_agent_config.job.settings
}

output "cleanup_enabled" {
  value = data.flinkagents_agent_config.job.cleanup_enabled
}
`, data, control))
	w.Terraform("init")
	check := func(stage string, enabled bool) {
		t.Helper()
		if out := string(w.Terraform("apply", "-auto-approve", "-no-color")); strings.Contains(out, "Warning") {
			t.Errorf("%s: a warning:\n%s", stage, out)
		}
		var settings map[string]string
		w.Output("settings", &settings)
		var got bool
		w.Output("cleanup_enabled", &got)
		if _, named := settings["kafkaActionStateCleanupControlTopic"]; named != enabled || got != enabled {
			t.Errorf("%s: control topic rendered %v, cleanup_enabled %v; want both %v: %v", stage, named, got, enabled, settings)
		}
	}
	check("control topic missing", false)
	e.CreateTopic(control, 1, map[string]string{"cleanup.policy": "compact"})
	check("control topic empty", false)
	recordBoundary(t, e, data, control)
	check("boundary committed", true)
}

// recordBoundary creates the two topics (the control topic unless it
// exists) and commits a first boundary out of band.
func recordBoundary(t *testing.T, e *acctest.Env, data, control string) {
	t.Helper()
	ctx := context.Background()
	id := e.CreateTopic(data, 2, cleanup.DataTopicSettings)
	if _, err := e.Admin.DescribeTopic(ctx, control); err != nil {
		e.CreateTopic(control, 1, map[string]string{"cleanup.policy": "compact"})
	}
	p, err := cleanupplan.New("file:/checkpoints/chk-1", data, id, cleanupplan.Offsets{0: 0, 1: 0})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cleanup.Apply(ctx, e.Admin, cleanup.Request{Plan: p, ControlTopic: control}); err != nil {
		t.Fatal(err)
	}
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
