package resources

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	fwdiag "github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diag"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
)

var (
	_ resource.Resource                   = (*actionStateTopicResource)(nil)
	_ resource.ResourceWithConfigure      = (*actionStateTopicResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*actionStateTopicResource)(nil)
	_ resource.ResourceWithImportState    = (*actionStateTopicResource)(nil)
	_ resource.ResourceWithValidateConfig = (*actionStateTopicResource)(nil)
)

// NewActionStateTopic is the flinkagents_action_state_topic resource.
func NewActionStateTopic() resource.Resource { return &actionStateTopicResource{} }

type actionStateTopicResource struct {
	clients *providerdata.Clients
}

type actionStateTopicModel struct {
	ID                 types.String `tfsdk:"id"`
	Name               types.String `tfsdk:"name"`
	Partitions         types.Int64  `tfsdk:"partitions"`
	ReplicationFactor  types.Int64  `tfsdk:"replication_factor"`
	Config             types.Map    `tfsdk:"config"`
	DeletionProtection types.Bool   `tfsdk:"deletion_protection"`
	TopicID            types.String `tfsdk:"topic_id"`
	CleanupPolicy      types.String `tfsdk:"cleanup_policy"`
	RetentionMs        types.String `tfsdk:"retention_ms"`
	RetentionBytes     types.String `tfsdk:"retention_bytes"`
}

var actionStateTopicKind = topicKind{
	label:        "action-state topic",
	resourceType: "flinkagents_action_state_topic",
	enforced:     cleanup.DataTopicSettings,
	goneDetail: "Topic %q no longer exists in Kafka, so Terraform will plan to create it again. " +
		"A new topic has a new topic ID: recorded cleanup boundaries and checkpoints of the old topic do not apply to it.",
}

// enforcedKeyReasons explains, in the validation error, why each enforced
// setting cannot be configured.
var enforcedKeyReasons = map[string]string{
	cleanup.ConfigCleanupPolicy:  "the resource enforces cleanup.policy=compact,delete (compaction keeps each action's latest state; delete lets checkpoint-aligned cleanup remove old records).",
	cleanup.ConfigRetentionMs:    "the resource enforces retention.ms=-1: time-based retention would delete action state a restore still needs.",
	cleanup.ConfigRetentionBytes: "the resource enforces retention.bytes=-1: size-based retention would delete action state a restore still needs.",
}

func (r *actionStateTopicResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_action_state_topic"
}

func (r *actionStateTopicResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The Kafka topic where a Flink Agents operator stores each Action's progress. " +
			"The resource enforces the settings checkpoint-aligned cleanup depends on (`cleanup.policy=compact,delete`, " +
			"`retention.ms=-1`, `retention.bytes=-1`) and restores them if they drift. It never replaces the topic: " +
			"changing `partitions` or `replication_factor` is refused at plan time, because a new topic loses every action's state.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The topic name.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Topic name; the job's `kafkaActionStateTopic`.",
				Validators:          []validator.String{stringvalidator.LengthBetween(1, 249)},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"partitions": schema.Int64Attribute{
				Optional: true, Computed: true,
				Default:             int64default.StaticInt64(64),
				MarkdownDescription: "Partition count (default 64, as the runtime's `kafkaActionStateTopicNumPartitions`). Cannot change after creation.",
				Validators:          []validator.Int64{int64validator.Between(1, 100000)},
			},
			"replication_factor": schema.Int64Attribute{
				Optional: true, Computed: true,
				Default:             int64default.StaticInt64(1),
				MarkdownDescription: "Replication factor (default 1, as the runtime's `kafkaActionStateTopicReplicationFactor`). Cannot change after creation.",
				Validators:          []validator.Int64{int64validator.Between(1, 32767)},
			},
			"config": schema.MapAttribute{
				Optional:            true,
				ElementType:         types.StringType,
				MarkdownDescription: "Extra topic settings, managed key by key. `cleanup.policy`, `retention.ms` and `retention.bytes` are enforced and refused here. Keys not listed are left as they are.",
				Validators:          []validator.Map{reservedKeysValidator{reserved: enforcedKeyReasons}},
			},
			"deletion_protection": schema.BoolAttribute{
				Optional: true, Computed: true,
				Default:             booldefault.StaticBool(true),
				MarkdownDescription: "While true (the default), destroying or replacing this topic is refused at plan time. Held in state, so it also protects a topic whose block was removed: set it to false and apply before removing the block.",
			},
			"topic_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Kafka's topic ID in its Java form (22 characters, URL-safe base64), as recovery markers and plans record it.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"cleanup_policy":  schema.StringAttribute{Computed: true, MarkdownDescription: "Live `cleanup.policy`; always planned as `compact,delete`."},
			"retention_ms":    schema.StringAttribute{Computed: true, MarkdownDescription: "Live `retention.ms`; always planned as `-1`."},
			"retention_bytes": schema.StringAttribute{Computed: true, MarkdownDescription: "Live `retention.bytes`; always planned as `-1`."},
		},
	}
}

func (r *actionStateTopicResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
}

func (r *actionStateTopicResource) ValidateConfig(context.Context, resource.ValidateConfigRequest, *resource.ValidateConfigResponse) {
	// Config rules live in the schema validators; nothing cross-attribute.
}

func (r *actionStateTopicResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var state *actionStateTopicModel
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	if req.Plan.Raw.IsNull() {
		if state != nil {
			actionStateTopicKind.refuseDestroyOrRename(&resp.Diagnostics, state.Name, state.DeletionProtection, nil)
		}
		return
	}
	var plan actionStateTopicModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state != nil {
		actionStateTopicKind.refuseDestroyOrRename(&resp.Diagnostics, state.Name, state.DeletionProtection, &plan.Name)
		refuseTopicShapeChange(&resp.Diagnostics, "partitions", state.Name.ValueString(), state.Partitions, plan.Partitions)
		refuseTopicShapeChange(&resp.Diagnostics, "replication_factor", state.Name.ValueString(), state.ReplicationFactor, plan.ReplicationFactor)
	}
	// The enforced settings are always planned at their required values:
	// live drift (read into state) then shows as an in-place update.
	plan.CleanupPolicy = types.StringValue(cleanup.DataTopicSettings[cleanup.ConfigCleanupPolicy])
	plan.RetentionMs = types.StringValue(cleanup.DataTopicSettings[cleanup.ConfigRetentionMs])
	plan.RetentionBytes = types.StringValue(cleanup.DataTopicSettings[cleanup.ConfigRetentionBytes])
	if state != nil && cleanup.PolicyEqual(state.CleanupPolicy.ValueString(), plan.CleanupPolicy.ValueString()) {
		plan.CleanupPolicy = state.CleanupPolicy // same set, no drift noise
	}
	if !plan.Name.IsUnknown() {
		plan.ID = plan.Name
	}
	if state != nil && plan.Name.ValueString() == state.Name.ValueString() {
		if live, ok := liveTopicID(ctx, req, &resp.Diagnostics); ok && live != state.TopicID.ValueString() {
			plan.TopicID = types.StringValue(live) // shown as topic_id: old -> new
		}
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// liveTopicID returns the ID Read found on a topic recreated outside
// Terraform, if it found one.
func liveTopicID(ctx context.Context, req resource.ModifyPlanRequest, diags *fwdiag.Diagnostics) (string, bool) {
	raw, d := req.Private.GetKey(ctx, privateLiveTopicID)
	diags.Append(d...)
	if len(raw) == 0 {
		return "", false
	}
	var id string
	if err := json.Unmarshal(raw, &id); err != nil || id == "" {
		return "", false
	}
	return id, true
}

// refuseTopicShapeChange stops a plan that would change a topic's
// partition count or replication factor: never a replacement, which would
// lose every action's state.
func refuseTopicShapeChange(diags *fwdiag.Diagnostics, attr, topic string, old, planned types.Int64) {
	if planned.IsUnknown() || old.IsNull() || old.ValueInt64() == planned.ValueInt64() {
		return
	}
	diags.Append(diag.TopicShapeChange(attr, topic, old.ValueInt64(), planned.ValueInt64()))
}

func (r *actionStateTopicResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan actionStateTopicModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	kafka, op, diags := actionStateTopicKind.create(ctx, r.clients, plan.Name.ValueString(),
		int32(plan.Partitions.ValueInt64()), int16(plan.ReplicationFactor.ValueInt64()), plan.Config)
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

func (r *actionStateTopicResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state actionStateTopicModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	recorded := state.TopicID
	if !actionStateTopicKind.refresh(ctx, r.clients, state.Name.ValueString(), resp, func(kafka *kafkaops.Client, op string) (bool, fwdiag.Diagnostics) {
		return r.read(ctx, kafka, &state, op)
	}) {
		return
	}
	if live := state.TopicID; !recorded.IsNull() && !recorded.IsUnknown() && live.ValueString() != recorded.ValueString() {
		// Deleted and recreated outside Terraform: a new topic that holds
		// none of the old action state, with a new ID. Adopting it silently
		// would hide that from review, so state keeps the ID Terraform
		// knows and the plan proposes the new one as a change to confirm.
		state.TopicID = recorded
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateLiveTopicID, []byte(fmt.Sprintf("%q", live.ValueString())))...)
		resp.Diagnostics.Append(diag.ActionStateTopicRecreated(state.Name.ValueString(), recorded.ValueString(), live.ValueString()))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// privateLiveTopicID is the private-state key under which Read leaves the
// live topic ID of a topic recreated outside Terraform, for ModifyPlan.
const privateLiveTopicID = "live_topic_id"

func (r *actionStateTopicResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state actionStateTopicModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	kafka, op, diags := actionStateTopicKind.alter(ctx, r.clients, plan.Name.ValueString(), state.Config, plan.Config)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	planned := plan.TopicID
	_, diags = r.read(ctx, kafka, &plan, op)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !planned.IsUnknown() && planned.ValueString() != plan.TopicID.ValueString() {
		// Recreated (again) between plan and apply: the reviewed plan no
		// longer describes this topic.
		resp.Diagnostics.Append(diag.ActionStateTopicRecreated(plan.Name.ValueString(), planned.ValueString(), plan.TopicID.ValueString()))
		resp.Diagnostics.AddError("Action-State Topic Changed Since The Plan",
			fmt.Sprintf("Topic %q has ID %s, not the %s the plan was reviewed with. Run terraform plan again and review the change.",
				plan.Name.ValueString(), plan.TopicID.ValueString(), planned.ValueString()))
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *actionStateTopicResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state actionStateTopicModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(actionStateTopicKind.delete(ctx, r.clients, state.Name.ValueString(), state.DeletionProtection.ValueBool())...)
}

func (r *actionStateTopicResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importTopicByName(ctx, req, resp)
}

// read refreshes m from the live topic; gone reports a missing topic.
func (r *actionStateTopicResource) read(ctx context.Context, kafka *kafkaops.Client, m *actionStateTopicModel, op string) (gone bool, diags fwdiag.Diagnostics) {
	name := m.Name.ValueString()
	t, cfg, err := describeWithConfigs(ctx, kafka, name)
	if err != nil {
		if errors.Is(err, kafkaops.ErrTopicNotFound) {
			return true, fwdiag.Diagnostics{r.clients.KafkaDiag(op, err)}
		}
		return false, fwdiag.Diagnostics{r.clients.KafkaDiag(op, err)}
	}
	m.ID = types.StringValue(name)
	m.TopicID = types.StringValue(t.ID.String())
	m.Partitions = types.Int64Value(int64(len(t.Partitions)))
	m.ReplicationFactor = types.Int64Value(int64(t.ReplicationFactor))
	m.CleanupPolicy = types.StringValue(cfg[cleanup.ConfigCleanupPolicy].Value)
	m.RetentionMs = types.StringValue(cfg[cleanup.ConfigRetentionMs].Value)
	m.RetentionBytes = types.StringValue(cfg[cleanup.ConfigRetentionBytes].Value)
	m.Config = liveManagedConfig(m.Config, cfg)
	return false, nil
}
