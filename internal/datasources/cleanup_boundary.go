package datasources

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

var (
	_ datasource.DataSource              = (*cleanupBoundaryDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*cleanupBoundaryDataSource)(nil)
)

// NewCleanupBoundary is the flinkagents_cleanup_boundary data source: what a
// control topic records, read the way the runtime reads it.
func NewCleanupBoundary() datasource.DataSource { return &cleanupBoundaryDataSource{} }

type cleanupBoundaryDataSource struct {
	clients *providerdata.Clients
}

type cleanupBoundaryDSModel struct {
	ControlTopic      types.String `tfsdk:"control_topic"`
	CommittedBoundary types.Map    `tfsdk:"committed_boundary"`
	LatestPlanID      types.String `tfsdk:"latest_plan_id"`
	Operations        types.List   `tfsdk:"operations"`
}

var operationType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"plan_id":               types.StringType,
	"status":                types.StringType,
	"source_recovery_point": types.StringType,
	"offsets":               types.MapType{ElemType: types.Int64Type},
}}

func (d *cleanupBoundaryDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cleanup_boundary"
}

func (d *cleanupBoundaryDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The cleanup history recorded in a control topic, validated with the runtime's rules (no tombstones, " +
			"one topic and partition set, comparable plans). Fails when the history is inconsistent, as a restore would. " +
			"Warns when the latest plan is only COMMITTED (an interrupted apply).",
		Attributes: map[string]schema.Attribute{
			"control_topic": schema.StringAttribute{Required: true, MarkdownDescription: "The control topic.",
				Validators: []validator.String{tfconv.TopicName()}},
			"committed_boundary": schema.MapAttribute{Computed: true, ElementType: types.Int64Type,
				MarkdownDescription: "The effective boundary by partition (keys in decimal): the highest offset of any recorded plan, " +
					"COMMITTED or APPLIED. Empty when nothing is recorded."},
			"latest_plan_id": schema.StringAttribute{Computed: true, MarkdownDescription: "The most recently recorded plan (null when none)."},
			"operations": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "Every recorded plan in order of first appearance, with its latest status.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"plan_id": schema.StringAttribute{Computed: true, MarkdownDescription: "The plan's ID."},
					"status": schema.StringAttribute{Computed: true,
						MarkdownDescription: "Its latest recorded status: `COMMITTED` (the runtime already refuses restores below it; " +
							"the deletion may be pending) or `APPLIED` (records below it deleted)."},
					"source_recovery_point": schema.StringAttribute{Computed: true,
						MarkdownDescription: "The checkpoint or savepoint path the plan was derived from."},
					"offsets": schema.MapAttribute{Computed: true, ElementType: types.Int64Type,
						MarkdownDescription: "The plan's offsets by partition (keys in decimal): the first record kept on each."},
				}},
			},
		},
	}
}

func (d *cleanupBoundaryDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
}

func (d *cleanupBoundaryDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m cleanupBoundaryDSModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	control := m.ControlTopic.ValueString()
	op := fmt.Sprintf("reading cleanup history from control topic %q", control)
	kafka, diags := d.clients.KafkaClient(ctx, op)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	log, err := cleanup.History(ctx, kafka, control)
	if err != nil {
		resp.Diagnostics.Append(d.clients.CleanupDiag(op, err))
		return
	}
	ops := log.Operations()
	elems := make([]attr.Value, 0, len(ops))
	for _, o := range ops {
		elems = append(elems, types.ObjectValueMust(operationType.AttrTypes, map[string]attr.Value{
			"plan_id":               types.StringValue(o.PlanID),
			"status":                types.StringValue(string(o.Status)),
			"source_recovery_point": types.StringValue(o.Plan.SourceRecoveryPoint),
			"offsets":               tfconv.Offsets(o.Plan.Offsets),
		}))
	}
	m.Operations = types.ListValueMust(operationType, elems)
	m.CommittedBoundary = tfconv.Offsets(log.Boundary())
	m.LatestPlanID = types.StringNull()
	if latest, ok := log.Latest(); ok {
		m.LatestPlanID = types.StringValue(latest.PlanID)
		if latest.Status == cleanupplan.StatusCommitted {
			resp.Diagnostics.Append(diagnostics.UnfinishedCleanupPlan(control, latest))
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
