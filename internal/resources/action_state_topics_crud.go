package resources

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/fanout"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// Create applies every entry; see applyAll. An entry that fails is saved
// as still to be created and named in an error. Terraform then marks the
// whole resource tainted (any error on create does): the plan that follows
// refuses the replacement while deletion_protection is on, and its
// diagnostic says to run terraform untaint, as the topics are in state.
func (r *fleetTopicsResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan fleetTopicsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := plan.Timeouts.Create(ctx, defaultTopicTimeout)
	resp.Diagnostics.Append(d...)
	if r.applyAll(ctx, timeout, &plan, nil, false, &resp.Diagnostics); plan.Operators.IsNull() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Read refreshes every topic in Kafka side by side. A topic gone from
// Kafka is kept with a null topic_id (the next plan creates it again, with
// a warning now); one recreated outside Terraform keeps the ID Terraform
// knows, and the plan proposes the new one as a change to confirm.
func (r *fleetTopicsResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state fleetTopicsModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	entries := fleetEntriesOf(ctx, state.Operators, &resp.Diagnostics)
	importing := fleetImporting(ctx, req.Private, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || len(entries) == 0 {
		return
	}
	kafka, diags := r.clients.KafkaClient(ctx, fmt.Sprintf("reading the topics of %d operators", len(entries)))
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	protected := state.DeletionProtection.ValueBool()
	keys := slices.Sorted(maps.Keys(entries))
	read := make([]fleetEntry, len(keys))
	lives := make([][2]string, len(keys))
	said := make([]diag.Diagnostics, len(keys))
	eachEntryTogether(len(keys), func(i int) {
		read[i] = entries[keys[i]]
		lives[i] = r.readEntry(ctx, kafka, keys[i], &read[i], protected, importing, &said[i])
	})
	live := map[string]string{}
	for i, key := range keys {
		resp.Diagnostics.Append(said[i]...)
		entries[key] = read[i]
		for j, attr := range []string{"action_state_topic", "control_topic"} {
			if lives[i][j] != "" {
				live[liveKey(key, attr)] = lives[i][j]
			}
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	raw, _ := json.Marshal(live)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateLiveTopicIDs, raw)...)
	if importing {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImporting, nil)...)
	}
	state.ID = types.StringValue(fleetTopicsID)
	state.Operators = fleetEntriesValue(ctx, entries, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// readEntry refreshes one entry's topics, returning the live IDs of those
// recreated outside Terraform (action-state, control). A topic with no ID
// yet (not created) is read only on import, where it must exist.
func (r *fleetTopicsResource) readEntry(ctx context.Context, kafka *kafkaops.Client, key string, e *fleetEntry, protected, importing bool, diags *diag.Diagnostics) (live [2]string) {
	say := entrySay(key, diags)
	if importing || inKafka(e.ActionStateTopic.TopicID) {
		m := e.ActionStateTopic.model(protected)
		live[0] = readFleetTopic(ctx, kafka, r.data, &m, importing, func(d diag.Diagnostics) { say("action_state_topic", d) })
		e.ActionStateTopic = dataTopicOf(m)
	}
	if c := e.ControlTopic; c != nil && (importing || inKafka(c.TopicID)) {
		m := c.model(protected, e.ActionStateTopic.Name)
		live[1] = readFleetTopic(ctx, kafka, r.control, &m, importing, func(d diag.Diagnostics) { say("control_topic", d) })
		e.ControlTopic = controlTopicOf(m)
	}
	return live
}

// readFleetTopic refreshes one topic of an entry through readOne, returning
// the live ID of a topic recreated outside Terraform. One gone from Kafka
// keeps a null topic_id (the next plan creates it); on import it must exist.
func readFleetTopic[M any](ctx context.Context, kafka *kafkaops.Client, t *topicResource[M], m *M, importing bool, say func(diag.Diagnostics)) (live string) {
	gone, live, d := t.readOne(ctx, kafka, m)
	c := t.spec.common(m)
	if gone && importing {
		d = diag.Diagnostics{diagnostics.ImportedTopicNotFound(t.spec.label, c.Name.ValueString(), nil)}
	}
	say(d)
	if gone {
		c.TopicID = types.StringNull()
	}
	return live
}

func (r *fleetTopicsResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state fleetTopicsModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := plan.Timeouts.Update(ctx, defaultTopicTimeout)
	resp.Diagnostics.Append(d...)
	prior := fleetEntriesOf(ctx, state.Operators, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if r.applyAll(ctx, timeout, &plan, prior, state.DeletionProtection.ValueBool(), &resp.Diagnostics); plan.Operators.IsNull() {
		return
	}
	// Saved whatever failed: each entry holds what is true of it now.
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// Delete deletes every topic of the fleet, control topics first, unless
// protected; ModifyPlan refused a protected destroy already, and this
// checks again for paths that skip our plan.
func (r *fleetTopicsResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state fleetTopicsModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	prior := fleetEntriesOf(ctx, state.Operators, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || len(prior) == 0 {
		return
	}
	if state.DeletionProtection.ValueBool() {
		resp.Diagnostics.Append(diagnostics.FleetProtectedAtDelete(len(prior)))
		return
	}
	timeout, d := state.Timeouts.Delete(ctx, defaultTopicTimeout)
	resp.Diagnostics.Append(d...)
	kafka, diags := r.clients.KafkaClient(ctx, fmt.Sprintf("deleting the topics of %d operators", len(prior)))
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	// timeouts.delete bounds the whole fleet's deletion, not each topic's.
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	keys := slices.Sorted(maps.Keys(prior))
	said := make([]diag.Diagnostics, len(keys))
	eachEntryTogether(len(keys), func(i int) {
		e := prior[keys[i]]
		r.deleteEntry(ctx, kafka, keys[i], &e, timeout, &said[i])
	})
	for i := range keys {
		resp.Diagnostics.Append(said[i]...)
	}
}

// applyAll brings every entry of plan about, side by side: topics of new
// entries (or gone from Kafka) are created, changed ones updated through
// the identity check, removed ones deleted (never while protected). It
// leaves in plan what state should hold: each entry as it now is, so one
// entry's failure (named in diags) loses nothing of the others.
func (r *fleetTopicsResource) applyAll(ctx context.Context, timeout time.Duration, plan *fleetTopicsModel, prior map[string]fleetEntry, wasProtected bool, diags *diag.Diagnostics) {
	plan.ID = types.StringValue(fleetTopicsID)
	planned := fleetEntriesOf(ctx, plan.Operators, diags)
	if diags.HasError() {
		plan.Operators = types.MapNull(fleetEntryType())
		return
	}
	kafka, d := r.clients.KafkaClient(ctx, fmt.Sprintf("applying the topics of %d operators", len(planned)))
	if diags.Append(d...); diags.HasError() {
		plan.Operators = types.MapNull(fleetEntryType())
		return
	}
	// timeouts.create and .update bound the whole fleet's apply, not each
	// topic's: every topic's operation ends by this deadline.
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	protect := plan.DeletionProtection.ValueBool()
	var removed []string
	for _, key := range slices.Sorted(maps.Keys(prior)) {
		if _, kept := planned[key]; !kept {
			removed = append(removed, key)
		}
	}
	keys := slices.Sorted(maps.Keys(planned))
	done := make([]fleetEntry, len(keys)+len(removed))
	said := make([]diag.Diagnostics, len(keys)+len(removed))
	creates := 0
	for _, key := range keys {
		var before *fleetEntry
		if e, had := prior[key]; had {
			before = &e
		}
		creates += creations(planned[key], before)
	}
	release := kafka.ExpectCreates(creates)
	eachEntryTogether(len(keys)+len(removed), func(i int) {
		if i >= len(keys) {
			key := removed[i-len(keys)]
			done[i] = prior[key]
			if wasProtected {
				said[i].Append(diagnostics.FleetEntryProtected(fleetEntryPath(key), key, "the topics"))
				return
			}
			r.deleteEntry(ctx, kafka, key, &done[i], timeout, &said[i])
			return
		}
		key := keys[i]
		done[i] = planned[key]
		var before *fleetEntry
		if e, had := prior[key]; had {
			before = &e
		}
		r.applyEntry(ctx, kafka, key, &done[i], before, protect, wasProtected, timeout, &said[i])
	})
	var names []string
	for i := range done {
		diags.Append(said[i]...)
		if i < len(keys) {
			planned[keys[i]] = done[i]
			names = append(names, done[i].ActionStateTopic.Name.ValueString())
			if c := done[i].ControlTopic; c != nil {
				names = append(names, c.Name.ValueString())
			}
		} else if said[i].HasError() {
			planned[removed[i-len(keys)]] = done[i] // not deleted: still Terraform's
		}
	}
	release()
	// Created means visible: the next command reads every topic at once.
	kafka.SettleTopics(ctx, names)
	plan.Operators = fleetEntriesValue(ctx, planned, diags)
}

// applyEntry creates, updates or deletes what one entry's plan asks of its
// topics, leaving in e what is true after: a topic that failed to be
// created is kept with a null topic_id, one that failed to update or to
// be deleted as state had it. Its two topics go side by side, so a
// rollout's creates all reach the coalescer at once and go in as few
// CreateTopics requests as the controller takes (topic_create.go).
func (r *fleetTopicsResource) applyEntry(ctx context.Context, kafka *kafkaops.Client, key string, e, before *fleetEntry, protect, wasProtected bool, timeout time.Duration, diags *diag.Diagnostics) {
	dataName := e.ActionStateTopic.Name
	var beforeName types.String
	if before != nil {
		beforeName = before.ActionStateTopic.Name
	}
	var said [2]diag.Diagnostics
	fanout.Each(2, 2, func(i int) {
		if i == 0 {
			r.applyEntryData(ctx, kafka, key, &e.ActionStateTopic, before, protect, wasProtected, timeout, &said[0])
			return
		}
		r.applyEntryControl(ctx, kafka, key, &e.ControlTopic, before, dataName, beforeName, protect, wasProtected, timeout, &said[1])
	})
	diags.Append(said[0]...)
	diags.Append(said[1]...)
}

// creations counts the topics applyEntry creates for entry e, by the same
// tests it decides with.
func creations(e fleetEntry, before *fleetEntry) int {
	n := 0
	if createsData(before) {
		n++
	}
	if e.ControlTopic != nil && !hadControl(before) {
		n++
	}
	return n
}

// createsData: the entry's action-state topic is created (no ID in state).
func createsData(before *fleetEntry) bool {
	return before == nil || !inKafka(before.ActionStateTopic.TopicID)
}

// hadControl: state holds the entry's control topic with an ID.
func hadControl(before *fleetEntry) bool {
	return before != nil && before.ControlTopic != nil && inKafka(before.ControlTopic.TopicID)
}

// applyEntryData is applyEntry's action-state topic.
func (r *fleetTopicsResource) applyEntryData(ctx context.Context, kafka *kafkaops.Client, key string, t *fleetDataTopic, before *fleetEntry, protect, wasProtected bool, timeout time.Duration, diags *diag.Diagnostics) {
	say := entrySay(key, diags)
	data := t.model(protect)
	switch {
	case createsData(before):
		d := r.data.createOne(ctx, kafka, &data, timeout)
		say("action_state_topic", d)
		if d.HasError() {
			*t = notCreatedData(*t)
		} else {
			*t = dataTopicOf(data)
		}
	case !fleetDataEqual(*t, before.ActionStateTopic):
		was := before.ActionStateTopic.model(wasProtected)
		d := r.data.updateOne(ctx, kafka, &data, &was, timeout)
		say("action_state_topic", d)
		if d.HasError() {
			*t = before.ActionStateTopic
		} else {
			*t = dataTopicOf(data)
		}
	}
}

// applyEntryControl is applyEntry's control topic; dataName is the entry's
// action-state topic as planned, beforeName as state had it.
func (r *fleetTopicsResource) applyEntryControl(ctx context.Context, kafka *kafkaops.Client, key string, ct **fleetControlTopic, before *fleetEntry, dataName, beforeName types.String, protect, wasProtected bool, timeout time.Duration, diags *diag.Diagnostics) {
	at := fleetEntryPath(key)
	say := entrySay(key, diags)
	c := *ct
	had := hadControl(before)
	switch {
	case c == nil && had:
		was := before.ControlTopic.model(wasProtected, beforeName)
		if wasProtected {
			diags.Append(diagnostics.FleetEntryProtected(at.AtName("control_topic"), key, fmt.Sprintf("the control topic %q", was.Name.ValueString())))
			*ct = before.ControlTopic
			return
		}
		if d := r.control.deleteOne(ctx, kafka, &was, timeout); d.HasError() {
			say("control_topic", d)
			*ct = before.ControlTopic
		}
	case c == nil:
	case !had:
		m := c.model(protect, dataName)
		d := r.control.createOne(ctx, kafka, &m, timeout)
		say("control_topic", d)
		if d.HasError() {
			*ct = notCreatedControl(*c)
		} else {
			*ct = controlTopicOf(m)
		}
	case !fleetControlEqual(*c, *before.ControlTopic):
		m := c.model(protect, dataName)
		was := before.ControlTopic.model(wasProtected, beforeName)
		d := r.control.updateOne(ctx, kafka, &m, &was, timeout)
		say("control_topic", d)
		if d.HasError() {
			*ct = before.ControlTopic
		} else {
			*ct = controlTopicOf(m)
		}
	}
}

// deleteEntry deletes one entry's topics, the control topic first (its
// boundaries mean nothing without the action-state topic, not the other
// way round). What could not be deleted stays in e.
func (r *fleetTopicsResource) deleteEntry(ctx context.Context, kafka *kafkaops.Client, key string, e *fleetEntry, timeout time.Duration, diags *diag.Diagnostics) {
	say := entrySay(key, diags)
	if c := e.ControlTopic; c != nil && inKafka(c.TopicID) {
		m := c.model(false, e.ActionStateTopic.Name)
		if d := r.control.deleteOne(ctx, kafka, &m, timeout); d.HasError() {
			say("control_topic", d)
			return
		}
	}
	if inKafka(e.ActionStateTopic.TopicID) {
		m := e.ActionStateTopic.model(false)
		say("action_state_topic", r.data.deleteOne(ctx, kafka, &m, timeout))
	}
}

// notCreatedData is a planned topic whose create failed, as state keeps
// it: no ID (so the next plan creates it again) and nothing unknown.
func notCreatedData(t fleetDataTopic) fleetDataTopic {
	t.TopicID = types.StringNull()
	t.CleanupPolicy, t.RetentionMs, t.RetentionBytes = types.StringNull(), types.StringNull(), types.StringNull()
	if t.ReplicationFactor.IsUnknown() {
		t.ReplicationFactor = types.Int64Null()
	}
	return t
}

func notCreatedControl(t fleetControlTopic) *fleetControlTopic {
	t.TopicID, t.CleanupPolicy = types.StringNull(), types.StringNull()
	if t.ReplicationFactor.IsUnknown() {
		t.ReplicationFactor = types.Int64Null()
	}
	return &t
}

// fleetDataEqual reports whether a planned topic asks for nothing state
// does not already hold.
func fleetDataEqual(a, b fleetDataTopic) bool {
	return a.Name.Equal(b.Name) && a.Partitions.Equal(b.Partitions) && a.ReplicationFactor.Equal(b.ReplicationFactor) &&
		a.Config.Equal(b.Config) && a.TopicID.Equal(b.TopicID) && a.CleanupPolicy.Equal(b.CleanupPolicy) &&
		a.RetentionMs.Equal(b.RetentionMs) && a.RetentionBytes.Equal(b.RetentionBytes)
}

func fleetControlEqual(a, b fleetControlTopic) bool {
	return a.Name.Equal(b.Name) && a.ReplicationFactor.Equal(b.ReplicationFactor) && a.Config.Equal(b.Config) &&
		a.TopicID.Equal(b.TopicID) && a.CleanupPolicy.Equal(b.CleanupPolicy)
}
