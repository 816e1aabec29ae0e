package datasources

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpointstore"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/fanout"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/recoveryplan"
)

// jobsReadAtOnce bounds how many jobs are read concurrently. Reading a job
// is storage round trips (which overlap well) and parsing _metadata (CPU,
// which does not on a small runner); each job's read already runs its own
// ranged reads in parallel (checkpointstore's Concurrency). 16 read 1,000
// jobs on S3 no faster than 8 on two cores (8-11 s against 7-11 s inside a
// plan): there the CPU is the limit. At 10,000 jobs the round trips are:
// a job was a listing and a stat and a read per retained point, about six
// in turn, so 8 at a time was some 7,500 round trips one after another
// (over 6 minutes on the S3 emulator, whose listings slow down with the
// bucket; at 30 ms a round trip, close to 4 on a cloud store). (A listed
// point is now read without the stat: checkpoint.ReadPointMarkers.) A job's
// read holds one _metadata at a time, so 32 cost little memory.
const jobsReadAtOnce = 32

var (
	_ datasource.DataSource              = (*cleanupPlansDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*cleanupPlansDataSource)(nil)
)

// NewCleanupPlans is the flinkagents_cleanup_plans data source: the plans
// of many jobs followed in one read, so that a fleet is one object in
// Terraform's graph instead of one flinkagents_cleanup_plan per job.
func NewCleanupPlans() datasource.DataSource { return &cleanupPlansDataSource{} }

type cleanupPlansDataSource struct {
	clients *providerdata.Clients // only for the provider's timeout
}

type cleanupPlansModel struct {
	Jobs         map[string]cleanupPlansJobModel `tfsdk:"jobs"`
	Select       types.String                    `tfsdk:"select"`
	NthNewest    types.Int64                     `tfsdk:"nth_newest"`
	OnUnreadable types.String                    `tfsdk:"on_unreadable"`
	Storage      types.Object                    `tfsdk:"storage"`  // checkpoint_storage.go
	Timeouts     timeouts.Value                  `tfsdk:"timeouts"` // checkpoint_timeouts.go
	Plans        types.Map                       `tfsdk:"plans"`
	PlanIDs      types.Map                       `tfsdk:"plan_ids"`
}

type cleanupPlansJobModel struct {
	CheckpointDir   types.String `tfsdk:"checkpoint_dir"`
	SavepointDir    types.String `tfsdk:"savepoint_dir"`
	OperatorUID     types.String `tfsdk:"operator_uid"`
	OperatorUIDHash types.String `tfsdk:"operator_uid_hash"`
}

func (d *cleanupPlansDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cleanup_plans"
}

func (d *cleanupPlansDataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The cleanup plans of many jobs, each following the job's checkpoint and savepoint directories as " +
			"`flinkagents_cleanup_plan` does, in one read: one object in Terraform's graph for a whole fleet. Each plan is the " +
			"same JSON that `flinkagents_cleanup_plan` gives for the same directories.",
		Attributes: map[string]schema.Attribute{
			"jobs": schema.MapNestedAttribute{
				Required: true,
				MarkdownDescription: "The jobs to plan for, keyed by any name you choose (the key of `plans`, and the name each " +
					"diagnostic gives the job).",
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"checkpoint_dir": schema.StringAttribute{
							Optional:            true,
							MarkdownDescription: "The job's retained checkpoints: the parent of its `chk-N` directories, as a path or URI. Set this, `savepoint_dir`, or both.",
							Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
						},
						"savepoint_dir": schema.StringAttribute{
							Optional:            true,
							MarkdownDescription: "A directory holding the job's `savepoint-*` directories; with `checkpoint_dir`, their points are ordered together by their markers.",
							Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
						},
						"operator_uid":      operatorUIDAttribute(),
						"operator_uid_hash": operatorUIDHashAttribute(),
					},
					Validators: []validator.Object{jobRules{}},
				},
			},
			"select": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Which complete recovery point each job's plan follows: `oldest` (the default: every retained point " +
					"stays restorable) or `newest` (cleans the most). Points are ordered by their markers, not by file times.",
				Validators: []validator.String{
					stringvalidator.OneOf(selectOldest, selectNewest),
					stringvalidator.ConflictsWith(path.MatchRoot("nth_newest")),
				},
			},
			"nth_newest": schema.Int64Attribute{
				Optional: true,
				MarkdownDescription: "Follow each job's Nth newest complete recovery point (1 is the newest). A job with fewer than " +
					"N points follows its oldest, with a warning.",
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"on_unreadable": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "What a job whose recovery point cannot be read or chosen does: `fail` (the default) stops the " +
					"read with the error; `skip` leaves the job out of `plans` and warns, naming the job and the point, so one job's " +
					"unreadable checkpoint does not stop the fleet's cleanup. Configuration errors stay errors.",
				Validators: []validator.String{stringvalidator.OneOf(onUnreadableFail, onUnreadableSkip)},
			},
			"storage": checkpointStorageAttribute(),
			"plans": schema.MapAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "Each job's plan file, exactly as `flinkagents_cleanup_plan`'s `plan_json` (and the Java tool) " +
					"writes it, by job key. A job with no complete recovery point yet, or skipped, has no key.",
			},
			"plan_ids": schema.MapAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "The plan ID of each plan in `plans`, by job key.",
			},
		},
		Blocks: map[string]schema.Block{"timeouts": readTimeoutBlock(ctx)},
	}
}

func (d *cleanupPlansDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
}

func (d *cleanupPlansDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m cleanupPlansModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
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
	plans, ids := map[string]attr.Value{}, map[string]attr.Value{}
	for _, job := range m.followJobs(readCtx, store) {
		if resp.Diagnostics.Append(job.diags...); job.ok {
			plans[job.key] = types.StringValue(string(job.derived.Plan.File()))
			ids[job.key] = types.StringValue(job.derived.Plan.ID())
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	m.Plans, m.PlanIDs = types.MapValueMust(types.StringType, plans), types.MapValueMust(types.StringType, ids)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// jobPlan is one job's outcome: its plan when ok, and its diagnostics, each
// naming the job.
type jobPlan struct {
	key     string
	derived recoveryplan.Result
	ok      bool
	diags   diag.Diagnostics
}

// followJobs follows every job's directories, jobsReadAtOnce at a time,
// sharing store (safe for concurrent use, and it opens each bucket once).
// The outcomes are in key order, whatever order the reads finish in, so
// the diagnostics are the same from run to run.
func (m *cleanupPlansModel) followJobs(ctx context.Context, store *checkpointstore.Router) []jobPlan {
	keys := slices.Sorted(maps.Keys(m.Jobs))
	out := make([]jobPlan, len(keys))
	fanout.Each(len(keys), jobsReadAtOnce, func(i int) {
		out[i] = m.followJob(tflog.SetField(ctx, "job", keys[i]), store, keys[i])
	})
	return out
}

// followJob is one job's plan, as flinkagents_cleanup_plan follows it.
func (m *cleanupPlansModel) followJob(ctx context.Context, store *checkpointstore.Router, key string) jobPlan {
	j := m.Jobs[key]
	derived, _, ok, read := followDirs(ctx, store, followSpec{
		checkpointDir: j.CheckpointDir.ValueString(), savepointDir: j.SavepointDir.ValueString(),
		follow: followChoice(m.Select, m.NthNewest),
		sel:    checkpoint.Selector{UID: j.OperatorUID.ValueString(), UIDHash: j.OperatorUIDHash.ValueString()},
		// The plural's own advice: the job has no key in plans meanwhile.
		noPoint: diagnostics.NoRecoveryPointForJob(key),
	})
	if m.OnUnreadable.ValueString() == onUnreadableSkip {
		read = skipUnreadable(read)
	}
	out := jobPlan{key: key, derived: derived, ok: ok}
	for _, d := range read {
		out.diags.Append(diagnostics.ForJob(key, path.Root("jobs").AtMapKey(key), d))
	}
	return out
}

// jobRules refuses, per job, what the validators package can only check
// at the root: neither directory, or both operator fields. Each refusal
// names the job's key.
type jobRules struct{}

var _ validator.Object = jobRules{}

func (jobRules) Description(context.Context) string {
	return "requires checkpoint_dir or savepoint_dir, and at most one of operator_uid and operator_uid_hash"
}

func (v jobRules) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (jobRules) ValidateObject(ctx context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	var j cleanupPlansJobModel
	if resp.Diagnostics.Append(req.ConfigValue.As(ctx, &j, basetypes.ObjectAsOptions{})...); resp.Diagnostics.HasError() {
		return
	}
	key := jobKey(req.Path)
	if j.CheckpointDir.IsNull() && j.SavepointDir.IsNull() {
		resp.Diagnostics.Append(diagnostics.JobWithoutDirectory(req.Path, key))
	}
	if !j.OperatorUID.IsNull() && !j.OperatorUIDHash.IsNull() {
		resp.Diagnostics.Append(diagnostics.JobOperatorFieldsConflict(req.Path, key))
	}
}

// jobKey is the map key p (jobs["orders"]) ends in.
func jobKey(p path.Path) string {
	step, _ := p.Steps().LastStep()
	if key, ok := step.(path.PathStepElementKeyString); ok {
		return string(key)
	}
	return p.String()
}
