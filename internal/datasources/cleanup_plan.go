package datasources

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpointstore"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/recoveryplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// The values of select.
const (
	selectOldest = "oldest"
	selectNewest = "newest"
)

// The values of on_unreadable.
const (
	onUnreadableFail = "fail"
	onUnreadableSkip = "skip"
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
	CheckpointDir        types.String   `tfsdk:"checkpoint_dir"`
	SavepointDir         types.String   `tfsdk:"savepoint_dir"`
	Select               types.String   `tfsdk:"select"`
	NthNewest            types.Int64    `tfsdk:"nth_newest"`
	OperatorUID          types.String   `tfsdk:"operator_uid"`
	OperatorUIDHash      types.String   `tfsdk:"operator_uid_hash"`
	OnUnreadable         types.String   `tfsdk:"on_unreadable"`
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
	RecoveryPoints       types.List     `tfsdk:"recovery_points"`
}

func (d *cleanupPlanDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cleanup_plan"
}

func (d *cleanupPlanDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A cleanup plan, derived natively from a Flink checkpoint or savepoint (no JVM), or parsed from a plan file " +
			"written by the Java tool: the same plan, plan ID and JSON bytes as the Java tool's `plan` command. With " +
			"`checkpoint_dir`/`savepoint_dir` it follows the job's recovery points.",
		Attributes: map[string]schema.Attribute{
			"plan_json": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "Input: an existing plan file's contents (for example `file(\"plan.json\")`), parsed strictly. " +
					"Output: the plan file exactly as the Java tool writes it; null while `checkpoint_dir`/`savepoint_dir` hold no complete " +
					"recovery point yet. Set this, `checkpoint_path`, or `checkpoint_dir`/`savepoint_dir`.",
			},
			"checkpoint_path": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "A retained checkpoint (`.../chk-42`), a savepoint directory, its `_metadata` file, a `file:` URI or an " +
					"object-store URI (see `storage`). The string as given becomes `source_recovery_point` (part of the plan ID). " +
					"For retained checkpoints, which Flink deletes, prefer `checkpoint_dir`.",
			},
			"checkpoint_dir": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Follow a job's retained checkpoints: the parent of its `chk-N` directories, as a path or URI. The plan " +
					"derives from the complete recovery point `select` or `nth_newest` chooses (default: the oldest). Must exist; while it " +
					"holds no complete point the plan attributes are null, with a warning.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"savepoint_dir": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "A directory holding `savepoint-*` directories (`state.savepoints.dir`), as for `checkpoint_dir`; " +
					"with both, their points are ordered together by their markers. An old savepoint kept here stays the oldest point.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"select": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "With `checkpoint_dir`/`savepoint_dir`: which complete recovery point the plan follows, `oldest` " +
					"(the default: every retained point stays restorable) or `newest` (cleans the most; only the newest stays restorable). " +
					"Points are ordered by their markers (see above), not by file times.",
				Validators: []validator.String{
					stringvalidator.OneOf(selectOldest, selectNewest),
					stringvalidator.ConflictsWith(path.MatchRoot("nth_newest")),
					choiceNeedsDirectory{},
				},
			},
			"nth_newest": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: "With `checkpoint_dir`/`savepoint_dir`: follow the Nth newest complete recovery point (1 is the " +
					"newest, 3 keeps the newest three restorable). With fewer than N points the oldest is followed, with a warning.",
				Validators: []validator.Int64{int64validator.AtLeast(1), choiceNeedsDirectory{}},
			},
			"operator_uid":      operatorUIDAttribute(),
			"operator_uid_hash": operatorUIDHashAttribute(),
			"on_unreadable": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "What a recovery point that cannot be read or chosen does: `fail` (the default) stops with the error; " +
					"`skip` leaves the plan attributes null and warns, naming the point, so one job's unreadable checkpoint does not stop a " +
					"fleet's cleanup. Configuration errors stay errors.",
				Validators: []validator.String{stringvalidator.OneOf(onUnreadableFail, onUnreadableSkip)},
			},
			"storage":  checkpointStorageAttribute(),
			"plan_id":  schema.StringAttribute{Computed: true, MarkdownDescription: "The plan ID."},
			"topic":    schema.StringAttribute{Computed: true, MarkdownDescription: "The action-state topic."},
			"topic_id": schema.StringAttribute{Computed: true, MarkdownDescription: "Its topic ID (Java form)."},
			"offsets":  schema.MapAttribute{Computed: true, ElementType: types.Int64Type, MarkdownDescription: "Offsets by partition (keys in decimal): the minimum over all markers."},
			"source_recovery_point": schema.StringAttribute{Computed: true, MarkdownDescription: "The recovery point the plan was derived from: " +
				"`checkpoint_path` as given, or the point chosen in `checkpoint_dir`/`savepoint_dir` (the directory string joined with its name)."},
			"checkpoint_id":          schema.Int64Attribute{Computed: true, MarkdownDescription: "The checkpoint ID recorded in `_metadata` of the point read (null for plan_json)."},
			"operator_id":            schema.StringAttribute{Computed: true, MarkdownDescription: "The operator the markers were read from, as 32 hex digits (null for plan_json)."},
			"marker_count":           schema.Int64Attribute{Computed: true, MarkdownDescription: "How many recovery markers the union state held (null for plan_json)."},
			"flink_metadata_version": schema.Int64Attribute{Computed: true, MarkdownDescription: "The `_metadata` format version (4: Flink 1.20, 5: 2.0, 6: 2.1+; null for plan_json)."},
			"recovery_points":        recoveryPointsAttribute(),
		},
		Blocks: map[string]schema.Block{"timeouts": readTimeoutBlock(ctx)},
	}
}

func (d *cleanupPlanDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
}

func (d *cleanupPlanDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.AtLeastOneOf(path.MatchRoot("plan_json"), path.MatchRoot("checkpoint_path"), path.MatchRoot("checkpoint_dir"), path.MatchRoot("savepoint_dir")),
		datasourcevalidator.Conflicting(path.MatchRoot("plan_json"), path.MatchRoot("checkpoint_path"), path.MatchRoot("checkpoint_dir")),
		datasourcevalidator.Conflicting(path.MatchRoot("plan_json"), path.MatchRoot("checkpoint_path"), path.MatchRoot("savepoint_dir")),
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
	if !m.PlanJSONIn.IsNull() {
		plan, err := cleanupplan.Parse([]byte(m.PlanJSONIn.ValueString()))
		if err != nil {
			resp.Diagnostics.Append(diagnostics.MalformedPlan(path.Root("plan_json"), err))
			return
		}
		m.setPlan(&plan, nil)
		m.RecoveryPoints = types.ListNull(tfconv.RecoveryPointType)
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
		return
	}
	m.RecoveryPoints = types.ListNull(tfconv.RecoveryPointType)
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
	sel := checkpoint.Selector{UID: m.OperatorUID.ValueString(), UIDHash: m.OperatorUIDHash.ValueString()}
	var derived recoveryplan.Result
	var read diag.Diagnostics
	ok := true
	if !m.CheckpointPath.IsNull() {
		src := m.CheckpointPath.ValueString()
		var err error
		derived, err = recoveryplan.FromPath(readCtx, store, src, sel)
		logCheckpointReads(ctx, store, src)
		if err != nil {
			read.Append(diagnostics.FromCheckpointPathError(fmt.Sprintf("reading recovery markers from %q", src), src, err))
			ok = false
		}
	} else {
		derived, m.RecoveryPoints, ok, read = followDirs(readCtx, store, followSpec{
			checkpointDir: m.CheckpointDir.ValueString(), savepointDir: m.SavepointDir.ValueString(),
			follow: followChoice(m.Select, m.NthNewest), sel: sel, noPoint: diagnostics.NoRecoveryPointToFollow,
		})
	}
	if m.OnUnreadable.ValueString() == onUnreadableSkip {
		read = skipUnreadable(read)
	}
	if resp.Diagnostics.Append(read...); resp.Diagnostics.HasError() {
		return
	}
	if !ok {
		m.setPlan(nil, nil) // nothing to follow yet, or a point skipped: null plan, with the warning
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
		return
	}
	res := derived.Read
	tflog.Debug(ctx, "read recovery markers", map[string]any{"metadata": res.MetadataPath, "operator_id": res.OperatorID, "markers": len(res.Markers), "metadata_version": res.MetadataVersion})
	m.setPlan(&derived.Plan, res)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// followSpec is one job's directories and which of their points to follow.
type followSpec struct {
	checkpointDir, savepointDir string
	follow                      recoveryplan.Follow
	sel                         checkpoint.Selector
	// noPoint warns that the directories hold no complete point yet; its
	// advice names the attribute that stays null, which differs between
	// the data sources.
	noPoint func(op string, err error) diag.Diagnostic
}

// followChoice is the Follow that select and nth_newest ask for.
func followChoice(sel types.String, nthNewest types.Int64) recoveryplan.Follow {
	var f recoveryplan.Follow
	switch {
	case !nthNewest.IsNull():
		f.NthNewest = int(nthNewest.ValueInt64())
	case sel.ValueString() == selectNewest:
		f.NthNewest = 1
	}
	return f
}

// followDirs derives the plan of the recovery point a job's directories
// lead to; ok is false with no plan (diags says why: an error, or a warning
// when there is no point yet). points is recovery_points: every complete
// point found, empty while there is none, null when reading failed.
func followDirs(ctx context.Context, store *checkpointstore.Router, spec followSpec) (derived recoveryplan.Result, points types.List, ok bool, diags diag.Diagnostics) {
	cpDir, spDir, f := spec.checkpointDir, spec.savepointDir, spec.follow
	points = types.ListNull(tfconv.RecoveryPointType)
	op := "choosing a recovery point in " + strings.Join(nonEmpty(cpDir, spDir), " and ")
	derived, chosen, err := recoveryplan.FromDirs(ctx, store, cpDir, spDir, f, spec.sel)
	logCheckpointReads(ctx, store, chosen.Point.Path)
	switch {
	case errors.Is(err, recoveryplan.ErrNoRecoveryPoints):
		diags.Append(spec.noPoint(op, err))
		return derived, tfconv.RecoveryPoints(nil), false, diags
	case errors.Is(err, cleanupplan.ErrUnorderedRecoveryPoints):
		diags.Append(diagnostics.UnorderedRecoveryPoints(op, err))
		return derived, points, false, diags
	case errors.Is(err, recoveryplan.ErrRetiredWhileReading):
		diags.Append(diagnostics.RecoveryPointsRetiredWhileReading(op, err))
		return derived, points, false, diags
	case err != nil && chosen.Point.Path == "" && errors.Is(err, checkpoint.ErrNotFound):
		diags.Append(diagnostics.RecoveryPointDirNotFound(op, err))
		return derived, points, false, diags
	case err != nil && chosen.Point.Path == "":
		diags.Append(diagnostics.FromCheckpointError(op, err))
		return derived, points, false, diags
	case err != nil:
		diags.Append(diagnostics.FromPlanningError(fmt.Sprintf("reading recovery markers from %s %q, one of the %d recovery points "+
			"listed (%s; every point is read, so that none is made unrestorable)", chosen.Point.Kind, chosen.Point.Path, chosen.Listed, op), err))
		return derived, points, false, diags
	}
	if chosen.Clamped {
		diags.Append(diagnostics.FewerRecoveryPointsThanNthNewest(f.NthNewest, chosen.Listed, chosen.Point.Path))
	}
	tflog.Info(ctx, "following a recovery point", map[string]any{"path": chosen.Point.Path, "position": chosen.Position, "listed": chosen.Listed})
	return derived, tfconv.RecoveryPoints(chosen.Points), true, diags
}

// operatorUIDAttribute and operatorUIDHashAttribute name the agent
// operator a plan is read from, in both cleanup plan data sources.
func operatorUIDAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "The agent operator's uid, as set with `.uid()`; hashed as Flink does. Omit both operator fields to find the one operator holding recovery markers.",
	}
}

func operatorUIDHashAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "The agent operator's ID as 32 hex digits (Flink's uid hash).",
		Validators:          []validator.String{uidHashValidator},
	}
}

// skipUnreadable turns each error of reading recovery points into a
// warning, for on_unreadable = "skip": the plan is then null.
func skipUnreadable(read diag.Diagnostics) diag.Diagnostics {
	out := make(diag.Diagnostics, 0, len(read))
	for _, d := range read {
		if d.Severity() == diag.SeverityError {
			d = diagnostics.SkippedUnreadablePlan(d)
		}
		out = append(out, d)
	}
	return out
}

// setPlan fills the computed attributes from plan (nil: all null) and
// from what was read to derive it (nil for plan_json).
func (m *cleanupPlanModel) setPlan(plan *cleanupplan.Plan, read *checkpoint.Result) {
	if plan == nil {
		m.PlanJSONIn, m.PlanID, m.Topic, m.TopicID, m.SourceRecoveryPoint = types.StringNull(), types.StringNull(), types.StringNull(), types.StringNull(), types.StringNull()
		m.Offsets = types.MapNull(types.Int64Type)
	} else {
		m.PlanJSONIn = types.StringValue(string(plan.File()))
		m.PlanID = types.StringValue(plan.ID())
		m.Topic = types.StringValue(plan.Topic)
		m.TopicID = types.StringValue(plan.TopicID)
		m.SourceRecoveryPoint = types.StringValue(plan.SourceRecoveryPoint)
		m.Offsets = tfconv.Offsets(plan.Offsets)
	}
	if read == nil {
		m.CheckpointID, m.OperatorID, m.MarkerCount, m.FlinkMetadataVersion = types.Int64Null(), types.StringNull(), types.Int64Null(), types.Int64Null()
		return
	}
	m.CheckpointID = types.Int64Value(read.CheckpointID)
	m.OperatorID = types.StringValue(read.OperatorID)
	m.MarkerCount = types.Int64Value(int64(len(read.Markers)))
	m.FlinkMetadataVersion = types.Int64Value(int64(read.MetadataVersion))
}

// choiceNeedsDirectory refuses select and nth_newest without a directory to
// choose in (the validators package can require all of several attributes,
// not one of them).
type choiceNeedsDirectory struct{}

var (
	_ validator.String = choiceNeedsDirectory{}
	_ validator.Int64  = choiceNeedsDirectory{}
)

func (choiceNeedsDirectory) Description(context.Context) string {
	return "requires checkpoint_dir or savepoint_dir"
}

func (v choiceNeedsDirectory) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v choiceNeedsDirectory) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if !req.ConfigValue.IsNull() {
		v.check(ctx, req.Config, req.Path, &resp.Diagnostics)
	}
}

func (v choiceNeedsDirectory) ValidateInt64(ctx context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	if !req.ConfigValue.IsNull() {
		v.check(ctx, req.Config, req.Path, &resp.Diagnostics)
	}
}

func (choiceNeedsDirectory) check(ctx context.Context, config tfsdk.Config, attr path.Path, diags *diag.Diagnostics) {
	for _, dir := range []string{"checkpoint_dir", "savepoint_dir"} {
		var v types.String
		diags.Append(config.GetAttribute(ctx, path.Root(dir), &v)...)
		if !v.IsNull() || diags.HasError() {
			return // set, or unknown until apply
		}
	}
	diags.Append(diagnostics.ChoiceWithoutDirectory(attr))
}
