package resources

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// The lifecycle of one topic, written once for the single-topic resources
// and for every topic of a fleet (flinkagents_action_state_topics): each
// operation takes the models and a client and returns what it has to say,
// so the framework's requests stay in the callers.

// planOne plans topic plan against state (nil on create): refusals of a
// rename, a lower replication factor, more replicas than brokers, a
// control topic taken over; the enforced policy; the live topic ID of a
// topic recreated outside Terraform (live, from the last read).
func (r *topicResource[M]) planOne(ctx context.Context, plan, state *M, live string, diags *diag.Diagnostics) {
	p := r.spec.common(plan)
	var had types.Int64
	if state != nil {
		s := r.spec.common(state)
		r.refuseDestroyOrRename(diags, s, &p.Name)
		refuseReplicationDecrease(diags, s.Name.ValueString(), s.ReplicationFactor, p.ReplicationFactor)
		had = s.ReplicationFactor
	}
	r.refuseReplicationAboveBrokers(ctx, p.Name.ValueString(), had, p.ReplicationFactor, diags)
	// The enforced policy is always planned: live drift (read into state)
	// then shows as an in-place update; what the runtime accepts (the data
	// topic's set in another order) is no drift.
	p.CleanupPolicy = types.StringValue(r.spec.enforced[cleanup.ConfigCleanupPolicy])
	if state != nil && cleanup.PolicySatisfies(p.CleanupPolicy.ValueString(), r.spec.common(state).CleanupPolicy.ValueString()) {
		p.CleanupPolicy = r.spec.common(state).CleanupPolicy
	}
	if !p.Name.IsUnknown() {
		p.ID = p.Name
	}
	if state != nil && p.CleanupPolicy.ValueString() != r.spec.common(state).CleanupPolicy.ValueString() {
		r.refuseAdoptingAtPlan(ctx, r.spec.common(state), p.CleanupPolicy.ValueString(), diags)
	}
	if state != nil && p.Name.ValueString() == r.spec.common(state).Name.ValueString() && live != "" && live != r.spec.common(state).TopicID.ValueString() {
		p.TopicID = types.StringValue(live) // shown as topic_id: old -> new
	}
	r.spec.plan(plan, state, diags)
}

// createOne creates the topic plan describes, with the enforced settings,
// and fills plan from the broker's answer (no read-back).
func (r *topicResource[M]) createOne(ctx context.Context, kafka *kafkaops.Client, plan *M, timeout time.Duration) (diags diag.Diagnostics) {
	p := r.spec.common(plan)
	name := p.Name.ValueString()
	op := fmt.Sprintf("creating %s %q", r.spec.label, name)
	cfg, d := configFromMap(ctx, p.Config)
	if diags.Append(d...); diags.HasError() {
		return diags
	}
	maps.Copy(cfg, r.spec.enforced)
	rf := int16(-1) // the broker's default.replication.factor
	if !p.ReplicationFactor.IsNull() && !p.ReplicationFactor.IsUnknown() {
		rf = int16(p.ReplicationFactor.ValueInt64())
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	created, err := kafka.CreateTopic(ctx, name, r.spec.partitions(plan), rf, cfg)
	switch {
	case err != nil && timedOut(ctx):
		diags.Append(diagnostics.TopicStepTimedOut(r.spec.label, "create", timeout, op,
			"Kafka may have created the topic all the same: if it exists when apply runs again, apply reports Topic Already Exists with the import command to adopt it.", err))
		return diags
	case err != nil:
		diags.Append(diagnostics.TopicCreateFailed(op, cmp.Or(r.createdBy, r.spec.resourceType), name, rf, err, r.clients.Connection()))
		return diags
	}
	r.fillFrom(plan, created.Topic, created.Configs, op, &diags)
	return diags
}

// readOne refreshes state from the live topic. gone reports a topic no
// longer in Kafka (with a warning in diags). live is the ID of a topic
// recreated outside Terraform: state keeps the ID Terraform knows, so the
// plan proposes the new one as a change to confirm.
func (r *topicResource[M]) readOne(ctx context.Context, kafka *kafkaops.Client, state *M) (gone bool, live string, diags diag.Diagnostics) {
	s := r.spec.common(state)
	name := s.Name.ValueString()
	op := fmt.Sprintf("reading %s %q", r.spec.label, name)
	recorded := s.TopicID
	var readDiags diag.Diagnostics
	if r.readInto(ctx, kafka, state, op, &readDiags) {
		// The not-found error becomes this warning: the next plan creates it.
		diags.Append(diagnostics.TopicMissing(r.spec.label, name, r.spec.goneDetail))
		return true, "", diags
	}
	if diags.Append(readDiags...); diags.HasError() {
		return false, "", diags
	}
	if now := s.TopicID; !recorded.IsNull() && !recorded.IsUnknown() && now.ValueString() != recorded.ValueString() {
		// Deleted and recreated outside Terraform: a new topic with none of
		// the old records. Adopting it silently would hide that from review.
		s.TopicID = recorded
		diags.Append(diagnostics.TopicRecreated(r.spec.label, name, recorded.ValueString(), now.ValueString()))
		return false, now.ValueString(), diags
	}
	return false, "", diags
}

// updateOne writes in this order, and only here: the identity check, the
// settings, the replication factor. Kafka addresses every write by name, so
// the name must first be shown to still mean the topic the plan was
// reviewed for; a topic recreated in between is refused with nothing written.
func (r *topicResource[M]) updateOne(ctx context.Context, kafka *kafkaops.Client, plan, state *M, timeout time.Duration) (diags diag.Diagnostics) {
	p := r.spec.common(plan)
	name := p.Name.ValueString()
	op := fmt.Sprintf("updating the settings of %s %q", r.spec.label, name)
	oldCfg, d1 := configFromMap(ctx, r.spec.common(state).Config)
	newCfg, d2 := configFromMap(ctx, p.Config)
	diags.Append(d1...)
	diags.Append(d2...)
	if diags.HasError() {
		return diags
	}
	set, remove := configChanges(oldCfg, newCfg)
	maps.Copy(set, r.spec.enforced)
	if pol := p.CleanupPolicy.ValueString(); cleanup.PolicySatisfies(r.spec.enforced[cleanup.ConfigCleanupPolicy], pol) {
		// The plan kept a live policy the runtime accepts in another order
		// ("delete,compact"): write it as planned, or the read-back differs
		// from the plan and Terraform fails the apply.
		set[cleanup.ConfigCleanupPolicy] = pol
	}
	planned := p.TopicID // UseStateForUnknown: the ID in state, or the new one the plan proposed
	if planned.IsNull() || planned.IsUnknown() {
		planned = r.spec.common(state).TopicID
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	live, err := kafka.DescribeTopic(ctx, name)
	if err != nil {
		diags.Append(r.stepDiag(ctx, "update", timeout, fmt.Sprintf("checking the topic ID of %s %q before updating it", r.spec.label, name), "Nothing was written.", err))
		return diags
	}
	if !planned.IsNull() && !planned.IsUnknown() && live.ID.String() != planned.ValueString() {
		diags.Append(diagnostics.TopicChangedSincePlan(r.spec.label, name, planned.ValueString(), live.ID.String()))
		return diags
	}
	if r.spec.refuseAdopting != nil && p.CleanupPolicy.ValueString() != r.spec.common(state).CleanupPolicy.ValueString() {
		// Again at apply: the plan's check is skipped when the provider's
		// configuration was known only at apply.
		doing := fmt.Sprintf("updating %s %q, checking that it is not a cleanup control topic before setting cleanup.policy=%s", r.spec.label, name, p.CleanupPolicy.ValueString())
		if diags.Append(r.spec.refuseAdopting(ctx, kafka, live, doing)...); diags.HasError() {
			return diags
		}
	}
	written := writtenSettings(set, remove)
	if err := kafka.AlterTopicConfigs(ctx, name, set, remove); err != nil {
		diags.Append(r.stepDiag(ctx, "update", timeout, op, "Kafka applies a topic's settings all together or not at all; the next plan shows whether they are still to be made.", err))
		return diags
	}
	// The read-back below must see what was written, or Terraform calls
	// the result inconsistent with the plan.
	_, _ = kafka.AwaitTopicConfigs(ctx, name, func(cfg map[string]kafkaops.ConfigValue) bool { return configsShow(cfg, set) }, configsVisibleWithin)
	if want, had := p.ReplicationFactor, r.spec.common(state).ReplicationFactor; !want.IsNull() && !want.IsUnknown() && want.ValueInt64() > had.ValueInt64() {
		rop := fmt.Sprintf("raising the replication factor of %s %q from %d to %d", r.spec.label, name, had.ValueInt64(), want.ValueInt64())
		written = append(written, fmt.Sprintf("replication factor raised to %d", want.ValueInt64()))
		err := kafka.RaiseReplicationFactor(ctx, name, int(want.ValueInt64()), func(inSync, partitions int) {
			tflog.Info(ctx, "replication: partitions with every replica in sync", map[string]any{"topic": name, "in_sync": inSync, "partitions": partitions})
		})
		if err != nil {
			diags.Append(r.stepDiag(ctx, "update", timeout, rop, "The topic's settings were updated before this step. Replicas are only ever added: no record was moved or lost.", err))
			return diags
		}
	}

	if r.readInto(ctx, kafka, plan, op, &diags); diags.HasError() {
		return diags
	}
	if !planned.IsNull() && !planned.IsUnknown() && planned.ValueString() != p.TopicID.ValueString() {
		// Recreated while the writes above ran: they may have reached the new topic.
		diags.Append(diagnostics.TopicRecreatedDuringUpdate(r.spec.label, name, planned.ValueString(), p.TopicID.ValueString(), written))
	}
	return diags
}

// deleteOne deletes the topic in state, and only that topic: a topic
// recreated under its name is refused. Deletion protection is the
// caller's to check.
func (r *topicResource[M]) deleteOne(ctx context.Context, kafka *kafkaops.Client, state *M, timeout time.Duration) (diags diag.Diagnostics) {
	s := r.spec.common(state)
	name := s.Name.ValueString()
	op := fmt.Sprintf("deleting %s %q", r.spec.label, name)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	t, err := kafka.DescribeTopic(ctx, name)
	switch {
	case errors.Is(err, kafkaops.ErrTopicNotFound):
		return nil // already gone: the goal state
	case err != nil:
		diags.Append(r.stepDiag(ctx, "delete", timeout, fmt.Sprintf("checking the topic ID of %s %q before deleting it", r.spec.label, name), "Nothing was deleted.", err))
		return diags
	case !s.TopicID.IsNull() && !s.TopicID.IsUnknown() && t.ID.String() != s.TopicID.ValueString():
		diags.Append(diagnostics.TopicRecreatedNotDeleted(r.spec.label, name, s.TopicID.ValueString(), t.ID.String()))
		return diags
	}
	if err := kafka.DeleteTopic(ctx, name, t.ID); err != nil {
		diags.Append(r.stepDiag(ctx, "delete", timeout, op, "Kafka may delete the topic all the same; the topic stays in state until a run sees it gone.", err))
		return diags
	}
	if err := kafka.AwaitTopicDeleted(ctx, name, t.ID); err != nil {
		diags.Append(r.stepDiag(ctx, "delete", timeout, fmt.Sprintf("waiting for Kafka to finish deleting %s %q", r.spec.label, name),
			"Kafka accepted the deletion; the topic stays in state until a run sees it gone.", err))
	}
	return diags
}

// configsVisibleWithin bounds how long an update waits for its settings to
// show in the topic's configs before reading it back.
const configsVisibleWithin = 10 * time.Second

// configsShow reports whether live holds every setting of set, a cleanup
// policy compared as the runtime compares it (a set).
func configsShow(live map[string]kafkaops.ConfigValue, set map[string]string) bool {
	for k, want := range set {
		got, ok := live[k]
		switch {
		case !ok || got.Null:
			return false
		case k == cleanup.ConfigCleanupPolicy && want != cleanup.ControlTopicPolicy:
			if !cleanup.PolicyEqual(want, got.Value) {
				return false
			}
		case got.Value != want:
			return false
		}
	}
	return true
}
