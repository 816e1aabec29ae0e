package datasources

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/recoveryplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// uidHashValidator accepts Flink's operator uid hash: 32 hex digits.
var uidHashValidator = stringvalidator.RegexMatches(regexp.MustCompile(`^[0-9a-fA-F]{32}$`),
	"must be 32 hexadecimal digits (Flink's operator uid hash)")

var (
	_ datasource.DataSource                     = (*cleanupPlanDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*cleanupPlanDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*cleanupPlanDataSource)(nil)
)

// NewCleanupPlan is the flinkagents_cleanup_plan data source. It needs no
// Kafka connection: a plan is derived from a checkpoint or a plan file alone.
func NewCleanupPlan() datasource.DataSource { return &cleanupPlanDataSource{} }

type cleanupPlanDataSource struct {
	clients *providerdata.Clients // only for the provider's timeout
}

type cleanupPlanModel struct {
	PlanJSONIn           types.String   `tfsdk:"plan_json"`
	CheckpointPath       types.String   `tfsdk:"checkpoint_path"`
	OperatorUID          types.String   `tfsdk:"operator_uid"`
	OperatorUIDHash      types.String   `tfsdk:"operator_uid_hash"`
	Storage              types.Object   `tfsdk:"storage"`  // checkpoint_storage.go
	Timeouts             timeouts.Value `tfsdk:"timeouts"` // checkpoint_timeouts.go
	PlanID               types.String   `tfsdk:"plan_id"`
	Topic                types.String   `tfsdk:"topic"`
	TopicID              types.String   `tfsdk:"topic_id"`
	Offsets              types.Map      `tfsdk:"offsets"`
	SourceRecoveryPoint  types.String   `tfsdk:"source_recovery_point"`
	CheckpointID         types.Int64    `tfsdk:"checkpoint_id"`
	OperatorID           types.String   `tfsdk:"operator_id"`
	MarkerCount          types.Int64    `tfsdk:"marker_count"`
	FlinkMetadataVersion types.Int64    `tfsdk:"flink_metadata_version"`
}

func (d *cleanupPlanDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cleanup_plan"
}

func (d *cleanupPlanDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A cleanup plan, derived natively from a Flink checkpoint or savepoint (no JVM), or parsed from a plan file " +
			"written by the Java tool. Gives the same plan, plan ID and plan JSON bytes as the Java tool's `plan` command for the same path string.",
		Attributes: map[string]schema.Attribute{
			"plan_json": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "Input: an existing plan file's contents (for example `file(\"plan.json\")`), parsed strictly. " +
					"Output: the plan file exactly as the Java tool writes it. Set this or `checkpoint_path`.",
			},
			"checkpoint_path": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "A retained checkpoint (`.../chk-42`), a savepoint directory, its `_metadata` file, or a `file:` URI; " +
					"on an object store, its URI (`s3://`, `s3a://`, `s3p://`, `gs://`, `abfss://`, `wasbs://`, …; see `storage`). " +
					"The string as given becomes the plan's `source_recovery_point` (and so part of its ID), as with the Java tool.",
			},
			"operator_uid": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "The agent operator's uid, as set with `.uid()`; hashed as Flink does. Omit both operator fields to find the one operator holding recovery markers.",
			},
			"operator_uid_hash": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "The agent operator's ID as 32 hex digits (Flink's uid hash).",
				Validators:          []validator.String{uidHashValidator},
			},
			"storage":                checkpointStorageAttribute(),
			"plan_id":                schema.StringAttribute{Computed: true, MarkdownDescription: "The plan ID."},
			"topic":                  schema.StringAttribute{Computed: true, MarkdownDescription: "The action-state topic."},
			"topic_id":               schema.StringAttribute{Computed: true, MarkdownDescription: "Its topic ID (Java form)."},
			"offsets":                schema.MapAttribute{Computed: true, ElementType: types.Int64Type, MarkdownDescription: "Offsets by partition: the minimum over all markers."},
			"source_recovery_point":  schema.StringAttribute{Computed: true, MarkdownDescription: "The recovery point the plan was derived from."},
			"checkpoint_id":          schema.Int64Attribute{Computed: true, MarkdownDescription: "The checkpoint ID recorded in `_metadata` (null for plan_json)."},
			"operator_id":            schema.StringAttribute{Computed: true, MarkdownDescription: "The operator the markers were read from, as 32 hex digits (null for plan_json)."},
			"marker_count":           schema.Int64Attribute{Computed: true, MarkdownDescription: "How many recovery markers the union state held (null for plan_json)."},
			"flink_metadata_version": schema.Int64Attribute{Computed: true, MarkdownDescription: "The `_metadata` format version (4: Flink 1.20, 5: 2.0, 6: 2.1+; null for plan_json)."},
		},
		Blocks: map[string]schema.Block{"timeouts": readTimeoutBlock(ctx)},
	}
}

func (d *cleanupPlanDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
}

func (d *cleanupPlanDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("plan_json"), path.MatchRoot("checkpoint_path")),
		datasourcevalidator.Conflicting(path.MatchRoot("operator_uid"), path.MatchRoot("operator_uid_hash")),
		datasourcevalidator.Conflicting(path.MatchRoot("plan_json"), path.MatchRoot("operator_uid")),
		datasourcevalidator.Conflicting(path.MatchRoot("plan_json"), path.MatchRoot("operator_uid_hash")),
	}
}

func (d *cleanupPlanDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m cleanupPlanModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var plan cleanupplan.Plan
	if !m.CheckpointPath.IsNull() {
		src := m.CheckpointPath.ValueString()
		op := fmt.Sprintf("reading recovery markers from %q", src)
		readCtx, cancel, diags := withReadDeadline(ctx, m.Timeouts)
		defer cancel()
		if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
			return
		}
		store, diags := newCheckpointStore(ctx, m.Storage, d.clients.Timeout())
		if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
			return
		}
		defer store.Close()
		derived, err := recoveryplan.FromPath(readCtx, store, src, checkpoint.Selector{
			UID: m.OperatorUID.ValueString(), UIDHash: m.OperatorUIDHash.ValueString(),
		})
		logCheckpointReads(ctx, store, src)
		if err != nil {
			resp.Diagnostics.Append(diagnostics.FromPlanningError(op, err))
			return
		}
		plan = derived.Plan
		res := derived.Read
		tflog.Debug(ctx, "read recovery markers", map[string]any{"metadata": res.MetadataPath, "operator_id": res.OperatorID, "markers": len(res.Markers), "metadata_version": res.MetadataVersion})
		m.CheckpointID = types.Int64Value(res.CheckpointID)
		m.OperatorID = types.StringValue(res.OperatorID)
		m.MarkerCount = types.Int64Value(int64(len(res.Markers)))
		m.FlinkMetadataVersion = types.Int64Value(int64(res.MetadataVersion))
	} else {
		var err error
		plan, err = cleanupplan.Parse([]byte(m.PlanJSONIn.ValueString()))
		if err != nil {
			resp.Diagnostics.Append(diagnostics.MalformedPlan(path.Root("plan_json"), err))
			return
		}
		m.CheckpointID = types.Int64Null()
		m.OperatorID = types.StringNull()
		m.MarkerCount = types.Int64Null()
		m.FlinkMetadataVersion = types.Int64Null()
	}
	m.PlanJSONIn = types.StringValue(string(plan.File()))
	m.PlanID = types.StringValue(plan.ID())
	m.Topic = types.StringValue(plan.Topic)
	m.TopicID = types.StringValue(plan.TopicID)
	m.SourceRecoveryPoint = types.StringValue(plan.SourceRecoveryPoint)
	m.Offsets = tfconv.Offsets(plan.Offsets)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
