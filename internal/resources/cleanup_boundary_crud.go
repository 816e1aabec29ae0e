package resources

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func (r *boundaryResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan boundaryModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, defaultApplyTimeout)
	resp.Diagnostics.Append(diags...)
	if r.apply(ctx, timeout, &plan, nil, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *boundaryResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state boundaryModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	control := state.ControlTopic.ValueString()
	kafka, diags := r.clients.KafkaClient(ctx, fmt.Sprintf("reading cleanup boundaries from control topic %q", control))
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	facts := singleRules.readEntry(ctx, r.clients, kafka, &state.boundaryEntry, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	read := map[string]entryFacts{}
	if facts != nil {
		read[""] = *facts
	}
	keepFacts(ctx, resp.Private, read, &resp.Diagnostics)
	state.ID = types.StringValue(control)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *boundaryResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state boundaryModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, defaultApplyTimeout)
	resp.Diagnostics.Append(diags...)
	if r.apply(ctx, timeout, &plan, &state.boundaryEntry, &resp.Diagnostics); resp.Diagnostics.HasError() {
		return
	}
	// Stale once applied: the next plan reviews from Kafka unless a refresh reads again.
	keepFacts(ctx, resp.Private, map[string]entryFacts{}, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// apply runs the boundary's entry (boundary_entry_apply.go), which runs the
// commit-then-delete protocol when there is work to do, and fills what the
// plan left unknown.
func (r *boundaryResource) apply(ctx context.Context, timeout time.Duration, plan *boundaryModel, prior *boundaryEntry, diags *diag.Diagnostics) {
	control := plan.ControlTopic.ValueString()
	kafka, d := r.clients.KafkaClient(ctx, fmt.Sprintf("applying the cleanup boundary of control topic %q", control))
	if diags.Append(d...); diags.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	singleRules.applyEntry(ctx, r.clients, kafka, &plan.boundaryEntry, prior, diags)
	plan.ID = types.StringValue(control)
	plan.setPlanFields()
}
