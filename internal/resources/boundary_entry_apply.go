package resources

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// applyEntry carries out what the plan decided for e and leaves in e what
// state should hold: the values planned, with those the plan left unknown
// filled in by what happened. Only a boundary with work to do runs the
// commit-then-delete protocol (internal/cleanup/apply.go); an unchanged,
// REFUSED or NONE one only learns a control topic ID created in this
// apply. It reports whether the protocol ran, successfully or not.
func (r entryRules) applyEntry(ctx context.Context, clients *providerdata.Clients, kafka *kafkaops.Client, e *boundaryEntry, prior *boundaryEntry, diags *diag.Diagnostics) bool {
	if !runsProtocol(prior, *e) {
		r.settleReadOnly(ctx, clients, kafka, e, prior, diags)
		return false
	}
	p, err := cleanupplan.Parse([]byte(e.PlanJSON.ValueString()))
	if err != nil {
		// Parsed at plan time already: only a provider changed between plan and apply gets here.
		r.report(diagnostics.MalformedPlan(path.Root("plan_json"), err), diags)
		r.failed(e, prior, cleanup.Result{})
		return false
	}
	control := e.ControlTopic.ValueString()
	res, err := cleanup.Apply(ctx, kafka, cleanup.Request{
		Plan:           p,
		ControlTopic:   control,
		ControlTopicID: knownString(e.ControlTopicID),
		ExpectedTopic:  knownString(e.ActionStateTopic),
		Progress: func(step string, fields map[string]any) {
			tflog.Info(ctx, "cleanup: "+step, fields)
		},
	})
	if err != nil {
		r.report(clients.CleanupDiag(fmt.Sprintf("applying cleanup plan %s to topic %q through control topic %q", p.ID(), p.Topic, control), err), diags)
		r.failed(e, prior, res)
		return true
	}
	if res.Redeleted {
		tflog.Warn(ctx, "cleanup: records below the APPLIED boundary were readable again and were deleted again", map[string]any{"plan_id": p.ID()})
	}
	for _, rg := range res.Deleted {
		tflog.Info(ctx, "cleanup: deleted records", map[string]any{"topic": p.Topic, "partition": rg.Partition, "from": rg.From, "to": rg.To})
	}
	e.PlanID = types.StringValue(p.ID())
	e.ControlTopicID = types.StringValue(res.ControlTopicID)
	e.Status = types.StringValue(string(cleanupplan.StatusApplied))
	e.ActionStateTopic = types.StringValue(p.Topic)
	e.CleanupEnabled = types.BoolValue(true)
	// The review stays as planned (Terraform requires it); where it was
	// unknown at plan time (topics created in this apply), it records what
	// this apply deleted.
	if e.RecordsToDelete.IsUnknown() {
		e.RecordsToDelete = types.Int64Value(cleanup.Records(res.Deleted))
	}
	if e.Partitions.IsUnknown() {
		e.Partitions = tfconv.PartitionSummaries(p.Offsets, res.Target, res.Deleted, nil)
	}
	return true
}

// runsProtocol reports whether applying e runs the commit-then-delete
// protocol (with a producer of its own), rather than at most reading what
// its plan left unknown: it changed, was not refused at plan, and has a
// plan to record.
func runsProtocol(prior *boundaryEntry, e boundaryEntry) bool {
	status := e.Status.ValueString()
	return !unchanged(prior, e) && status != statusRefused && status != statusNone && !e.PlanJSON.IsNull()
}

// settleReadOnly fills in what the plan of an entry that records nothing
// left unknown.
func (r entryRules) settleReadOnly(ctx context.Context, clients *providerdata.Clients, kafka *kafkaops.Client, e *boundaryEntry, prior *boundaryEntry, diags *diag.Diagnostics) {
	switch {
	case unchanged(prior, *e), e.Status.ValueString() == statusRefused:
	case e.Status.ValueString() == statusNone:
		if e.ControlTopicID.IsUnknown() {
			e.ControlTopicID = types.StringNull()
			if t, err := kafka.DescribeTopic(ctx, e.ControlTopic.ValueString()); err == nil {
				e.ControlTopicID = types.StringValue(t.ID.String())
			}
		}
	default:
		// No plan, and the plan could not read the control topic (created
		// in this apply): read it now. Nothing is deleted either way.
		r.settleWithoutPlan(ctx, clients, kafka, e, prior, diags)
	}
}

// failed records in e what a failed apply left: the plan COMMITTED when it
// reached the control topic (the runtime enforces it; the next apply
// finishes the deletion), otherwise not recorded. What was planned known
// stays, as Terraform requires; the next refresh reads the same.
func (r entryRules) failed(e *boundaryEntry, prior *boundaryEntry, res cleanup.Result) {
	samePlan := prior != nil && prior.PlanID.Equal(e.PlanID) && prior.ControlTopic.Equal(e.ControlTopic)
	if e.Status.IsUnknown() {
		switch {
		case res.Committed && samePlan && prior.Status.ValueString() != statusNotRecorded:
			e.Status = prior.Status // APPLIED with records readable again, or COMMITTED: still so
		case res.Committed:
			e.Status = types.StringValue(string(cleanupplan.StatusCommitted))
		default:
			e.Status = types.StringValue(statusNotRecorded)
		}
	}
	if e.CleanupEnabled.IsUnknown() {
		e.CleanupEnabled = types.BoolValue(latched(prior) || res.Committed)
	}
	if e.ControlTopicID.IsUnknown() {
		e.ControlTopicID = types.StringNull()
		if res.ControlTopicID != "" {
			e.ControlTopicID = types.StringValue(res.ControlTopicID)
		}
	}
	if e.RecordsToDelete.IsUnknown() {
		e.RecordsToDelete = types.Int64Value(0)
	}
	if e.Partitions.IsUnknown() {
		e.Partitions = noPartitions()
	}
}

// settleWithoutPlan fills what the plan of a boundary with no plan left
// unknown: NONE when its control topic is missing or records nothing;
// REFUSED, with a diagnostic, when it cannot be read or records a plan
// since the plan was made (planned with no plan_json, the apply cannot adopt
// it; the next plan does, for review).
func (r entryRules) settleWithoutPlan(ctx context.Context, clients *providerdata.Clients, kafka *kafkaops.Client, e *boundaryEntry, prior *boundaryEntry, diags *diag.Diagnostics) {
	control := e.ControlTopic.ValueString()
	idUnknown, enabledUnknown := e.ControlTopicID.IsUnknown(), e.CleanupEnabled.IsUnknown()
	e.Status = types.StringValue(statusNone)
	if idUnknown {
		e.ControlTopicID = types.StringNull()
	}
	if enabledUnknown {
		e.CleanupEnabled = types.BoolValue(latched(prior))
	}
	log, described, err := historyOfNewTopic(ctx, kafka, control)
	switch {
	case errors.Is(err, kafkaops.ErrTopicNotFound):
		return
	case err != nil:
		r.report(noPlanReadFailed(clients, control, err), diags)
		e.Status = types.StringValue(statusRefused)
		return
	}
	if idUnknown {
		e.ControlTopicID = types.StringValue(described.ID.String())
	}
	if latest, ok := log.Latest(); ok {
		r.report(diagnostics.PlanRecordedSincePlan(control, latest.PlanID, string(latest.Status)), diags)
		e.Status = types.StringValue(statusRefused)
		if enabledUnknown && len(log.Boundary()) > 0 {
			e.CleanupEnabled = types.BoolValue(true)
		}
	}
}

// knownString is v's value, "" when null or unknown.
func knownString(v types.String) string {
	if v.IsNull() || v.IsUnknown() {
		return ""
	}
	return v.ValueString()
}
