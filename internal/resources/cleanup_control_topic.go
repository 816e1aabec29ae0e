package resources

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	fwdiag "github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
)

var (
	_ resource.Resource                   = (*controlTopicResource)(nil)
	_ resource.ResourceWithConfigure      = (*controlTopicResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*controlTopicResource)(nil)
	_ resource.ResourceWithImportState    = (*controlTopicResource)(nil)
	_ resource.ResourceWithValidateConfig = (*controlTopicResource)(nil)
)

// NewCleanupControlTopic is the flinkagents_cleanup_control_topic resource.
func NewCleanupControlTopic() resource.Resource { return &controlTopicResource{} }

type controlTopicResource struct {
	clients *providerdata.Clients
}

type controlTopicModel struct {
	ID                 types.String `tfsdk:"id"`
	Name               types.String `tfsdk:"name"`
	ReplicationFactor  types.Int64  `tfsdk:"replication_factor"`
	Config             types.Map    `tfsdk:"config"`
	DeletionProtection types.Bool   `tfsdk:"deletion_protection"`
	ActionStateTopic   types.String `tfsdk:"action_state_topic"`
	TopicID            types.String `tfsdk:"topic_id"`
	CleanupPolicy      types.String `tfsdk:"cleanup_policy"`
}

const controlPolicy = "compact"

var controlTopicKind = topicKind{
	label:        "cleanup control topic",
	resourceType: "flinkagents_cleanup_control_topic",
	enforced:     map[string]string{cleanup.ConfigCleanupPolicy: controlPolicy},
	goneDetail: "Topic %q no longer exists, so Terraform will plan to create it again. Its recorded boundaries are lost: " +
		"a job configured with this control topic refuses to restore until a boundary is recorded again.",
}

// controlReservedKeys: anything that could let the broker delete a
// recorded boundary.
var controlReservedKeys = map[string]string{
	cleanup.ConfigCleanupPolicy:  "a control topic must keep cleanup.policy=compact exactly; \"delete\" would let retention remove recorded boundaries.",
	cleanup.ConfigRetentionMs:    "retention settings could delete recorded boundaries; the control topic is compacted only.",
	cleanup.ConfigRetentionBytes: "retention settings could delete recorded boundaries; the control topic is compacted only.",
	"local.retention.ms":         "retention settings could delete recorded boundaries; the control topic is compacted only.",
	"local.retention.bytes":      "retention settings could delete recorded boundaries; the control topic is compacted only.",
}

func (r *controlTopicResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cleanup_control_topic"
}

func (r *controlTopicResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The dedicated control topic where cleanup boundaries are recorded (the job's `kafkaActionStateCleanupControlTopic`). " +
			"Always exactly one partition and `cleanup.policy=compact`, so that every reader sees one order of boundaries and no retention can remove one.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "The topic name.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required: true, MarkdownDescription: "Topic name.",
				Validators:    []validator.String{stringvalidator.LengthBetween(1, 249)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"replication_factor": schema.Int64Attribute{
				Optional: true, Computed: true, Default: int64default.StaticInt64(1),
				MarkdownDescription: "Replication factor (default 1). Use 3 in production: a lost control topic blocks every restore. Cannot change after creation.",
				Validators:          []validator.Int64{int64validator.Between(1, 32767)},
			},
			"config": schema.MapAttribute{
				Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Extra topic settings (for example `min.insync.replicas`). Settings that add deletion or retention are refused.",
				Validators:          []validator.Map{reservedKeysValidator{reserved: controlReservedKeys}},
			},
			"deletion_protection": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(true),
				MarkdownDescription: "While true (the default), destroying or replacing this topic is refused at plan time: it holds the permanent record of cleanup boundaries.",
			},
			"action_state_topic": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "The action-state topic this control topic serves; must differ from `name`. Documents the pairing and catches swapped names at validation.",
			},
			"topic_id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "Kafka's topic ID in its Java form.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"cleanup_policy": schema.StringAttribute{Computed: true, MarkdownDescription: "Live `cleanup.policy`; always planned as `compact`."},
		},
	}
}

func (r *controlTopicResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
}

func (r *controlTopicResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m controlTopicModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.Name.IsUnknown() || m.ActionStateTopic.IsUnknown() || m.ActionStateTopic.IsNull() {
		return
	}
	if m.Name.ValueString() == m.ActionStateTopic.ValueString() {
		resp.Diagnostics.AddAttributeError(path.Root("action_state_topic"), "Control Topic Must Be Dedicated",
			fmt.Sprintf("name and action_state_topic are both %q. The control topic must be a separate, compacted, single-partition topic; "+
				"choose another name, for example %q.", m.Name.ValueString(), m.Name.ValueString()+"-cleanup-control"))
	}
}

func (r *controlTopicResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var state *controlTopicModel
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	if req.Plan.Raw.IsNull() {
		if state != nil {
			controlTopicKind.refuseDestroyOrRename(&resp.Diagnostics, state.Name, state.DeletionProtection, nil)
		}
		return
	}
	var plan controlTopicModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state != nil {
		controlTopicKind.refuseDestroyOrRename(&resp.Diagnostics, state.Name, state.DeletionProtection, &plan.Name)
		refuseTopicShapeChange(&resp.Diagnostics, "replication_factor", state.Name.ValueString(), state.ReplicationFactor, plan.ReplicationFactor)
	}
	plan.CleanupPolicy = types.StringValue(controlPolicy)
	if !plan.Name.IsUnknown() {
		plan.ID = plan.Name
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

func (r *controlTopicResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan controlTopicModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	kafka, op, diags := controlTopicKind.create(ctx, r.clients, plan.Name.ValueString(), 1, int16(plan.ReplicationFactor.ValueInt64()), plan.Config)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	_, diags = r.read(ctx, kafka, &plan, op)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *controlTopicResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state controlTopicModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if controlTopicKind.refresh(ctx, r.clients, state.Name.ValueString(), resp, func(kafka *kafkaops.Client, op string) (bool, fwdiag.Diagnostics) {
		return r.read(ctx, kafka, &state, op)
	}) {
		resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	}
}

func (r *controlTopicResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state controlTopicModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	kafka, op, diags := controlTopicKind.alter(ctx, r.clients, plan.Name.ValueString(), state.Config, plan.Config)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	_, diags = r.read(ctx, kafka, &plan, op)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *controlTopicResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state controlTopicModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(controlTopicKind.delete(ctx, r.clients, state.Name.ValueString(), state.DeletionProtection.ValueBool())...)
}

func (r *controlTopicResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importTopicByName(ctx, req, resp)
}

// read refreshes m from the live topic. A topic with more than one
// partition is an error: no update can fix it, and boundaries in it have no
// single order.
func (r *controlTopicResource) read(ctx context.Context, kafka *kafkaops.Client, m *controlTopicModel, op string) (gone bool, diags fwdiag.Diagnostics) {
	name := m.Name.ValueString()
	t, cfg, err := describeWithConfigs(ctx, kafka, name)
	if err != nil {
		return errors.Is(err, kafkaops.ErrTopicNotFound), fwdiag.Diagnostics{r.clients.KafkaDiag(op, err)}
	}
	if len(t.Partitions) != 1 {
		diags.AddError("Control Topic Has Several Partitions",
			fmt.Sprintf("While %s: it has %d partitions. A cleanup control topic must have exactly one, so that the runtime and every tool read one order of boundaries. "+
				"Partitions cannot be removed: create a new single-partition control topic, copy the records of partition 0 if they hold boundaries, and point the job at it.", op, len(t.Partitions)))
		return false, diags
	}
	m.ID = types.StringValue(name)
	m.TopicID = types.StringValue(t.ID.String())
	m.ReplicationFactor = types.Int64Value(int64(t.ReplicationFactor))
	m.CleanupPolicy = types.StringValue(cfg[cleanup.ConfigCleanupPolicy].Value)
	m.Config = liveManagedConfig(m.Config, cfg)
	return false, nil
}
