package resources

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// ModifyPlan plans each entry as flinkagents_cleanup_boundary plans one:
// the plan parsed strictly and bound to its topic, an unchanged APPLIED
// entry kept as it was read (no drift noise), and every other entry
// previewed against the live topics, which refuses here what its apply
// would refuse (a backward move, a recreated topic).
func (r *boundariesResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		resp.Diagnostics.Append(diagnostics.BoundariesArePermanent())
		return
	}
	var plan, config boundariesModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	var state *boundariesModel
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	if resp.Diagnostics.HasError() || !wholeEntries(plan.Boundaries) || !wholeEntries(config.Boundaries) {
		return // an entry unknown as a whole: its values stay unknown until apply
	}
	plan.ID = types.StringValue(boundariesID)
	planned := entriesOf(ctx, plan.Boundaries, &resp.Diagnostics)
	configured := entriesOf(ctx, config.Boundaries, &resp.Diagnostics)
	prior := map[string]boundaryEntry{}
	if state != nil {
		prior = entriesOf(ctx, state.Boundaries, &resp.Diagnostics)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if gone := forgottenKeys(prior, planned); len(gone) > 0 {
		resp.Diagnostics.Append(diagnostics.BoundaryEntriesForgotten(gone))
	}

	type toPreview struct {
		key  string
		plan cleanupplan.Plan
	}
	var previews []toPreview
	for _, key := range slices.Sorted(maps.Keys(planned)) {
		e := planned[key]
		p, ok := r.planEntry(key, &e, configured[key], &resp.Diagnostics)
		if !ok {
			planned[key] = e
			continue
		}
		if before, had := prior[key]; had && unchangedEntry(before, e) {
			e.ControlTopicID, e.RecordsToDelete, e.Partitions = before.ControlTopicID, before.RecordsToDelete, before.Partitions
			planned[key] = e
			continue
		}
		e.RecordsToDelete = types.Int64Unknown()
		e.Partitions = types.MapUnknown(types.StringType)
		e.ControlTopicID = types.StringUnknown()
		if before, had := prior[key]; had && before.ControlTopic.Equal(e.ControlTopic) {
			e.ControlTopicID = before.ControlTopicID
		}
		planned[key] = e
		if !e.ControlTopic.IsUnknown() {
			previews = append(previews, toPreview{key, p})
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}

	if kafka := previewClient(ctx, r.clients, "planning cleanup boundaries", &resp.Diagnostics); kafka != nil && len(previews) > 0 {
		found := make([]boundaryEntry, len(previews))
		said := make([]diag.Diagnostics, len(previews))
		eachEntry(len(previews), func(i int) {
			found[i] = planned[previews[i].key]
			r.previewEntry(ctx, kafka, &found[i], previews[i].plan, &said[i])
		})
		for i, pv := range previews {
			planned[pv.key] = found[i]
			for _, d := range said[i] {
				resp.Diagnostics.Append(forEntry(pv.key, d))
			}
		}
	}
	plan.Boundaries = entriesValue(ctx, planned, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// planEntry fills what an entry's plan alone decides; ok is false when the
// plan is unknown until apply or was refused (diags says why).
func (r *boundariesResource) planEntry(key string, e *boundaryEntry, configured boundaryEntry, diags *diag.Diagnostics) (cleanupplan.Plan, bool) {
	if e.PlanJSON.IsUnknown() {
		e.PlanID, e.Status, e.ControlTopicID = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
		e.RecordsToDelete, e.Partitions = types.Int64Unknown(), types.MapUnknown(types.StringType)
		if configured.ActionStateTopic.IsNull() {
			e.ActionStateTopic = types.StringUnknown()
		}
		return cleanupplan.Plan{}, false
	}
	p, err := cleanupplan.Parse([]byte(e.PlanJSON.ValueString()))
	if err != nil {
		diags.Append(diagnostics.MalformedPlan(entryPath(key).AtName("plan_json"), err))
		return cleanupplan.Plan{}, false
	}
	switch bound := configured.ActionStateTopic; {
	case bound.IsUnknown():
	case bound.IsNull():
		e.ActionStateTopic = types.StringValue(p.Topic)
	case bound.ValueString() != p.Topic:
		diags.Append(diagnostics.PlanCleansAnotherTopic(entryPath(key).AtName("plan_json"), p.Topic, bound.ValueString()))
		return cleanupplan.Plan{}, false
	}
	e.PlanID = types.StringValue(p.ID())
	e.Status = types.StringValue(string(cleanupplan.StatusApplied))
	if !e.ControlTopic.IsUnknown() && r.clients != nil {
		// One history per control topic: two entries (or an entry and a
		// flinkagents_cleanup_boundary) would fence each other's writes.
		if otherID, otherSource, clash := r.clients.ClaimControlTopic(e.ControlTopic.ValueString(), p.ID(), p.SourceRecoveryPoint); clash {
			diags.Append(forEntry(key, diagnostics.TwoBoundariesOneControlTopic(e.ControlTopic.ValueString(), p.ID(), p.SourceRecoveryPoint, otherID, otherSource)))
			return cleanupplan.Plan{}, false
		}
	}
	return p, true
}

// unchangedEntry: the same plan (now's plan_id set from its plan_json),
// recorded APPLIED in the same control topic, has nothing left to do. Plan
// keeps such an entry as read, and apply leaves it alone.
func unchangedEntry(before, now boundaryEntry) bool {
	return before.PlanID.Equal(now.PlanID) && before.ControlTopic.Equal(now.ControlTopic) &&
		before.Status.ValueString() == string(cleanupplan.StatusApplied)
}

// previewEntry fills records_to_delete and partitions from the live
// topics; topics not created yet leave them unknown.
func (r *boundariesResource) previewEntry(ctx context.Context, kafka *kafkaops.Client, e *boundaryEntry, p cleanupplan.Plan, diags *diag.Diagnostics) {
	pv, ok := previewBoundary(ctx, r.clients, kafka, p, e.ControlTopic.ValueString(), diags)
	if !ok {
		return
	}
	if e.ControlTopicID.IsUnknown() {
		e.ControlTopicID = types.StringValue(pv.ControlTopicID)
	}
	e.RecordsToDelete = types.Int64Value(pv.RecordsToDelete)
	e.Partitions = tfconv.PartitionSummaries(p.Offsets, pv.Target, pv.Ranges, pv.GonePast)
}

// forgottenKeys lists the entries of prior that planned no longer has.
func forgottenKeys(prior, planned map[string]boundaryEntry) []string {
	var gone []string
	for _, k := range slices.Sorted(maps.Keys(prior)) {
		if _, ok := planned[k]; !ok {
			gone = append(gone, fmt.Sprintf("%q", k))
		}
	}
	return gone
}

// wholeEntries: the map and each of its entries are known objects (their
// attributes may still be unknown).
func wholeEntries(m types.Map) bool {
	if m.IsUnknown() {
		return false
	}
	for _, e := range m.Elements() {
		if e.IsUnknown() {
			return false
		}
	}
	return true
}
