package resources

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
)

// ModifyPlan plans the boundary as each entry of the fleet's resource is
// planned (boundary_entry_plan.go), refusing with an error what an entry
// there would hold, and checks recovery_points against the boundary the
// apply completes.
func (r *boundaryResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		resp.Diagnostics.Append(diagnostics.BoundariesArePermanent())
		return
	}
	var plan, config boundaryModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	var state *boundaryModel
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	pl := entryPlanning{entryRules: singleRules, at: path.Empty(), configured: config.boundaryEntry}
	if state != nil {
		pl.prior = &state.boundaryEntry
		if f, read := factsOf(ctx, req.Private)[""]; read {
			pl.facts = &f
		}
	}
	pl.planStatic(r.clients, &plan.boundaryEntry, &resp.Diagnostics)
	if pl.next != entryDone && !resp.Diagnostics.HasError() {
		kafka := previewClient(ctx, r.clients, "planning cleanup boundary in control topic "+plan.ControlTopic.String(), &resp.Diagnostics)
		pl.planLive(ctx, r.clients, kafka, &plan.boundaryEntry, &resp.Diagnostics)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if !plan.ControlTopic.IsUnknown() {
		plan.ID = plan.ControlTopic
	}
	plan.setPlanFields()
	plan.planRestorable(ctx, config.RecoveryPoints, pl.target, &resp.Diagnostics)
	if state != nil && unchanged(pl.prior, plan.boundaryEntry) {
		// The review of the change that recorded this boundary stands: the
		// points Flink retires since must not plan a change (the checks of
		// keep_restorable above ran all the same).
		plan.UnrestorablePoints = state.UnrestorablePoints
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// setPlanFields fills topic, topic_id and source_recovery_point from
// plan_json: null without a plan, unknown while it is.
func (m *boundaryModel) setPlanFields() {
	switch {
	case m.PlanJSON.IsUnknown():
		m.Topic, m.TopicID, m.SourceRecoveryPoint = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
		return
	case m.PlanJSON.IsNull():
		m.Topic, m.TopicID, m.SourceRecoveryPoint = types.StringNull(), types.StringNull(), types.StringNull()
		return
	}
	p, err := cleanupplan.Parse([]byte(m.PlanJSON.ValueString()))
	if err != nil {
		m.Topic, m.TopicID, m.SourceRecoveryPoint = types.StringNull(), types.StringNull(), types.StringNull()
		return
	}
	m.Topic = types.StringValue(p.Topic)
	m.TopicID = types.StringValue(p.TopicID)
	m.SourceRecoveryPoint = types.StringValue(p.SourceRecoveryPoint)
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
