package resources_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	providerschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// Moving from the Mongey/kafka provider (moved blocks, Terraform 1.8+) runs
// through the real CLI: terraform-plugin-testing cannot hold a state
// written by another provider. Terraform refuses a state whose provider is
// not installed ("This state requires provider registry.terraform.io/
// mongey/kafka"), even though MoveResourceState only needs ours, so a
// stand-in with Mongey's kafka_topic schema is served beside ours; it
// records every call, and a move must make none to its resource.

// mongeyStandIn is the Mongey provider as far as Terraform sees it during a
// move: its address, its kafka_topic schema (version 0), no behaviour.
type mongeyStandIn struct {
	mu    sync.Mutex
	calls []string
}

func (m *mongeyStandIn) record(call string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = append(m.calls, call)
}

func (m *mongeyStandIn) calledFor() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.calls)
}

type standInProvider struct{ m *mongeyStandIn }

func (p standInProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "kafka"
}

func (p standInProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = providerschema.Schema{Attributes: map[string]providerschema.Attribute{
		"bootstrap_servers": providerschema.ListAttribute{Optional: true, ElementType: types.StringType},
	}}
}

func (p standInProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
	p.m.record("configure provider")
}

func (p standInProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return standInTopic(p) }}
}

func (p standInProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

type standInTopic struct{ m *mongeyStandIn }

func (r standInTopic) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_topic"
}

func (r standInTopic) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":                 schema.StringAttribute{Computed: true},
		"name":               schema.StringAttribute{Required: true},
		"partitions":         schema.Int64Attribute{Required: true},
		"replication_factor": schema.Int64Attribute{Required: true},
		"config":             schema.MapAttribute{Optional: true, ElementType: types.StringType},
	}}
}

func (r standInTopic) Create(_ context.Context, _ resource.CreateRequest, resp *resource.CreateResponse) {
	r.m.record("create")
	resp.Diagnostics.AddError("Stand-In", "the Mongey stand-in manages no topic")
}

func (r standInTopic) Read(_ context.Context, _ resource.ReadRequest, resp *resource.ReadResponse) {
	r.m.record("read")
	resp.Diagnostics.AddError("Stand-In", "the Mongey stand-in manages no topic")
}

func (r standInTopic) Update(_ context.Context, _ resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.m.record("update")
	resp.Diagnostics.AddError("Stand-In", "the Mongey stand-in manages no topic")
}

func (r standInTopic) Delete(_ context.Context, _ resource.DeleteRequest, resp *resource.DeleteResponse) {
	r.m.record("delete")
	resp.Diagnostics.AddError("Stand-In", "the Mongey stand-in manages no topic")
}

// mongeyTopic is one kafka_topic instance as the Mongey provider (SDKv2,
// schema version 0) writes it into terraform.tfstate.
type mongeyTopic struct {
	name              string
	partitions, rf    int
	config            map[string]string
	resourceName      string
	providerQualifier string // the state's provider address host
}

func (mt mongeyTopic) resource() map[string]any {
	return map[string]any{
		"mode": "managed", "type": "kafka_topic", "name": mt.resourceName,
		"provider": fmt.Sprintf("provider[%q]", mt.providerQualifier+"/mongey/kafka"),
		"instances": []any{map[string]any{
			"schema_version": 0,
			"attributes": map[string]any{
				"config": mt.config, "id": mt.name, "name": mt.name, "partitions": mt.partitions, "replication_factor": mt.rf,
			},
			"sensitive_attributes": []any{},
			"private":              "eyJzY2hlbWFfdmVyc2lvbiI6IjAifQ==", // {"schema_version":"0"}, as SDKv2 writes it
		}},
	}
}

// mongeyState is a terraform.tfstate holding topics, as a Terraform run of
// the Mongey provider leaves it.
func mongeyState(t *testing.T, topics ...mongeyTopic) string {
	t.Helper()
	resources := make([]any, len(topics))
	for i, mt := range topics {
		resources[i] = mt.resource()
	}
	b, err := json.MarshalIndent(map[string]any{
		"version": 4, "terraform_version": "1.7.5", "serial": 7, "lineage": "3f0c9a52-5d8e-4f5e-a1b2-7c6d9e0f1a2b",
		"outputs": map[string]any{}, "resources": resources, "check_results": nil,
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// moveWorkdir is a working directory holding the Mongey state, with the
// stand-in served beside our provider.
func moveWorkdir(t *testing.T, e *acctest.Env, topics ...mongeyTopic) (*acctest.Workdir, *mongeyStandIn) {
	standIn := &mongeyStandIn{}
	w := e.Workdir()
	w.Serve(acctest.RegistryHost()+"/mongey/kafka", providerserver.NewProtocol6(standInProvider{standIn}))
	for i := range topics {
		topics[i].providerQualifier = acctest.RegistryHost()
	}
	w.Write("terraform.tfstate", mongeyState(t, topics...))
	return w, standIn
}

// movedConfig is the configuration after the migration: the kafka_topic
// blocks replaced by ours, a moved block each. Neither the Mongey provider
// block nor its required_providers entry is needed: the state names the
// provider, so terraform init installs it (here: serves the stand-in).
func movedConfig(e *acctest.Env, body string) string {
	return "terraform {\n  required_providers {\n    flinkagents = { source = \"actionstate/flinkagents\" }\n  }\n}\n" + e.Provider() + body
}

type plannedChange struct {
	Address         string `json:"address"`
	PreviousAddress string `json:"previous_address"`
	Change          struct {
		Actions []string       `json:"actions"`
		After   map[string]any `json:"after"`
	} `json:"change"`
}

func showPlan(t *testing.T, w *acctest.Workdir) map[string]plannedChange {
	t.Helper()
	var plan struct {
		ResourceChanges []plannedChange `json:"resource_changes"`
	}
	if err := json.Unmarshal(w.Terraform("show", "-json", "tfplan"), &plan); err != nil {
		t.Fatal(err)
	}
	out := map[string]plannedChange{}
	for _, rc := range plan.ResourceChanges {
		out[rc.Address] = rc
	}
	return out
}

// A kafka_topic of the Mongey provider becomes a flinkagents_action_state_topic
// and another a flinkagents_cleanup_control_topic, by moved blocks: same
// topics (IDs), every record still there, the enforced settings applied in
// place, the other settings kept.
func TestTopicsMovedFromMongeyProvider(t *testing.T) {
	acctest.SkipBelowCLI(t, 1, 8, "moving state between resource types of different providers")
	e := acctest.New(t)
	data, control := e.Name("orders-agent-action-state"), e.Name("orders-agent-cleanup-control")
	// As the Mongey provider created them (for a job using tombstones).
	dataID := e.CreateTopic(data, 4, map[string]string{"cleanup.policy": "compact", "segment.ms": "3600000", "retention.ms": "604800000"})
	controlID := e.CreateTopic(control, 1, map[string]string{"cleanup.policy": "compact", "min.compaction.lag.ms": "60000"})
	e.Produce(data, 4, 20)

	w, standIn := moveWorkdir(t, e,
		mongeyTopic{resourceName: "orders", name: data, partitions: 4, rf: 1,
			config: map[string]string{"cleanup.policy": "compact", "segment.ms": "3600000", "retention.ms": "604800000"}},
		mongeyTopic{resourceName: "orders_control", name: control, partitions: 1, rf: 1,
			config: map[string]string{"cleanup.policy": "compact", "min.compaction.lag.ms": "60000"}})
	body := fmt.Sprintf(`
moved {
  from = kafka_topic.orders
  to   = flinkagents_action_state_topic.orders
}

moved {
  from = kafka_topic.orders_control
  to   = flinkagents_cleanup_control_topic.orders
}

resource "flinkagents_action_state_topic" "orders" {
  name       = %q
  partitions = 4
  config = {
    "segment.ms" = "3600000"
  }
}

resource "flinkagents_cleanup_control_topic" "orders" {
  name               = %q
  action_state_topic = flinkagents_action_state_topic.orders.name
  config = {
    "min.compaction.lag.ms" = "60000"
  }
}
`, data, control)
	w.Write("main.tf", movedConfig(e, body))
	w.Terraform("init")
	out := w.Terraform("plan", "-out=tfplan")
	for _, want := range []string{"Moved Topic Settings Now Enforced", "cleanup.policy=compact (", "retention.ms=604800000 ("} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the plan does not say %q:\n%s", want, out)
		}
	}
	changes := showPlan(t, w)
	for addr, from := range map[string]string{"flinkagents_action_state_topic.orders": "kafka_topic.orders", "flinkagents_cleanup_control_topic.orders": "kafka_topic.orders_control"} {
		rc, ok := changes[addr]
		if !ok || rc.PreviousAddress != from {
			t.Fatalf("%s: planned %+v, want it moved from %s\n%s", addr, rc, from, out)
		}
		// Data topic: the enforced policy and retention, in place. Control
		// topic: its policy is already compact and action_state_topic is
		// new in configuration, so it is updated in place too.
		if !slices.Equal(rc.Change.Actions, []string{"update"}) {
			t.Errorf("%s: actions %v, want an in-place update\n%s", addr, rc.Change.Actions, out)
		}
		if rc.Change.After["deletion_protection"] != true {
			t.Errorf("%s: deletion_protection %v after the move, want true", addr, rc.Change.After["deletion_protection"])
		}
	}
	if after := changes["flinkagents_action_state_topic.orders"].Change.After; after["topic_id"] != dataID || after["cleanup_policy"] != "compact,delete" {
		t.Errorf("the moved data topic plans topic_id %v and cleanup_policy %v, want %s and compact,delete", after["topic_id"], after["cleanup_policy"], dataID)
	}
	w.Terraform("apply", "tfplan")

	for k, want := range map[string]string{"cleanup.policy": "compact,delete", "retention.ms": "-1", "retention.bytes": "-1", "segment.ms": "3600000"} {
		if got := e.TopicConfig(data, k); got != want {
			t.Errorf("after the move %s has %s=%q, want %q", data, k, got, want)
		}
	}
	if got := e.TopicConfig(control, "min.compaction.lag.ms"); got != "60000" {
		t.Errorf("after the move %s has min.compaction.lag.ms=%q, want 60000", control, got)
	}
	assertSameTopic(t, e, data, dataID, 20)
	assertSameTopic(t, e, control, controlID, 0)

	// Converged; the state no longer names the Mongey provider.
	w.Terraform("plan", "-detailed-exitcode")
	if strings.Contains(string(w.Terraform("providers")), "mongey/kafka") {
		t.Error("the state still requires the Mongey provider after the move")
	}
	// Terraform reads the stand-in's schema, nothing else: the topics were
	// never touched through it.
	if calls := standIn.calledFor(); len(calls) > 0 {
		t.Errorf("Terraform called the source provider during the move: %v", calls)
	}
}

// assertSameTopic checks a topic kept its ID and every record: it starts
// at 0 and ends where the records written before the move end.
func assertSameTopic(t *testing.T, e *acctest.Env, name, id string, records int64) {
	t.Helper()
	d, err := e.Admin.DescribeTopic(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	if d.ID.String() != id {
		t.Errorf("%s has topic ID %s after the move, want %s: it was recreated", name, d.ID, id)
	}
	ends, err := e.Admin.EndOffsets(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	for p, start := range e.StartOffsets(name) {
		if start != 0 || ends[p] != records {
			t.Errorf("%s partition %d holds [%d, %d) after the move, want [0, %d)", name, p, start, ends[p], records)
		}
	}
}

// A Mongey topic with several partitions cannot become a control topic: the
// move is refused at plan time, and nothing changes.
func TestMovedFromMongeyRefusesAPartitionedControlTopic(t *testing.T) {
	acctest.SkipBelowCLI(t, 1, 8, "moving state between resource types of different providers")
	e := acctest.New(t)
	name := e.Name("orders-agent-cleanup-control")
	e.CreateTopic(name, 3, map[string]string{"cleanup.policy": "compact"})
	w, _ := moveWorkdir(t, e, mongeyTopic{resourceName: "control", name: name, partitions: 3, rf: 1, config: map[string]string{"cleanup.policy": "compact"}})
	w.Write("main.tf", movedConfig(e, fmt.Sprintf(`
moved {
  from = kafka_topic.control
  to   = flinkagents_cleanup_control_topic.orders
}

resource "flinkagents_cleanup_control_topic" "orders" {
  name = %q
}
`, name)))
	w.Terraform("init")
	out, err := w.TerraformErr("plan")
	if err == nil || !regexp.MustCompile(`(?s)Control Topic Has Several Partitions.*moving\s+topic\s+"`+regexp.QuoteMeta(name)+`"\s+into\s+flinkagents_cleanup_control_topic:\s+it\s+has\s+3\s+partitions`).MatchString(err.Error()) {
		t.Fatalf("moving a 3-partition topic into a control topic: %v\n%s", err, out)
	}
}
