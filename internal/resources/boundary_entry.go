package resources

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
)

// boundaryEntry is one boundary as both boundary resources plan, apply and
// read it: flinkagents_cleanup_boundary holds one (cleanup_boundary.go),
// flinkagents_cleanup_boundaries one per operator. The lifecycle of an entry
// is in boundary_entry_plan.go, boundary_entry_apply.go and
// boundary_entry_read.go; the resources fan it out and convert.
//
// What each value means after any operation, so that an apply writes what
// the next refresh reads (no drift on a quiet night):
//   - plan_json, plan_id: the plan asked for (configured, or kept from state
//     when the configuration gives none);
//   - status: where that plan stands in the control topic, or REFUSED / NONE;
//   - records_to_delete, partitions: the review of the latest change, as
//     previewed at plan time. A refresh never rewrites them: after the apply
//     they are what was reviewed, and only a new change plans new ones;
//   - cleanup_enabled: the control topic holds a committed boundary, so the
//     job's configuration must name it. Once true it stays true.
type boundaryEntry struct {
	ControlTopic     types.String  `tfsdk:"control_topic"`
	ActionStateTopic types.String  `tfsdk:"action_state_topic"`
	PlanJSON         planJSONValue `tfsdk:"plan_json"`
	PlanID           types.String  `tfsdk:"plan_id"`
	ControlTopicID   types.String  `tfsdk:"control_topic_id"`
	Status           types.String  `tfsdk:"status"`
	RecordsToDelete  types.Int64   `tfsdk:"records_to_delete"`
	Partitions       types.Map     `tfsdk:"partitions"`
	CleanupEnabled   types.Bool    `tfsdk:"cleanup_enabled"`
}

// Statuses besides the control log's own COMMITTED and APPLIED.
const (
	// statusNotRecorded: the control topic does not hold the plan (a
	// recreated control topic, or an apply that failed before its commit):
	// the next apply records it.
	statusNotRecorded = "NOT_RECORDED"
	// statusDeletionPending: the plan is recorded APPLIED but the topic
	// holds records below the effective boundary: the next apply deletes
	// them (again).
	statusDeletionPending = "DELETION_PENDING"
	// statusRefused: the plan asked for was refused at plan time (a
	// backward move, a recreated or deleted topic, a misconfigured control
	// topic, ...) and is held: nothing is written or deleted for it, and the
	// control topic keeps whatever boundary it recorded before.
	statusRefused = "REFUSED"
	// statusNone: no plan was given and the control topic records none (a
	// new operator before its first checkpoint).
	statusNone = "NONE"
)

// entryRules are how one resource treats its boundaries.
type entryRules struct {
	// hold: a refusal or failure of one boundary holds it (a warning naming
	// it) instead of failing the whole plan or apply, so the other entries
	// of a fleet advance.
	hold bool
	// deferOutcome: status and cleanup_enabled of a boundary with work to
	// do stay unknown until the apply, which records what happened even
	// when it failed. The single resource plans APPLIED and fails instead.
	deferOutcome bool
	// key names the entry in diagnostics ("" for the single resource).
	key string
}

// report adds d, naming the entry, as an error, or as a warning when a
// refusal holds the entry.
func (r entryRules) report(d diag.Diagnostic, diags *diag.Diagnostics) {
	switch {
	case r.key == "":
		diags.Append(d)
	case r.hold && d.Severity() == diag.SeverityError:
		diags.Append(diagnostics.HeldBoundary(r.key, entryAttr(r.key, d), d))
	default:
		diags.Append(forEntry(r.key, d))
	}
}

// unchanged: the same plan, recorded APPLIED in the same control topic,
// with nothing left below it: plan keeps the entry as read and apply leaves
// it alone.
func unchanged(prior *boundaryEntry, now boundaryEntry) bool {
	return prior != nil && prior.PlanID.Equal(now.PlanID) && prior.ControlTopic.Equal(now.ControlTopic) &&
		prior.Status.ValueString() == string(cleanupplan.StatusApplied)
}

// noPartitions is the partitions value of a boundary that deletes nothing
// because it has no plan to apply (NONE, REFUSED).
func noPartitions() types.Map { return types.MapValueMust(types.StringType, map[string]attr.Value{}) }

// latched is cleanup_enabled once known true: a control topic that held a
// committed boundary keeps being named in the job's configuration, whatever
// is read later (a recreated control topic is recorded again by the next
// apply; until then the runtime refuses restores, which is the safe side).
func latched(prior *boundaryEntry) bool {
	return prior != nil && prior.CleanupEnabled.ValueBool()
}
