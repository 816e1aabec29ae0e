package resources

import (
	"context"
	"fmt"
	"maps"

	fwdiag "github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diag"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
)

// topicKind holds what differs between the two topic resources; the CRUD
// mechanics they share are its methods.
type topicKind struct {
	label        string            // "action-state topic", for messages
	resourceType string            // for the import hint
	enforced     map[string]string // set on create and on every update
	goneDetail   string            // why a vanished topic matters (%q: name)
}

// create creates the topic with the user's config plus the enforced keys.
func (k topicKind) create(ctx context.Context, clients *providerdata.Clients, name string, partitions int32, rf int16, userCfg types.Map) (*kafkaops.Client, string, fwdiag.Diagnostics) {
	op := fmt.Sprintf("creating %s %q", k.label, name)
	kafka, diags := clients.KafkaClient(ctx, op)
	cfg, d := configFromMap(ctx, userCfg)
	diags.Append(d...)
	if diags.HasError() {
		return nil, op, diags
	}
	maps.Copy(cfg, k.enforced)
	if _, err := kafka.CreateTopic(ctx, name, partitions, rf, cfg); err != nil {
		diags.Append(diag.TopicCreateFailed(op, k.resourceType, name, err, clients.Connection()))
	}
	return kafka, op, diags
}

// alter sets the managed and enforced keys and removes overrides of keys
// dropped from config, incrementally.
func (k topicKind) alter(ctx context.Context, clients *providerdata.Clients, name string, oldMap, newMap types.Map) (*kafkaops.Client, string, fwdiag.Diagnostics) {
	op := fmt.Sprintf("updating the settings of %s %q", k.label, name)
	kafka, diags := clients.KafkaClient(ctx, op)
	oldCfg, d1 := configFromMap(ctx, oldMap)
	newCfg, d2 := configFromMap(ctx, newMap)
	diags.Append(d1...)
	diags.Append(d2...)
	if diags.HasError() {
		return nil, op, diags
	}
	set, remove := configChanges(oldCfg, newCfg)
	maps.Copy(set, k.enforced)
	if err := kafka.AlterTopicConfigs(ctx, name, set, remove); err != nil {
		diags.Append(clients.KafkaDiag(op, err))
	}
	return kafka, op, diags
}

// refresh runs read against the live topic; a vanished topic is removed
// from state with a warning, so the next plan proposes creating it.
func (k topicKind) refresh(ctx context.Context, clients *providerdata.Clients, name string, resp *resource.ReadResponse,
	read func(*kafkaops.Client, string) (gone bool, diags fwdiag.Diagnostics)) (ok bool) {
	op := fmt.Sprintf("reading %s %q", k.label, name)
	kafka, diags := clients.KafkaClient(ctx, op)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return false
	}
	gone, diags := read(kafka, op)
	if gone {
		resp.Diagnostics.AddWarning(fmt.Sprintf("%s Missing", titleCase(k.label)), fmt.Sprintf(k.goneDetail, name))
		resp.State.RemoveResource(ctx)
		return false
	}
	resp.Diagnostics.Append(diags...)
	return !resp.Diagnostics.HasError()
}

// delete deletes the topic unless protected. ModifyPlan refuses a protected
// destroy already; this checks again because state can be destroyed by
// paths that skip our plan (a -target, a stale plan file).
func (k topicKind) delete(ctx context.Context, clients *providerdata.Clients, name string, protected bool) fwdiag.Diagnostics {
	if protected {
		return fwdiag.Diagnostics{diag.DeletionProtected(k.label, name)}
	}
	op := fmt.Sprintf("deleting %s %q", k.label, name)
	kafka, diags := clients.KafkaClient(ctx, op)
	if diags.HasError() {
		return diags
	}
	if err := kafka.DeleteTopic(ctx, name); err != nil {
		diags.Append(clients.KafkaDiag(op, err))
	}
	return diags
}

// refuseDestroyOrRename stops a plan that destroys, or renames (replaces),
// a protected topic.
func (k topicKind) refuseDestroyOrRename(diags *fwdiag.Diagnostics, stateName types.String, protected types.Bool, planned *types.String) {
	if !protected.ValueBool() {
		return
	}
	if planned == nil || (!planned.IsUnknown() && planned.ValueString() != stateName.ValueString()) {
		diags.Append(diag.DeletionProtected(k.label, stateName.ValueString()))
	}
}

// importTopicByName adopts a topic by name, protected until the operator
// says otherwise, managing no extra config keys.
func importTopicByName(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("deletion_protection"), true)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("config"), types.MapNull(types.StringType))...)
}

func titleCase(s string) string {
	out := []byte(s)
	up := true
	for i, c := range out {
		if up && c >= 'a' && c <= 'z' {
			out[i] = c - 'a' + 'A'
		}
		up = c == ' ' || c == '-'
	}
	return string(out)
}
