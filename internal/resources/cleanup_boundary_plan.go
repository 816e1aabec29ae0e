package resources

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

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
		plan.RecordsToDelete = state.RecordsToDelete
		plan.Partitions = state.Partitions
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
		return
	}
	plan.RecordsToDelete = types.Int64Unknown()
	plan.Partitions = types.MapUnknown(types.StringType)
	if r.clients != nil && !plan.ControlTopic.IsUnknown() {
		r.preview(ctx, &plan, p, &resp.Diagnostics)
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// preview fills records_to_delete and partitions from the live topics, and
// refuses at plan time what Apply would refuse. Topics that do not exist
// yet (created in the same apply) leave the preview unknown.
func (r *boundaryResource) preview(ctx context.Context, plan *boundaryModel, p cleanupplan.Plan, diags *diag.Diagnostics) {
	kafka := previewClient(ctx, r.clients, fmt.Sprintf("planning cleanup boundary %s in control topic %q", p.ID(), plan.ControlTopic.ValueString()), diags)
	if kafka == nil {
		return
	}
	pv, ok := previewBoundary(ctx, r.clients, kafka, p, plan.ControlTopic.ValueString(), diags)
	if !ok {
		return
	}
	if plan.ControlTopicID.IsUnknown() {
		plan.ControlTopicID = types.StringValue(pv.ControlTopicID)
	}
	plan.RecordsToDelete = types.Int64Value(pv.RecordsToDelete)
	plan.Partitions = tfconv.PartitionSummaries(p.Offsets, pv.Target, pv.Ranges, pv.GonePast)
}

// previewClient is the Kafka client for plan-time previews, or nil: when
// the provider's connection is not known yet (the previews stay unknown
// until apply), or on an error, in diags, that op names.
func previewClient(ctx context.Context, clients *providerdata.Clients, op string, diags *diag.Diagnostics) *kafkaops.Client {
	if clients == nil {
		return nil
	}
	kafka, err := clients.Kafka(ctx)
	var unavailable *providerdata.UnavailableError
	if errors.As(err, &unavailable) {
		return nil
	}
	if err != nil {
		diags.Append(clients.KafkaDiag(op, err))
		return nil
	}
	return kafka
}

// previewBoundary is what applying plan p through control would delete
// now, and the refusals of that apply made at plan time, for
// flinkagents_cleanup_boundary and each entry of
// flinkagents_cleanup_boundaries. ok is false on an error (in diags), and
// when a topic does not exist yet (created in the same apply): the preview
// stays unknown.
func previewBoundary(ctx context.Context, clients *providerdata.Clients, kafka *kafkaops.Client, p cleanupplan.Plan, control string, diags *diag.Diagnostics) (cleanup.Preview, bool) {
	pv, err := cleanup.PreviewApply(ctx, kafka, p, control)
	if errors.Is(err, kafkaops.ErrTopicNotFound) {
		tflog.Info(ctx, "cleanup boundary preview unknown: a topic does not exist yet", map[string]any{"control_topic": control, "error": err.Error()})
		return pv, false
	}
	if err != nil {
		diags.Append(clients.CleanupDiag(fmt.Sprintf("planning cleanup boundary %s in control topic %q", p.ID(), control), err))
		return pv, false
	}
	if len(pv.GonePast) > 0 {
		diags.Append(diagnostics.RecordsGonePastBoundary(p.Topic, pv.GonePast))
	}
	return pv, true
}
