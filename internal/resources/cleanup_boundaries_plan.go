package resources

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
)

// ModifyPlan plans each entry as flinkagents_cleanup_boundary plans one
// (boundary_entry_plan.go): the plan parsed strictly and bound to its
// topic, an unchanged APPLIED entry kept as it was read (no drift noise),
// an entry with no plan keeping the one in state, and every other entry
// previewed against the live topics, side by side, which refuses here what
// its apply would refuse. A refused entry is held (on_refusal = "hold") and
// the others advance.
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
	if resp.Diagnostics.HasError() || !wholeEntries(plan.Boundaries) || !wholeEntries(config.Boundaries) || plan.OnRefusal.IsUnknown() {
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

	facts := factsOf(ctx, req.Private)
	keys := slices.Sorted(maps.Keys(planned))
	plannings := make([]entryPlanning, len(keys))
	entries := make([]boundaryEntry, len(keys))
	var live []int
	for i, key := range keys {
		pl := &plannings[i]
		pl.entryRules, pl.at, pl.configured = plan.rules(key), entryPath(key), configured[key]
		if before, had := prior[key]; had {
			pl.prior = &before
			if f, read := facts[key]; read {
				pl.facts = &f
			}
		}
		entries[i] = planned[key]
		pl.planStatic(r.clients, &entries[i], &resp.Diagnostics)
		if pl.next != entryDone {
			live = append(live, i)
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if len(live) > 0 {
		kafka := previewClient(ctx, r.clients, "planning cleanup boundaries", &resp.Diagnostics)
		said := make([]diag.Diagnostics, len(live))
		eachEntryTogether(len(live), func(j int) {
			i := live[j]
			plannings[i].planLive(ctx, r.clients, kafka, &entries[i], &said[j])
		})
		for _, d := range said {
			resp.Diagnostics.Append(d...)
		}
	}
	for i, key := range keys {
		planned[key] = entries[i]
	}
	plan.Boundaries = entriesValue(ctx, planned, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
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
