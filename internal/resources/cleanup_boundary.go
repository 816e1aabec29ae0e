package resources

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

var (
	_ resource.Resource                = (*boundaryResource)(nil)
	_ resource.ResourceWithConfigure   = (*boundaryResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*boundaryResource)(nil)
	_ resource.ResourceWithImportState = (*boundaryResource)(nil)
)

// NewCleanupBoundary is the flinkagents_cleanup_boundary resource: its
// Create and Update run the commit-then-delete protocol
// (internal/cleanup/apply.go).
func NewCleanupBoundary() resource.Resource { return &boundaryResource{} }

type boundaryResource struct {
	clients *providerdata.Clients
}

type boundaryModel struct {
	ID                  types.String   `tfsdk:"id"`
	ControlTopic        types.String   `tfsdk:"control_topic"`
	ControlTopicID      types.String   `tfsdk:"control_topic_id"`
	ActionStateTopic    types.String   `tfsdk:"action_state_topic"`
	PlanJSON            planJSONValue  `tfsdk:"plan_json"`
	Timeouts            timeouts.Value `tfsdk:"timeouts"`
	PlanID              types.String   `tfsdk:"plan_id"`
	Topic               types.String   `tfsdk:"topic"`
	TopicID             types.String   `tfsdk:"topic_id"`
	SourceRecoveryPoint types.String   `tfsdk:"source_recovery_point"`
	Offsets             types.Map      `tfsdk:"offsets"`
	Status              types.String   `tfsdk:"status"`
	CommittedBoundary   types.Map      `tfsdk:"committed_boundary"`
	RecordsToDelete     types.Int64    `tfsdk:"records_to_delete"`
	DeleteRanges        types.List     `tfsdk:"delete_ranges"`
	Partitions          types.Map      `tfsdk:"partitions"`
	RecoveryPoints      types.List     `tfsdk:"recovery_points"`     // cleanup_boundary_restorable.go
	KeepRestorable      types.List     `tfsdk:"keep_restorable"`     // cleanup_boundary_restorable.go
	UnrestorablePoints  types.List     `tfsdk:"unrestorable_points"` // cleanup_boundary_restorable.go
}

// statusNotRecorded is shown when the control topic does not hold this
// boundary's plan (a recreated control topic): the next apply records it.
const statusNotRecorded = "NOT_RECORDED"

// statusDeletionPending is shown when the plan is recorded APPLIED but the
// topic still holds records below the boundary: the next apply deletes
// them again.
const statusDeletionPending = "DELETION_PENDING"

const defaultApplyTimeout = 10 * time.Minute

func (r *boundaryResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cleanup_boundary"
}

func (r *boundaryResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A checkpoint-aligned cleanup boundary. Applying it records the plan as COMMITTED in the control topic, " +
			"then deletes action-state records below it, verifies, and records APPLIED: the Flink Agents runtime refuses restores " +
			"below a recorded boundary. `terraform plan` refuses a plan that would move the boundary backward and shows " +
			"what the apply deletes before anything happens, one line per partition in `partitions`. Boundaries are permanent: destroying this resource only forgets it.\n\n" +
			"Given the job's `recovery_points`, the plan lists in `unrestorable_points` every point the boundary would make " +
			"unrestorable, and refuses one that `keep_restorable` names.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "The control topic name.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"control_topic": schema.StringAttribute{
				Required: true, MarkdownDescription: "The control topic (the job's `kafkaActionStateCleanupControlTopic`).",
				Validators:    []validator.String{tfconv.TopicName()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"control_topic_id": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The control topic's ID, in Kafka's Java form. Apply refuses, before writing anything, a control topic " +
					"whose ID is no longer this one (deleted and recreated since the plan: it holds none of the recorded boundaries); " +
					"a refresh that finds a new ID warns and records it.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"action_state_topic": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The action-state topic the plan must clean: when set, a plan from another job is refused at plan time; " +
					"when omitted, the plan's topic.",
				Validators: []validator.String{tfconv.TopicName()},
			},
			"plan_json": schema.StringAttribute{
				Optional: true, Computed: true, Sensitive: true, CustomType: planJSONType{},
				MarkdownDescription: "The cleanup plan: `data.flinkagents_cleanup_plan.<name>.plan_json`, or the file written by the Java tool's " +
					"`plan` command (`file(\"plan.json\")`). Parsed strictly, as Jackson parses it (a leading UTF-8 byte-order mark is skipped), " +
					"except that content after the JSON object is refused where the runtime ignores it: what was reviewed is exactly what is applied; " +
					"a plan that does not match its own plan ID, or larger than 4 MiB, is refused; the same plan with other whitespace is no change. " +
					"Required to create a boundary; omitted on an imported one (as `-generate-config-out` writes it), the recorded plan is kept. " +
					"Marked sensitive only so that `terraform plan` shows it in one line: it holds no secret, `terraform show -json` has it in full, " +
					"and each partition's change is shown once, in `partitions`.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"plan_id":               computed("The plan's ID (SHA-256 over its contents, as the Java tool computes it)."),
			"topic":                 computed("The action-state topic the plan cleans."),
			"topic_id":              computed("That topic's ID, in Kafka's Java form."),
			"source_recovery_point": computed("The checkpoint or savepoint path the plan was derived from."),
			"offsets": schema.MapAttribute{
				Computed: true, Sensitive: true, ElementType: types.Int64Type,
				MarkdownDescription: "The plan's offsets by partition (for policies; sensitive only to keep plans short, see `partitions`).",
			},
			"partitions": schema.MapAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "What the boundary means for each partition, one line each (`boundary 200, deletes [150, 200): 50 records`), " +
					"keyed by the partition number zero-padded so that plans list partitions in numeric order. Known at plan time when the topics exist.",
			},
			"status": computed("`APPLIED` once the records below the boundary are deleted; `COMMITTED` while an interrupted apply is pending " +
				"(run apply again); `DELETION_PENDING` when the plan is recorded APPLIED but the topic holds records below the boundary again " +
				"(a broker lost its log start offset in a crash, or a tool recorded APPLIED without deleting: apply deletes them again); " +
				"`NOT_RECORDED` when the control topic no longer holds the plan. Every refresh compares the recorded boundary with the topic's start offsets."),
			"committed_boundary": schema.MapAttribute{
				Computed: true, Sensitive: true, ElementType: types.Int64Type,
				MarkdownDescription: "The effective boundary recorded in the control topic (per partition, the highest offset of any recorded plan). " +
					"Known at plan time (what the apply leaves recorded) and refreshed on every read, so a boundary advanced elsewhere " +
					"(for example by the Java tool) shows up here. Sensitive only to keep plans short (see `partitions`).",
			},
			"records_to_delete": schema.Int64Attribute{
				Computed: true,
				MarkdownDescription: "Known at plan time: the records the apply deletes (sum over partitions of target minus current start offset). " +
					"Unknown when the topics do not exist yet; policies should treat unknown as \"fail closed\".",
			},
			"delete_ranges": schema.ListNestedAttribute{
				Computed: true, Sensitive: true,
				MarkdownDescription: "Known at plan time: per partition, the offsets `[from, to)` the apply deletes (for policies; " +
					"sensitive only to keep plans short, see `partitions`).",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"partition": schema.Int64Attribute{Computed: true, MarkdownDescription: "The partition."},
					"from":      schema.Int64Attribute{Computed: true, MarkdownDescription: "Its start offset now: the first record deleted."},
					"to":        schema.Int64Attribute{Computed: true, MarkdownDescription: "The boundary: the first record kept."},
				}},
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true}),
		},
	}
	maps.Copy(resp.Schema.Attributes, restorableAttributes())
}

func (r *boundaryResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
}

func (r *boundaryResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		resp.Diagnostics.Append(diagnostics.BoundariesArePermanent())
		return
	}
	var plan boundaryModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	var state *boundaryModel
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	var configured planJSONValue
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("plan_json"), &configured)...)
	if configured.IsNull() && state == nil {
		resp.Diagnostics.Append(diagnostics.PlanJSONRequired(path.Root("plan_json")))
		return
	}
	if plan.PlanJSON.IsUnknown() {
		return // computed values stay unknown until the plan is known
	}
	p, ok := parsePlanAttr(&resp.Diagnostics, plan.PlanJSON)
	if !ok {
		return
	}
	var bound types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("action_state_topic"), &bound)...)
	switch {
	case bound.IsUnknown():
	case bound.IsNull():
		plan.ActionStateTopic = types.StringValue(p.Topic)
	case bound.ValueString() != p.Topic:
		resp.Diagnostics.Append(diagnostics.PlanCleansAnotherTopic(path.Root("plan_json"), p.Topic, bound.ValueString()))
		return
	}
	setPlanFields(&plan, p)
	plan.Status = types.StringValue(string(cleanupplan.StatusApplied))
	if plan.planRestorable(ctx, p, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	if !plan.ControlTopic.IsUnknown() {
		plan.ID = plan.ControlTopic
		if r.clients != nil {
			if otherID, otherSource, clash := r.clients.ClaimControlTopic(plan.ControlTopic.ValueString(), p.ID(), p.SourceRecoveryPoint); clash {
				resp.Diagnostics.Append(diagnostics.TwoBoundariesOneControlTopic(plan.ControlTopic.ValueString(), p.ID(), p.SourceRecoveryPoint, otherID, otherSource))
				return
			}
		}
	}

	if state != nil && state.PlanID.ValueString() == p.ID() && state.Status.ValueString() == string(cleanupplan.StatusApplied) {
		// Nothing to do: keep what was read, so there is no drift noise.
		plan.CommittedBoundary = state.CommittedBoundary
		plan.RecordsToDelete = state.RecordsToDelete
		plan.DeleteRanges = state.DeleteRanges
		plan.Partitions = state.Partitions
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
		return
	}
	plan.CommittedBoundary = types.MapUnknown(types.Int64Type)
	plan.RecordsToDelete = types.Int64Unknown()
	plan.DeleteRanges = types.ListUnknown(tfconv.DeleteRangeType)
	plan.Partitions = types.MapUnknown(types.StringType)
	if r.clients != nil && !plan.ControlTopic.IsUnknown() {
		r.preview(ctx, &plan, p, &resp.Diagnostics)
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// preview fills records_to_delete, delete_ranges, committed_boundary and
// partitions from the live topics, and refuses at plan time what Apply
// would refuse. Topics that do not
// exist yet (created in the same apply) leave the preview unknown.
func (r *boundaryResource) preview(ctx context.Context, plan *boundaryModel, p cleanupplan.Plan, diags *diag.Diagnostics) {
	op := fmt.Sprintf("planning cleanup boundary %s in control topic %q", p.ID(), plan.ControlTopic.ValueString())
	kafka, err := r.clients.Kafka(ctx)
	var unavailable *providerdata.UnavailableError
	if errors.As(err, &unavailable) {
		return // values unknown until apply: the preview stays unknown
	}
	if err != nil {
		diags.Append(r.clients.KafkaDiag(op, err))
		return
	}
	pv, err := cleanup.PreviewApply(ctx, kafka, p, plan.ControlTopic.ValueString())
	if errors.Is(err, kafkaops.ErrTopicNotFound) {
		tflog.Info(ctx, "cleanup boundary preview unknown: a topic does not exist yet", map[string]any{"error": err.Error()})
		return
	}
	if err != nil {
		diags.Append(r.clients.CleanupDiag(op, err))
		return
	}
	if plan.ControlTopicID.IsUnknown() {
		plan.ControlTopicID = types.StringValue(pv.ControlTopicID)
	}
	plan.RecordsToDelete = types.Int64Value(pv.RecordsToDelete)
	plan.DeleteRanges = tfconv.DeleteRanges(pv.Ranges)
	plan.CommittedBoundary = tfconv.Offsets(pv.Target)
	plan.Partitions = tfconv.PartitionChanges(pv.Target, pv.Ranges)
	if len(pv.GonePast) > 0 {
		diags.Append(diagnostics.RecordsGonePastBoundary(p.Topic, pv.GonePast))
	}
}

func (r *boundaryResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan boundaryModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, defaultApplyTimeout)
	resp.Diagnostics.Append(diags...)
	r.apply(ctx, timeout, &plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *boundaryResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state boundaryModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	control := state.ControlTopic.ValueString()
	op := fmt.Sprintf("reading cleanup boundaries from control topic %q", control)
	kafka, diags := r.clients.KafkaClient(ctx, op)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ins, err := cleanup.Inspect(ctx, kafka, control)
	if errors.Is(err, kafkaops.ErrTopicNotFound) {
		resp.Diagnostics.Append(diagnostics.ControlTopicMissing(control))
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.Append(r.clients.CleanupDiag(op, err))
		return
	}
	log := ins.Log
	if recorded := state.ControlTopicID; !recorded.IsNull() && !recorded.IsUnknown() && recorded.ValueString() != ins.ControlTopicID {
		resp.Diagnostics.Append(diagnostics.ControlTopicRecreated(control, recorded.ValueString(), ins.ControlTopicID))
	}
	state.ControlTopicID = types.StringValue(ins.ControlTopicID) // a state from before the attribute learns it here
	state.ID = types.StringValue(control)
	state.Status = types.StringValue(statusNotRecorded)
	if op, ok := log.Lookup(state.PlanID.ValueString()); ok {
		state.Status = types.StringValue(string(op.Status))
	}
	switch {
	case ins.Uncompared != nil:
		resp.Diagnostics.Append(diagnostics.HistoryNotCompared(control, ins.Uncompared))
	case len(ins.Remaining) > 0 && state.Status.ValueString() == string(cleanupplan.StatusApplied):
		// The recorded APPLIED no longer holds: show the deletion as
		// pending, so the plan proposes it and apply performs it again.
		state.Status = types.StringValue(statusDeletionPending)
		var n int64
		for _, rg := range ins.Remaining {
			n += rg.To - rg.From
		}
		state.RecordsToDelete = types.Int64Value(n)
		state.DeleteRanges = tfconv.DeleteRanges(ins.Remaining)
		state.Partitions = tfconv.PartitionChanges(log.Boundary(), ins.Remaining)
		resp.Diagnostics.Append(diagnostics.RecordsBelowAppliedBoundary(control, state.Topic.ValueString(), ins.Remaining))
	}
	if len(ins.GonePast) > 0 {
		resp.Diagnostics.Append(diagnostics.RecordsGonePastBoundary(state.Topic.ValueString(), ins.GonePast))
	}
	state.CommittedBoundary = tfconv.Offsets(log.Boundary())
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *boundaryResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan boundaryModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, defaultApplyTimeout)
	resp.Diagnostics.Append(diags...)
	r.apply(ctx, timeout, &plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *boundaryResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {
	// Only forgets: recorded boundaries are permanent (ModifyPlan warned).
}

// ImportState adopts the newest plan recorded in the control topic named
// by the import ID, whoever recorded it (this provider or the Java tool);
// the Read that Terraform runs next fills in its status.
func (r *boundaryResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	control := req.ID
	op := fmt.Sprintf("importing the cleanup boundary recorded in control topic %q", control)
	kafka, diags := r.clients.KafkaClient(ctx, op)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	log, err := cleanup.History(ctx, kafka, control)
	if err != nil {
		resp.Diagnostics.Append(r.clients.CleanupDiag(op, err))
		return
	}
	latest, ok := log.Latest()
	if !ok {
		resp.Diagnostics.Append(diagnostics.NoBoundaryRecorded(op))
		return
	}
	m := boundaryModel{
		ID:                 types.StringValue(control),
		ControlTopic:       types.StringValue(control),
		ControlTopicID:     types.StringNull(), // the Read that follows fills it
		ActionStateTopic:   types.StringValue(latest.Plan.Topic),
		PlanJSON:           newPlanJSON(string(latest.Plan.File())),
		Timeouts:           nullTimeouts(),
		Status:             types.StringValue(string(latest.Status)),
		CommittedBoundary:  tfconv.Offsets(log.Boundary()),
		RecordsToDelete:    types.Int64Value(0),
		DeleteRanges:       tfconv.DeleteRanges(nil),
		Partitions:         tfconv.PartitionChanges(log.Boundary(), nil),
		RecoveryPoints:     types.ListNull(tfconv.RecoveryPointType),
		KeepRestorable:     types.ListNull(types.StringType),
		UnrestorablePoints: types.ListNull(unrestorablePointType),
	}
	setPlanFields(&m, latest.Plan)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// apply runs the coordinator and fills the computed attributes.
func (r *boundaryResource) apply(ctx context.Context, timeout time.Duration, plan *boundaryModel, diags *diag.Diagnostics) {
	p, ok := parsePlanAttr(diags, plan.PlanJSON)
	if !ok {
		return
	}
	control := plan.ControlTopic.ValueString()
	op := fmt.Sprintf("applying cleanup plan %s to topic %q through control topic %q", p.ID(), p.Topic, control)
	kafka, d := r.clients.KafkaClient(ctx, op)
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := cleanup.Apply(ctx, kafka, cleanup.Request{
		Plan:           p,
		ControlTopic:   control,
		ControlTopicID: plan.ControlTopicID.ValueString(), // "" when unknown at plan time: learned below
		ExpectedTopic:  plan.ActionStateTopic.ValueString(),
		Progress: func(step string, fields map[string]any) {
			tflog.Info(ctx, "cleanup: "+step, fields)
		},
	})
	if err != nil {
		diags.Append(r.clients.CleanupDiag(op, err))
		return
	}
	if res.Redeleted {
		tflog.Warn(ctx, "cleanup: records below the APPLIED boundary were readable again and were deleted again", map[string]any{"plan_id": p.ID()})
	}
	for _, rg := range res.Deleted {
		tflog.Info(ctx, "cleanup: deleted records", map[string]any{"topic": p.Topic, "partition": rg.Partition, "from": rg.From, "to": rg.To})
	}
	setPlanFields(plan, p)
	plan.ID = types.StringValue(control)
	plan.ControlTopicID = types.StringValue(res.ControlTopicID)
	plan.Status = types.StringValue(string(cleanupplan.StatusApplied))
	plan.ActionStateTopic = types.StringValue(p.Topic)
	// What the plan showed stays (Terraform requires it); where it was
	// unknown at plan time, record what this apply did. The next refresh
	// reads the control topic again.
	if plan.CommittedBoundary.IsUnknown() {
		plan.CommittedBoundary = tfconv.Offsets(res.Target)
	}
	if plan.RecordsToDelete.IsUnknown() {
		var n int64
		for _, rg := range res.Deleted {
			n += rg.To - rg.From
		}
		plan.RecordsToDelete = types.Int64Value(n)
	}
	if plan.DeleteRanges.IsUnknown() {
		plan.DeleteRanges = tfconv.DeleteRanges(res.Deleted)
	}
	if plan.Partitions.IsUnknown() {
		plan.Partitions = tfconv.PartitionChanges(res.Target, res.Deleted)
	}
}

func setPlanFields(m *boundaryModel, p cleanupplan.Plan) {
	m.PlanID = types.StringValue(p.ID())
	m.Topic = types.StringValue(p.Topic)
	m.TopicID = types.StringValue(p.TopicID)
	m.SourceRecoveryPoint = types.StringValue(p.SourceRecoveryPoint)
	m.Offsets = tfconv.Offsets(p.Offsets)
}

// parsePlanAttr parses plan_json, reporting a precise attribute error.
func parsePlanAttr(diags *diag.Diagnostics, v planJSONValue) (cleanupplan.Plan, bool) {
	p, err := cleanupplan.Parse([]byte(v.ValueString()))
	if err != nil {
		diags.Append(diagnostics.MalformedPlan(path.Root("plan_json"), err))
		return cleanupplan.Plan{}, false
	}
	return p, true
}

// nullTimeouts is the timeouts block of an imported resource.
func nullTimeouts() timeouts.Value {
	return timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{"create": types.StringType, "update": types.StringType})}
}
