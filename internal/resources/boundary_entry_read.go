package resources

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// readEntry refreshes e from its control topic and its action-state topic's
// start offsets: status, control_topic_id and cleanup_enabled, so a
// boundary recorded or advanced elsewhere, or records readable again below
// it, show. The review (records_to_delete, partitions) stays what was
// planned and applied; only an entry without one (imported, or from an
// older provider) is given the current one. An error leaves e as it was. It
// returns what it read for the next plan's review (boundary_entry_facts.go),
// nil when it could not compare the topics.
func (r entryRules) readEntry(ctx context.Context, clients *providerdata.Clients, kafka *kafkaops.Client, e *boundaryEntry, diags *diag.Diagnostics) *entryFacts {
	control := e.ControlTopic.ValueString()
	status := e.Status.ValueString()
	topic := ""
	if !e.ActionStateTopic.IsNull() && !e.ActionStateTopic.IsUnknown() {
		topic = e.ActionStateTopic.ValueString()
	}
	ins, err := cleanup.InspectWithTopic(ctx, kafka, control, topic)
	if errors.Is(err, kafkaops.ErrTopicNotFound) {
		if !e.ControlTopicID.IsNull() || (status != statusNone && status != statusRefused) {
			r.report(diagnostics.ControlTopicMissing(control), diags)
		}
		e.ControlTopicID = types.StringNull()
		if status != statusNone && status != statusRefused {
			e.Status = types.StringValue(statusNotRecorded)
		}
		return nil
	}
	if err != nil {
		r.report(clients.CleanupDiag(fmt.Sprintf("reading cleanup boundaries from control topic %q", control), err), diags)
		return nil
	}
	if !e.ControlTopicID.IsNull() && !e.ControlTopicID.IsUnknown() && e.ControlTopicID.ValueString() != ins.ControlTopicID {
		r.report(diagnostics.ControlTopicRecreated(control, e.ControlTopicID.ValueString(), ins.ControlTopicID), diags)
	}
	e.ControlTopicID = types.StringValue(ins.ControlTopicID)
	e.CleanupEnabled = types.BoolValue(e.CleanupEnabled.ValueBool() || len(ins.Log.Boundary()) > 0)
	facts := factsFrom(ins)
	if status == statusNone || status == statusRefused {
		return facts // the plan looks at these again
	}
	recorded, isRecorded := ins.Log.Lookup(e.PlanID.ValueString())
	e.Status = types.StringValue(statusNotRecorded)
	if isRecorded {
		e.Status = types.StringValue(string(recorded.Status))
	}
	if ins.Uncompared != nil {
		r.report(diagnostics.HistoryNotCompared(control, ins.Uncompared), diags)
		return nil
	}
	if len(ins.Remaining) > 0 && recorded.Status == cleanupplan.StatusApplied {
		// The effective boundary's records are not all gone: show the
		// deletion as pending, so the plan proposes it and apply performs it.
		e.Status = types.StringValue(statusDeletionPending)
		r.report(belowEffectiveBoundary(control, e.ActionStateTopic.ValueString(), recorded, ins), diags)
	}
	if len(ins.GonePast) > 0 {
		r.report(diagnostics.RecordsGonePastBoundary(e.ActionStateTopic.ValueString(), ins.GonePast), diags)
	}
	if isRecorded && (e.RecordsToDelete.IsNull() || e.Partitions.IsNull()) {
		e.RecordsToDelete = types.Int64Value(cleanup.Records(ins.Remaining))
		e.Partitions = tfconv.PartitionSummaries(recorded.Plan.Offsets, ins.Log.Boundary(), ins.Remaining, ins.GonePast)
	}
	return facts
}

// belowEffectiveBoundary says what the control topic records about the
// records still readable below the effective boundary of an APPLIED plan:
// a higher plan recorded COMMITTED and not applied (another applier, or a
// run stopped before it saved its state), or, when every plan is APPLIED,
// records that came back.
func belowEffectiveBoundary(control, topic string, ours cleanupplan.Operation, ins cleanup.Inspection) diag.Diagnostic {
	var pending []cleanupplan.Operation
	for _, op := range ins.Log.Operations() {
		if op.Status == cleanupplan.StatusCommitted && op.PlanID != ours.PlanID && above(op.Plan.Offsets, ours.Plan.Offsets) {
			pending = append(pending, op)
		}
	}
	if len(pending) > 0 {
		return diagnostics.HigherBoundaryNotApplied(control, topic, ours, pending, ins.Remaining)
	}
	return diagnostics.RecordsBelowAppliedBoundary(control, topic, ours, ins.Remaining)
}

// above reports whether a sets a higher offset than b on some partition.
func above(a, b cleanupplan.Offsets) bool {
	for p, off := range a {
		if off > b[p] {
			return true
		}
	}
	return false
}
