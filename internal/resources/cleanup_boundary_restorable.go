package resources

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// The boundary's view of the recovery points it may make unrestorable:
// recovery_points in, keep_restorable as the rule, unrestorable_points out.

// unrestorablePointType is one entry of unrestorable_points.
var unrestorablePointType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"path":   types.StringType,
	"reason": types.StringType,
}}

// recoveryPointInput is one element of recovery_points
// (tfconv.RecoveryPointType).
type recoveryPointInput struct {
	Path         types.String `tfsdk:"path"`
	Kind         types.String `tfsdk:"kind"`
	CheckpointID types.Int64  `tfsdk:"checkpoint_id"`
	Topic        types.String `tfsdk:"topic"`
	TopicID      types.String `tfsdk:"topic_id"`
	Offsets      types.Map    `tfsdk:"offsets"`
}

func restorableAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"recovery_points": schema.ListNestedAttribute{
			Optional: true, WriteOnly: true,
			MarkdownDescription: "The recovery points to check this boundary against, usually " +
				"`data.flinkagents_cleanup_plan.<name>.recovery_points`; those it makes unrestorable are in `unrestorable_points`. " +
				"Write-only (Terraform 1.11+): never stored, so a new checkpoint plans no change.",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"path":          schema.StringAttribute{Required: true, WriteOnly: true, MarkdownDescription: "The point's path, as `keep_restorable` matches it."},
				"kind":          schema.StringAttribute{Optional: true, WriteOnly: true, MarkdownDescription: "`checkpoint` or `savepoint` (informational)."},
				"checkpoint_id": schema.Int64Attribute{Optional: true, WriteOnly: true, MarkdownDescription: "Its checkpoint ID (informational)."},
				"topic":         schema.StringAttribute{Required: true, WriteOnly: true, MarkdownDescription: "The action-state topic its markers name."},
				"topic_id":      schema.StringAttribute{Required: true, WriteOnly: true, MarkdownDescription: "Its topic ID (Java form)."},
				"offsets": schema.MapAttribute{Required: true, WriteOnly: true, ElementType: types.Int64Type,
					MarkdownDescription: "Its markers by partition (the minimum over the point's markers)."},
			}},
		},
		"keep_restorable": schema.ListAttribute{
			Optional: true, ElementType: types.StringType,
			MarkdownDescription: "Paths or path prefixes of recovery points that must stay restorable, matched against " +
				"`recovery_points[*].path`. `terraform plan` refuses a boundary that makes a matching point unrestorable, and an entry " +
				"that matches no point.",
			Validators: []validator.List{
				listvalidator.AlsoRequires(path.MatchRoot("recovery_points")),
				listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
			},
		},
		"unrestorable_points": schema.ListNestedAttribute{
			Computed: true,
			MarkdownDescription: "Known at plan time: the points of `recovery_points` the runtime would refuse to restore once this " +
				"boundary is recorded, with the reason. Empty when every point stays restorable; null without `recovery_points`.",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"path":   schema.StringAttribute{Computed: true, MarkdownDescription: "The point's path."},
				"reason": schema.StringAttribute{Computed: true, MarkdownDescription: "Why a restore from it would be refused."},
			}},
		},
	}
}

// planRestorable fills unrestorable_points from the configured
// recovery_points (write-only: read here, never stored, so a new checkpoint
// plans no change) for the boundary the apply completes: the plan, or,
// where target (the previewed effective boundary) is higher because a
// higher plan is recorded and not applied, target. It refuses a boundary
// that makes a point matching keep_restorable unrestorable, and a
// keep_restorable entry that matches no point. Unknown inputs leave the
// list unknown: Terraform plans again with them known before applying, and
// the check runs then.
func (m *boundaryModel) planRestorable(ctx context.Context, points types.List, target cleanupplan.Offsets, diags *diag.Diagnostics) {
	m.RecoveryPoints = types.ListNull(tfconv.RecoveryPointType)
	switch {
	case points.IsNull():
		m.UnrestorablePoints = types.ListNull(unrestorablePointType)
		return
	case points.IsUnknown() || m.KeepRestorable.IsUnknown() || m.PlanJSON.IsUnknown():
		m.UnrestorablePoints = types.ListUnknown(unrestorablePointType)
		return
	case m.PlanJSON.IsNull():
		m.UnrestorablePoints = types.ListValueMust(unrestorablePointType, []attr.Value{})
		return
	}
	p, err := cleanupplan.Parse([]byte(m.PlanJSON.ValueString()))
	if err != nil {
		return // refused by the plan already
	}
	planID, source := p.ID(), p.SourceRecoveryPoint
	if target != nil {
		p.Offsets = target
	}
	var inputs []recoveryPointInput
	var keep []types.String
	diags.Append(points.ElementsAs(ctx, &inputs, false)...)
	diags.Append(m.KeepRestorable.ElementsAs(ctx, &keep, true)...)
	if diags.HasError() {
		return
	}
	matched := make([]bool, len(keep))
	unrestorable := []attr.Value{}
	for i, in := range inputs {
		if in.Path.IsUnknown() || in.Topic.IsUnknown() || in.TopicID.IsUnknown() || in.Offsets.IsUnknown() {
			m.UnrestorablePoints = types.ListUnknown(unrestorablePointType)
			return
		}
		at := path.Root("recovery_points").AtListIndex(i)
		point, ok := pointPlan(ctx, at, in, diags)
		if !ok {
			return
		}
		var kept []string
		for k, prefix := range keep {
			if !prefix.IsUnknown() && strings.HasPrefix(point.SourceRecoveryPoint, prefix.ValueString()) {
				matched[k] = true
				kept = append(kept, prefix.ValueString())
			}
		}
		refusal, refused := p.RefusesRestoreOf(point)
		if !refused {
			continue
		}
		unrestorable = append(unrestorable, types.ObjectValueMust(unrestorablePointType.AttrTypes, map[string]attr.Value{
			"path": types.StringValue(point.SourceRecoveryPoint), "reason": types.StringValue(refusal.Reason),
		}))
		if len(kept) > 0 {
			diags.Append(diagnostics.BoundaryWouldMakeKeptPointUnrestorable(planID, source, point.SourceRecoveryPoint, kept[0], refusal))
		}
	}
	for k, prefix := range keep {
		if !prefix.IsUnknown() && !matched[k] {
			diags.Append(diagnostics.KeepRestorableMatchesNoPoint(path.Root("keep_restorable").AtListIndex(k), prefix.ValueString(), len(inputs)))
		}
	}
	m.UnrestorablePoints = types.ListValueMust(unrestorablePointType, unrestorable)
}

// pointPlan validates one recovery_points element as the plan its markers
// would make (the same rules as a plan's), so a malformed point is refused
// instead of silently compared.
func pointPlan(ctx context.Context, at path.Path, in recoveryPointInput, diags *diag.Diagnostics) (cleanupplan.Plan, bool) {
	var raw map[string]int64
	if d := in.Offsets.ElementsAs(ctx, &raw, false); d.HasError() {
		diags.Append(d...)
		return cleanupplan.Plan{}, false
	}
	offsets, err := tfconv.ParseOffsets(raw)
	if err == nil {
		var point cleanupplan.Plan
		if point, err = cleanupplan.New(in.Path.ValueString(), in.Topic.ValueString(), in.TopicID.ValueString(), offsets); err == nil {
			return point, true
		}
	}
	diags.Append(diagnostics.InvalidRecoveryPointInput(at, in.Path.ValueString(), err))
	return cleanupplan.Plan{}, false
}
