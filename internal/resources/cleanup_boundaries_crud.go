package resources

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

func (r *boundariesResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan boundariesModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, defaultFleetApplyTimeout)
	resp.Diagnostics.Append(diags...)
	r.applyAll(ctx, timeout, &plan, nil, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *boundariesResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state boundariesModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	entries := entriesOf(ctx, state.Boundaries, &resp.Diagnostics)
	if len(entries) == 0 || resp.Diagnostics.HasError() {
		return // nothing to read: a fleet before its first plan needs no connection
	}
	kafka, diags := r.clients.KafkaClient(ctx, "reading cleanup boundaries")
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	keys := slices.Sorted(maps.Keys(entries))
	read := make([]boundaryEntry, len(keys))
	keep := make([]bool, len(keys))
	said := make([]diag.Diagnostics, len(keys))
	eachEntry(len(keys), func(i int) {
		read[i] = entries[keys[i]]
		keep[i] = r.readEntry(ctx, kafka, &read[i], &said[i])
	})
	for i, key := range keys {
		for _, d := range said[i] {
			resp.Diagnostics.Append(forEntry(key, d))
		}
		if keep[i] {
			entries[key] = read[i]
		} else {
			delete(entries, key) // its control topic is gone: planned again
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	state.ID = types.StringValue(boundariesID)
	state.Boundaries = entriesValue(ctx, entries, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *boundariesResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state boundariesModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, defaultFleetApplyTimeout)
	resp.Diagnostics.Append(diags...)
	prior := entriesOf(ctx, state.Boundaries, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	r.applyAll(ctx, timeout, &plan, prior, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// applyAll applies every entry that has something to do, side by side, and
// leaves in plan what state should hold: an applied entry as the single
// resource records it, an unchanged one as planned, and one that failed as
// it was before (absent if it is new), so the next plan proposes it again
// while the others keep their progress.
func (r *boundariesResource) applyAll(ctx context.Context, timeout time.Duration, plan *boundariesModel, prior map[string]boundaryEntry, diags *diag.Diagnostics) {
	plan.ID = types.StringValue(boundariesID)
	entries := entriesOf(ctx, plan.Boundaries, diags)
	if diags.HasError() {
		return
	}
	var keys []string
	for _, key := range slices.Sorted(maps.Keys(entries)) {
		if before, had := prior[key]; had && unchangedEntry(before, entries[key]) {
			continue // ModifyPlan kept it as read: nothing to do
		}
		keys = append(keys, key)
	}
	if len(keys) > 0 {
		kafka, d := r.clients.KafkaClient(ctx, fmt.Sprintf("applying %d cleanup boundaries", len(keys)))
		if diags.Append(d...); diags.HasError() {
			plan.Boundaries = entriesValue(ctx, prior, diags)
			return
		}
		ctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		done := make([]boundaryEntry, len(keys))
		said := make([]diag.Diagnostics, len(keys))
		eachEntry(len(keys), func(i int) {
			done[i] = entries[keys[i]]
			r.applyEntry(ctx, kafka, &done[i], &said[i])
		})
		for i, key := range keys {
			for _, d := range said[i] {
				diags.Append(forEntry(key, d))
			}
			switch before, had := prior[key]; {
			case !said[i].HasError():
				entries[key] = done[i]
			case had:
				entries[key] = before
			default:
				delete(entries, key)
			}
		}
	}
	plan.Boundaries = entriesValue(ctx, entries, diags)
}

// applyEntry runs the commit-then-delete protocol for one entry and fills
// its computed values, as flinkagents_cleanup_boundary's apply does.
func (r *boundariesResource) applyEntry(ctx context.Context, kafka *kafkaops.Client, e *boundaryEntry, diags *diag.Diagnostics) {
	p, err := cleanupplan.Parse([]byte(e.PlanJSON.ValueString()))
	if err != nil {
		// Parsed at plan time already: only a provider changed between plan and apply gets here.
		diags.Append(diagnostics.MalformedPlan(path.Root("plan_json"), err))
		return
	}
	res, ok := applyBoundary(ctx, r.clients, kafka, p, e.ControlTopic.ValueString(), e.ControlTopicID.ValueString(), e.ActionStateTopic.ValueString(), diags)
	if !ok {
		return
	}
	e.PlanID = types.StringValue(p.ID())
	e.ControlTopicID = types.StringValue(res.ControlTopicID)
	e.Status = types.StringValue(string(cleanupplan.StatusApplied))
	e.ActionStateTopic = types.StringValue(p.Topic)
	if e.RecordsToDelete.IsUnknown() {
		e.RecordsToDelete = types.Int64Value(sumRanges(res.Deleted))
	}
	if e.Partitions.IsUnknown() {
		e.Partitions = tfconv.PartitionSummaries(p.Offsets, res.Target, res.Deleted, nil)
	}
}

// readEntry refreshes one entry as flinkagents_cleanup_boundary's Read
// does; false when its control topic is gone (the entry leaves state, so
// the next plan records it again).
func (r *boundariesResource) readEntry(ctx context.Context, kafka *kafkaops.Client, e *boundaryEntry, diags *diag.Diagnostics) bool {
	rd, ok := refreshBoundary(ctx, r.clients, kafka, e.ControlTopic.ValueString(), e.PlanID.ValueString(), e.ControlTopicID, e.ActionStateTopic.ValueString(), diags)
	switch {
	case !ok:
		return true // an error, in diags: the entry stays as it was
	case rd.gone:
		return false
	}
	e.ControlTopicID, e.Status = rd.controlTopicID, rd.status
	if rd.compared {
		e.RecordsToDelete, e.Partitions = rd.recordsToDelete, rd.partitions
	}
	return true
}
