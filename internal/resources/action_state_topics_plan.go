package resources

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
)

// ModifyPlan plans every entry as the single-topic resources plan one
// topic (planOne), side by side, and refuses what would delete or replace
// a topic: an entry or a control topic removed under deletion protection,
// a topic renamed, the whole fleet destroyed while protected.
func (r *fleetTopicsResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var state *fleetTopicsModel
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	var prior map[string]fleetEntry
	protected := false
	if state != nil {
		prior = fleetEntriesOf(ctx, state.Operators, &resp.Diagnostics)
		protected = state.DeletionProtection.ValueBool()
	}
	if req.Plan.Raw.IsNull() {
		if protected && len(prior) > 0 {
			resp.Diagnostics.Append(diagnostics.DeletionProtected("flinkagents_action_state_topics", fmt.Sprintf("holding %d operators' topics", len(prior))))
		}
		return
	}
	var plan fleetTopicsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || plan.Operators.IsUnknown() {
		return
	}
	planned := fleetEntriesOf(ctx, plan.Operators, &resp.Diagnostics)
	live := fleetLiveIDs(ctx, req.Private, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	for _, key := range slices.Sorted(maps.Keys(prior)) {
		if _, kept := planned[key]; !kept && protected {
			resp.Diagnostics.Append(diagnostics.FleetEntryProtected(fleetEntryPath(key), key, "the topics"))
		}
	}
	keys := slices.Sorted(maps.Keys(planned))
	done := make([]fleetEntry, len(keys))
	said := make([]diag.Diagnostics, len(keys))
	eachEntryTogether(len(keys), func(i int) {
		done[i] = planned[keys[i]]
		var before *fleetEntry
		if e, had := prior[keys[i]]; had {
			before = &e
		}
		r.planEntry(ctx, keys[i], &done[i], before, plan.DeletionProtection.ValueBool(), protected, live, &said[i])
	})
	for i, key := range keys {
		resp.Diagnostics.Append(said[i]...)
		planned[key] = done[i]
	}
	if !resp.Diagnostics.HasError() {
		r.refuseTakenNames(ctx, planned, state == nil, &resp.Diagnostics)
	}
	plan.ID = types.StringValue(fleetTopicsID)
	plan.Operators = fleetEntriesValue(ctx, planned, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// planEntry plans one operator's topics: values the configuration leaves
// out come from state (the framework plans them unknown whenever anything
// in the fleet changes), then each topic goes through planOne. protect is
// the planned deletion_protection, wasProtected the one in state.
func (r *fleetTopicsResource) planEntry(ctx context.Context, key string, e *fleetEntry, before *fleetEntry, protect, wasProtected bool, live map[string]string, diags *diag.Diagnostics) {
	at := fleetEntryPath(key)
	entryDiags := entrySay(key, diags)

	var priorData *actionStateTopicModel
	d := &e.ActionStateTopic
	if !createsData(before) {
		b := before.ActionStateTopic
		if !d.Name.IsUnknown() && d.Name.ValueString() != b.Name.ValueString() {
			diags.Append(diagnostics.FleetTopicRenamed(at.AtName("action_state_topic").AtName("name"), key, "action-state topic", b.Name.ValueString(), d.Name.ValueString()))
			return
		}
		m := b.model(wasProtected)
		priorData = &m
		d.TopicID = keepUnknown(d.TopicID, b.TopicID)
		d.ReplicationFactor = keepUnknownInt(d.ReplicationFactor, b.ReplicationFactor)
		d.Partitions = keepUnknownInt(d.Partitions, b.Partitions)
	} else {
		// To be created. The framework plans what the configuration leaves
		// out unknown only when the configuration changed, and a topic gone
		// from Kafka is recreated with no change to it.
		d.TopicID = types.StringUnknown()
		if d.ReplicationFactor.IsNull() {
			d.ReplicationFactor = types.Int64Unknown() // the broker's default
		}
		if d.Partitions.IsUnknown() || d.Partitions.IsNull() {
			d.Partitions = types.Int64Value(64) // the runtime's kafkaActionStateTopicNumPartitions default
		}
	}
	data := d.model(protect)
	var dataDiags diag.Diagnostics
	r.data.planOne(ctx, &data, priorData, live[liveKey(key, "action_state_topic")], &dataDiags)
	entryDiags("action_state_topic", dataDiags)
	*d = dataTopicOf(data)

	c := e.ControlTopic
	had := hadControl(before)
	switch {
	case c == nil && had && wasProtected:
		diags.Append(diagnostics.FleetEntryProtected(at.AtName("control_topic"), key, fmt.Sprintf("the control topic %q", before.ControlTopic.Name.ValueString())))
		return
	case c == nil:
		return
	}
	var priorControl *controlTopicModel
	if had {
		b := *before.ControlTopic
		if !c.Name.IsUnknown() && c.Name.ValueString() != b.Name.ValueString() {
			diags.Append(diagnostics.FleetTopicRenamed(at.AtName("control_topic").AtName("name"), key, "control topic", b.Name.ValueString(), c.Name.ValueString()))
			return
		}
		m := b.model(wasProtected, d.Name)
		priorControl = &m
		c.TopicID = keepUnknown(c.TopicID, b.TopicID)
		c.ReplicationFactor = keepUnknownInt(c.ReplicationFactor, b.ReplicationFactor)
	} else {
		c.TopicID = types.StringUnknown()
		if c.ReplicationFactor.IsNull() {
			c.ReplicationFactor = types.Int64Unknown()
		}
	}
	control := c.model(protect, d.Name)
	var controlDiags diag.Diagnostics
	r.control.planOne(ctx, &control, priorControl, live[liveKey(key, "control_topic")], &controlDiags)
	entryDiags("control_topic", controlDiags)
	e.ControlTopic = controlTopicOf(control)
}

// keepUnknown is state's value for a computed value planned unknown.
func keepUnknown(planned, state types.String) types.String {
	if planned.IsUnknown() {
		return state
	}
	return planned
}

func keepUnknownInt(planned, state types.Int64) types.Int64 {
	if planned.IsUnknown() {
		return state
	}
	return planned
}

// privateLiveTopicIDs is the private-state key under which Read leaves the
// live IDs of topics recreated outside Terraform, by liveKey.
const privateLiveTopicIDs = "live_topic_ids"

// liveKey names one topic of one entry in the live IDs.
func liveKey(key, attr string) string { return key + "/" + attr }

// fleetLiveIDs returns the live IDs Read left, if any.
func fleetLiveIDs(ctx context.Context, private privateGetter, diags *diag.Diagnostics) map[string]string {
	raw, d := private.GetKey(ctx, privateLiveTopicIDs)
	diags.Append(d...)
	out := map[string]string{}
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &out) // unreadable: no topic proposed as recreated; Read says so again
	}
	return out
}

// refuseTakenNames looks, at plan time, for topics to create whose name a
// topic not in state already has: their create would fail at apply. A new
// fleet (first: the usual case of a fleet the single-topic resources or an
// older module managed) is refused, since a fleet whose first apply fails
// is left tainted, and the diagnostic gives the import block that adopts
// them all. In an existing fleet the entry is held with a warning naming
// it (the apply's create refuses it and the other entries go on), never
// refused as a whole: Terraform plans again at apply, and a name taken
// between the plan and the apply must not stop every other operator. One
// Metadata request for the whole cluster, only when something is to be
// created; without a usable provider configuration yet, apply reports it.
func (r *fleetTopicsResource) refuseTakenNames(ctx context.Context, planned map[string]fleetEntry, first bool, diags *diag.Diagnostics) {
	type creation struct{ key, attr, name string }
	var creating []creation
	for _, key := range slices.Sorted(maps.Keys(planned)) {
		e := planned[key]
		if t := e.ActionStateTopic; t.TopicID.IsUnknown() && !t.Name.IsUnknown() {
			creating = append(creating, creation{key, "action_state_topic", t.Name.ValueString()})
		}
		if c := e.ControlTopic; c != nil && c.TopicID.IsUnknown() && !c.Name.IsUnknown() {
			creating = append(creating, creation{key, "control_topic", c.Name.ValueString()})
		}
	}
	if len(creating) == 0 || r.clients == nil {
		return
	}
	op := fmt.Sprintf("planning the topics of %d operators, checking that the %d to create do not exist", len(planned), len(creating))
	kafka, d := r.clients.KafkaClient(ctx, op)
	if d.HasError() {
		return
	}
	listing, err := kafka.ListTopics(ctx)
	if err != nil {
		diags.Append(r.clients.KafkaDiag(op, err))
		return
	}
	exists := map[string]bool{}
	for _, t := range listing.Topics {
		exists[t.Name] = true
	}
	for name := range listing.Failed {
		exists[name] = true
	}
	var taken []string
	for _, c := range creating {
		if !exists[c.name] {
			continue
		}
		taken = append(taken, c.name)
		if !first {
			label := r.data.spec.label
			if c.attr == "control_topic" {
				label = r.control.spec.label
			}
			diags.Append(diagnostics.FleetTopicTaken(fleetEntryPath(c.key).AtName(c.attr), c.key, label, c.name))
		}
	}
	if first && len(taken) > 0 {
		diags.Append(diagnostics.FleetTopicsExist(taken, fleetImportID(planned)))
	}
}

// fleetImportID is the import ID naming every entry's topics.
func fleetImportID(entries map[string]fleetEntry) string {
	parts := make([]string, 0, len(entries))
	for _, key := range slices.Sorted(maps.Keys(entries)) {
		e := entries[key]
		part := key + "=" + e.ActionStateTopic.Name.ValueString()
		if e.ControlTopic != nil {
			part += ":" + e.ControlTopic.Name.ValueString()
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ",")
}
