package datasources

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpointstore"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/recoveryplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

var (
	_ datasource.DataSource                     = (*recoveryPointsDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*recoveryPointsDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*recoveryPointsDataSource)(nil)
)

// NewRecoveryPoints is the flinkagents_recovery_points data source. Like
// flinkagents_cleanup_plan it needs no Kafka connection.
func NewRecoveryPoints() datasource.DataSource { return &recoveryPointsDataSource{} }

type recoveryPointsDataSource struct {
	clients *providerdata.Clients // only for the provider's timeout
}

// pointStore is the checkpoint storage this data source lists and reads:
// the checkpointstore Router (local paths, file:, s3://, gs://, abfss://, ...).
type pointStore interface {
	checkpoint.Storage
	checkpoint.Lister
}

var _ pointStore = (*checkpointstore.Router)(nil)

type recoveryPointsModel struct {
	CheckpointDir    types.String         `tfsdk:"checkpoint_dir"`
	SavepointDir     types.String         `tfsdk:"savepoint_dir"`
	OperatorUID      types.String         `tfsdk:"operator_uid"`
	OperatorUIDHash  types.String         `tfsdk:"operator_uid_hash"`
	IgnoreUnreadable types.Bool           `tfsdk:"ignore_unreadable"`
	Storage          types.Object         `tfsdk:"storage"`  // checkpoint_storage.go
	Timeouts         timeouts.Value       `tfsdk:"timeouts"` // checkpoint_timeouts.go
	Points           []recoveryPointModel `tfsdk:"points"`
}

type recoveryPointModel struct {
	Path         types.String `tfsdk:"path"`
	Kind         types.String `tfsdk:"kind"`
	CheckpointID types.Int64  `tfsdk:"checkpoint_id"`
	ModifiedAt   types.String `tfsdk:"modified_at"`
	Topic        types.String `tfsdk:"topic"`
	TopicID      types.String `tfsdk:"topic_id"`
	PlanID       types.String `tfsdk:"plan_id"`
	Offsets      types.Map    `tfsdk:"offsets"`
	Error        types.String `tfsdk:"error"`
}

func (d *recoveryPointsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_recovery_points"
}

func (d *recoveryPointsDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The complete recovery points (retained checkpoints and savepoints) of a Flink Agents job, newest " +
			"first by their recovery markers, each with its merged marker offsets: what a cleanup plan could follow, and how far " +
			"each would clean.",
		Attributes: map[string]schema.Attribute{
			"checkpoint_dir": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "A job's checkpoint directory: the parent of its `chk-N` directories " +
					"(`state.checkpoints.dir` plus the job ID), as a local path, a `file:` URI, or an object-store URI " +
					"(`s3://`, `gs://`, `abfss://`, …; see `storage`), where it is a key prefix. Must exist.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"savepoint_dir": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "A directory holding `savepoint-*` directories (`state.savepoints.dir`), in the same forms as `checkpoint_dir`. Must exist.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"operator_uid": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The agent operator's uid, passed to the marker reader as in `flinkagents_cleanup_plan`. " +
					"Omit both operator fields to use the one operator holding recovery markers.",
			},
			"operator_uid_hash": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "The agent operator's ID as 32 hex digits (Flink's uid hash).",
				Validators:          []validator.String{uidHashValidator},
			},
			"storage": checkpointStorageAttribute(),
			"ignore_unreadable": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "When false (the default), a complete point whose markers cannot be read or form no plan fails " +
					"the read. When true it stays in the list with `error` set and `offsets`, `topic`, `topic_id` and `plan_id` null.",
			},
			"points": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The complete recovery points, newest first.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"path": computed("The point's directory: the given directory string joined with the child's name (a `file:` prefix is kept). " +
						"Pass it unchanged to `data.flinkagents_cleanup_plan`: it becomes the plan's `sourceRecoveryPoint`."),
					"kind": computed("`checkpoint` or `savepoint`."),
					"checkpoint_id": schema.Int64Attribute{Computed: true,
						MarkdownDescription: "The checkpoint ID recorded in `_metadata` (for an unreadable checkpoint, N of `chk-N`; null for an unreadable savepoint)."},
					"modified_at": computed("The modification time of `_metadata` (RFC 3339, UTC)."),
					"topic":       computed("The action-state topic the markers name."),
					"topic_id":    computed("Its topic ID (Java form)."),
					"plan_id":     computed("The ID of the plan `data.flinkagents_cleanup_plan` derives from `path`."),
					"offsets": schema.MapAttribute{Computed: true, ElementType: types.Int64Type,
						MarkdownDescription: "Offsets by partition: the minimum over the point's recovery markers, as in a plan."},
					"error": computed("Why the point cannot be used (only with `ignore_unreadable`); null for a usable point."),
				}},
			},
		},
		Blocks: map[string]schema.Block{"timeouts": readTimeoutBlock(ctx)},
	}
}

func (d *recoveryPointsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
}

func (d *recoveryPointsDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.AtLeastOneOf(path.MatchRoot("checkpoint_dir"), path.MatchRoot("savepoint_dir")),
		datasourcevalidator.Conflicting(path.MatchRoot("operator_uid"), path.MatchRoot("operator_uid_hash")),
	}
}

func (d *recoveryPointsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m recoveryPointsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	cpDir, spDir := m.CheckpointDir.ValueString(), m.SavepointDir.ValueString()
	ctx, cancel, diags := withReadDeadline(ctx, m.Timeouts)
	defer cancel()
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	router, diags := newCheckpointStore(ctx, m.Storage, d.clients.Timeout())
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	defer router.Close()
	var store pointStore = router
	op := "listing recovery points in " + strings.Join(nonEmpty(cpDir, spDir), " and ")
	found, err := checkpoint.FindRecoveryPoints(ctx, store, cpDir, spDir)
	if errors.Is(err, checkpoint.ErrNotFound) {
		resp.Diagnostics.Append(diagnostics.RecoveryPointDirNotFound(op, err))
		return
	}
	if err != nil {
		resp.Diagnostics.Append(diagnostics.FromCheckpointError(op, err))
		return
	}
	if len(found) == 0 {
		resp.Diagnostics.Append(diagnostics.NoRecoveryPoints(op))
	}
	sel := checkpoint.Selector{UID: m.OperatorUID.ValueString(), UIDHash: m.OperatorUIDHash.ValueString()}
	m.Points = make([]recoveryPointModel, 0, len(found))
	var unreadable []string
	var readable []recoveryplan.Point
	byPath := make(map[string]recoveryPointModel, len(found))
	for _, p := range found {
		pm, derived, problem, stopped := readPoint(ctx, store, p, sel)
		if stopped {
			// The store did not answer or the read was cancelled: that is
			// not a property of this point, and the next would wait too.
			resp.Diagnostics.Append(problem)
			return
		}
		if problem != nil {
			if still, err := p.StillComplete(ctx, store); err == nil && !still {
				tflog.Info(ctx, "recovery point removed while being read; not listed", map[string]any{"path": p.Path})
				continue
			}
			if !m.IgnoreUnreadable.ValueBool() {
				resp.Diagnostics.Append(diagnostics.UnreadableRecoveryPoint(problem))
				return
			}
			unreadable = append(unreadable, p.Path)
			pm.Error = types.StringValue(problem.Detail())
		} else {
			readable = append(readable, recoveryplan.Point{RecoveryPoint: p, Result: derived})
			byPath[p.Path] = pm
		}
		m.Points = append(m.Points, pm)
	}
	if len(unreadable) > 0 {
		resp.Diagnostics.Append(diagnostics.UnreadableRecoveryPointsListed(unreadable))
	} else {
		if err := recoveryplan.OrderNewestFirst(readable); err != nil {
			resp.Diagnostics.Append(diagnostics.UnorderedRecoveryPoints(op, err))
			return
		}
		for i, p := range readable {
			m.Points[i] = byPath[p.Path]
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// readPoint reads one point's markers and merges them as a plan would. On
// failure it returns what is known without the markers and the diagnostic;
// stopped reports a read that timed out or was cancelled.
func readPoint(ctx context.Context, st checkpoint.Storage, p checkpoint.RecoveryPoint, sel checkpoint.Selector) (_ recoveryPointModel, _ recoveryplan.Result, _ diag.Diagnostic, stopped bool) {
	pm := recoveryPointModel{
		Path:         types.StringValue(p.Path),
		Kind:         types.StringValue(string(p.Kind)),
		CheckpointID: types.Int64Null(),
		ModifiedAt:   types.StringValue(p.ModTime.UTC().Format(time.RFC3339Nano)),
		Topic:        types.StringNull(),
		TopicID:      types.StringNull(),
		PlanID:       types.StringNull(),
		Offsets:      types.MapNull(types.Int64Type),
		Error:        types.StringNull(),
	}
	if p.Kind == checkpoint.KindCheckpoint {
		pm.CheckpointID = types.Int64Value(p.NameID)
	}
	op := fmt.Sprintf("reading recovery markers from %s %q", p.Kind, p.Path)
	derived, err := recoveryplan.FromPoint(ctx, st, p, sel)
	if derived.Read != nil {
		pm.CheckpointID = types.Int64Value(derived.Read.CheckpointID)
	}
	if err != nil {
		return pm, derived, diagnostics.FromPlanningError(op, err), errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
	}
	plan := derived.Plan
	pm.Topic = types.StringValue(plan.Topic)
	pm.TopicID = types.StringValue(plan.TopicID)
	pm.PlanID = types.StringValue(plan.ID())
	pm.Offsets = tfconv.Offsets(plan.Offsets)
	return pm, derived, nil, false
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}
