package resources

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
)

// refusedNames are names the topic-name rule refuses, one per reason.
var refusedNames = []string{".", "..", "a b", "__consumer_offsets", "__transaction_state"}

// importKafka is an embedded broker holding an action-state topic
// "orders" and a control topic "ctl" that records one APPLIED plan, and
// the Clients a configured resource would get.
func importKafka(t *testing.T) *providerdata.Clients {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	connect := func(context.Context) (*kafkaops.Client, error) {
		return kafkaops.New(kafkaops.Config{Brokers: c.ListenAddrs(), Timeout: 10 * time.Second})
	}
	ctx := context.Background()
	k, err := connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	data, err := k.CreateTopic(ctx, "orders", 1, 1, cleanup.DataTopicSettings)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.CreateTopic(ctx, "ctl", 1, 1, map[string]string{cleanup.ConfigCleanupPolicy: "compact"}); err != nil {
		t.Fatal(err)
	}
	plan, err := cleanupplan.New("s3://ckpt/chk-1", "orders", data.Topic.ID.String(), cleanupplan.Offsets{0: 0})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cleanup.Apply(ctx, k, cleanup.Request{Plan: plan, ControlTopic: "ctl"}); err != nil {
		t.Fatal(err)
	}
	clients := providerdata.New(c.ListenAddrs(), connect)
	t.Cleanup(clients.Close)
	return clients
}

// importInto runs r's ImportState with id, into an empty state of r's
// schema.
func importInto(t *testing.T, r resource.Resource, id string) *resource.ImportStateResponse {
	t.Helper()
	ctx := context.Background()
	var s resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &s)
	resp := &resource.ImportStateResponse{State: tfsdk.State{Schema: s.Schema, Raw: tftypes.NewValue(s.Schema.Type().TerraformType(ctx), nil)}}
	r.(resource.ResourceWithImportState).ImportState(ctx, resource.ImportStateRequest{ID: id}, resp)
	return resp
}

// assertRefused checks that diags is one error with summary whose detail
// mentions want, and that nothing was imported.
func assertRefused(t *testing.T, resp *resource.ImportStateResponse, summary, want string) {
	t.Helper()
	assertOneError(t, resp.Diagnostics, summary, want)
	if !resp.State.Raw.IsNull() {
		t.Errorf("imported anyway: %v", resp.State.Raw)
	}
}

func assertOneError(t *testing.T, diags diag.Diagnostics, summary, want string) {
	t.Helper()
	errs := diags.Errors()
	if len(errs) != 1 || errs[0].Summary() != summary || !strings.Contains(errs[0].Detail(), want) {
		t.Fatalf("diagnostics %v; want one %q error mentioning %q", diags, summary, want)
	}
}

// TestImportRefusesTopicNamesTheRuleRefuses: an import ID never passes a
// schema validator, so each import checks the name itself, before any
// request to Kafka.
func TestImportRefusesTopicNamesTheRuleRefuses(t *testing.T) {
	clients := importKafka(t)
	for _, name := range refusedNames {
		for kind, r := range map[string]resource.Resource{
			"action-state topic": &topicResource[actionStateTopicModel]{spec: &actionStateTopicSpec, clients: clients},
			"control topic":      &topicResource[controlTopicModel]{spec: &controlTopicSpec, clients: clients},
			"boundary":           &boundaryResource{clients: clients},
			"boundaries":         &boundariesResource{clients: clients},
		} {
			t.Run(kind+"/"+name, func(t *testing.T) {
				id := name
				if kind == "boundaries" {
					id = "orders=" + name
				}
				resp := importInto(t, r, id)
				summary := "Invalid Kafka Topic Name"
				if kind == "boundaries" {
					summary = "Invalid Import ID"
				}
				assertRefused(t, resp, summary, name)
			})
		}
	}
}

// TestMoveFromMongeyTopicRefusesTopicNamesTheRuleRefuses: the Mongey
// provider never checked names the way Kafka does; a moved state naming
// such a topic is refused instead of reaching Kafka.
func TestMoveFromMongeyTopicRefusesTopicNamesTheRuleRefuses(t *testing.T) {
	ctx := context.Background()
	for _, name := range refusedNames {
		resp := moveMongeyTopic(ctx, tftypes.NewValue(tftypes.String, name), tftypes.NewValue(tftypes.String, name))
		assertOneError(t, resp.Diagnostics, "Invalid Kafka Topic Name", name)
		if !resp.TargetState.Raw.IsNull() {
			t.Errorf("%q: moved anyway: %v", name, resp.TargetState.Raw)
		}
	}
}

// TestBoundariesImportIDIsReadPrecisely: spaces around keys and names are
// ignored; a key or a control topic given twice is refused naming both.
func TestBoundariesImportIDIsReadPrecisely(t *testing.T) {
	clients := importKafka(t)
	r := &boundariesResource{clients: clients}
	resp := importInto(t, r, " e0 = ctl ")
	if resp.Diagnostics.HasError() {
		t.Fatalf("import of \" e0 = ctl \": %v", resp.Diagnostics)
	}
	var m boundariesModel
	resp.Diagnostics.Append(resp.State.Get(context.Background(), &m)...)
	entries := map[string]boundaryEntry{}
	resp.Diagnostics.Append(m.Boundaries.ElementsAs(context.Background(), &entries, false)...)
	if _, ok := entries["e0"]; !ok || len(entries) != 1 || entries["e0"].ControlTopic.ValueString() != "ctl" {
		t.Fatalf("entries %v (%v); want one entry e0 on control topic ctl", entries, resp.Diagnostics)
	}
	for id, want := range map[string]string{
		"e0=ctl,e1=ctl":   `control topic "ctl" is given for keys "e0" and "e1"`,
		"e0=ctl, e1 =ctl": `control topic "ctl" is given for keys "e0" and "e1"`,
		"e0=ctl,e0=other": `key "e0" is given twice`,
		"e0=ctl,e1":       `pair 2, "e1", has no "="`,
		" =ctl":           `pair 1, " =ctl", has no key`,
		"e0= ":            `pair 1, "e0= ", names no control topic`,
	} {
		assertRefused(t, importInto(t, r, id), "Invalid Import ID", want)
	}
}

// TestImportOfAMissingControlTopicSaysItIsMissing: importing a boundary
// from a control topic Kafka does not list says so, as importing the
// topic itself does, instead of "Control Topic Misconfigured".
func TestImportOfAMissingControlTopicSaysItIsMissing(t *testing.T) {
	clients := importKafka(t)
	for kind, c := range map[string]struct {
		r  resource.Resource
		id string
	}{
		"boundary":   {&boundaryResource{clients: clients}, "no-such-control"},
		"boundaries": {&boundariesResource{clients: clients}, "e0=no-such-control"},
	} {
		t.Run(kind, func(t *testing.T) {
			resp := importInto(t, c.r, c.id)
			errs := resp.Diagnostics.Errors()
			if len(errs) != 1 || !strings.HasSuffix(errs[0].Summary(), "Cleanup Control Topic Not Found") || !strings.Contains(errs[0].Detail(), `"no-such-control"`) {
				t.Fatalf("diagnostics %v; want one \"Cleanup Control Topic Not Found\" naming the topic", resp.Diagnostics)
			}
		})
	}
}
