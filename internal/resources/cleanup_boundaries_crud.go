package resources

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func (r *boundariesResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan boundariesModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, defaultFleetApplyTimeout)
	resp.Diagnostics.Append(diags...)
	if r.applyAll(ctx, timeout, &plan, nil, &resp.Diagnostics); resp.Diagnostics.HasError() {
		// on_refusal = "fail": an error on create would leave the resource
		// tainted, and its replacement looks like a destroy. Nothing is
		// saved instead; the next apply creates it again, finding the
		// entries that were applied already APPLIED.
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *boundariesResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state boundariesModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if state.OnRefusal.IsNull() {
		state.OnRefusal = types.StringValue(onRefusalHold) // state from before on_refusal
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
	found := make([]*entryFacts, len(keys))
	said := make([]diag.Diagnostics, len(keys))
	eachEntryTogether(len(keys), func(i int) {
		read[i] = entries[keys[i]]
		found[i] = state.rules(keys[i]).readEntry(ctx, r.clients, kafka, &read[i], &said[i])
	})
	facts := map[string]entryFacts{}
	for i, key := range keys {
		resp.Diagnostics.Append(said[i]...)
		entries[key] = read[i]
		if found[i] != nil {
			facts[key] = *found[i]
		}
	}
	keepFacts(ctx, resp.Private, facts, &resp.Diagnostics)
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
	ran := r.applyAll(ctx, timeout, &plan, prior, &resp.Diagnostics)
	// What the refresh read before is stale for the entries just applied:
	// the next plan reviews them from Kafka unless a refresh reads again.
	facts := factsOf(ctx, req.Private)
	for _, key := range ran {
		delete(facts, key)
	}
	keepFacts(ctx, resp.Private, facts, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// applyAll applies every entry that has something to do, side by side, and
// leaves in plan what state should hold: each entry as planned, with what
// the plan left unknown filled in by what happened, a failed one included
// (its status says where it stands), so the next refresh reads the same
// and the next plan proposes it again while the others keep their progress.
// It returns the keys of the entries whose protocol ran.
func (r *boundariesResource) applyAll(ctx context.Context, timeout time.Duration, plan *boundariesModel, prior map[string]boundaryEntry, diags *diag.Diagnostics) (ran []string) {
	plan.ID = types.StringValue(boundariesID)
	entries := entriesOf(ctx, plan.Boundaries, diags)
	if diags.HasError() {
		return nil
	}
	keys := slices.Sorted(maps.Keys(entries))
	kafka, d := r.clients.KafkaClient(ctx, fmt.Sprintf("applying %d cleanup boundaries", len(keys)))
	if diags.Append(d...); diags.HasError() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make([]boundaryEntry, len(keys))
	said := make([]diag.Diagnostics, len(keys))
	protocol := make([]bool, len(keys))
	befores := make([]*boundaryEntry, len(keys))
	var reads, writes []int
	for i, key := range keys {
		done[i] = entries[key]
		if e, had := prior[key]; had {
			befores[i] = &e
		}
		if runsProtocol(befores[i], done[i]) {
			writes = append(writes, i)
		} else {
			reads = append(reads, i)
		}
	}
	apply := func(i int) {
		protocol[i] = plan.rules(keys[i]).applyEntry(ctx, r.clients, kafka, &done[i], befores[i], &said[i])
	}
	// Entries that only read (a rollout's new operators, NONE) go all at
	// once, in a few coalesced requests, beside the writes, which each
	// hold a producer and go fleetConcurrency at a time: read 64 at a
	// time, 10,000 new operators' reads were 157 rounds of requests one
	// after another.
	var wg sync.WaitGroup
	wg.Go(func() { eachEntryTogether(len(reads), func(j int) { apply(reads[j]) }) })
	eachEntry(len(writes), func(j int) { apply(writes[j]) })
	wg.Wait()
	for i, key := range keys {
		diags.Append(said[i]...)
		entries[key] = done[i]
		if protocol[i] {
			ran = append(ran, key)
		}
	}
	plan.Boundaries = entriesValue(ctx, entries, diags)
	return ran
}
