package diagnostics

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// rangeList renders ranges as "partition 3 [0, 120), ..." for a sentence,
// naming at most eight.
func rangeList(rs []cleanup.Range) string {
	parts := make([]string, 0, min(len(rs), 9))
	for i, r := range rs {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("and %d more", len(rs)-8))
			break
		}
		parts = append(parts, fmt.Sprintf("partition %d [%d, %d)", r.Partition, r.From, r.To))
	}
	return strings.Join(parts, ", ")
}

// RecordsBelowAppliedBoundary warns that every plan the control topic
// records is APPLIED while the topic still holds records below the
// effective boundary: the apply that this plan proposes deletes them again.
// It states what was read; the cause is not known here.
func RecordsBelowAppliedBoundary(control, topic string, ours cleanupplan.Operation, remaining []cleanup.Range) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Records Below An Applied Boundary Are Readable",
		fmt.Sprintf("Control topic %q records plan %s (from %q, first recorded at offset %d) as APPLIED, and no higher plan waits to be "+
			"applied, but action-state topic %q still holds records below the recorded boundary: %s.\n\n"+
			"Two things are known to cause this: a broker that crashed soon after DeleteRecords, before it persisted the new log start "+
			"offset (Kafka does so every log.flush.start.offset.checkpoint.interval.ms), and a tool that records APPLIED without deleting. "+
			"The boundary itself stands: the runtime refuses restores below it. terraform apply deletes these records again and verifies.",
			control, ours.PlanID, ours.Plan.SourceRecoveryPoint, ours.Offset, topic, rangeList(remaining)))
}

// HigherBoundaryNotApplied warns that the control topic records, above this
// boundary's APPLIED plan, plans that are COMMITTED and not applied: their
// deletion is what an apply of this boundary completes. It names who
// recorded what, not a guess at why.
func HigherBoundaryNotApplied(control, topic string, ours cleanupplan.Operation, pending []cleanupplan.Operation, remaining []cleanup.Range) diag.Diagnostic {
	names := make([]string, 0, len(pending))
	for _, op := range pending {
		names = append(names, fmt.Sprintf("plan %s (from %q, recorded COMMITTED at offset %d)", op.PlanID, op.Plan.SourceRecoveryPoint, op.Offset))
	}
	return diag.NewWarningDiagnostic("A Higher Cleanup Boundary Is Recorded But Not Applied",
		fmt.Sprintf("Control topic %q records %s above this boundary's plan %s (from %q, APPLIED, first recorded at offset %d). "+
			"The runtime already refuses restores below the higher boundary, but its records were not deleted: action-state topic %q "+
			"still holds %s.\n\n"+
			"An apply of this boundary completes that deletion up to the recorded boundary and records it APPLIED: the plan shows, in "+
			"partitions and records_to_delete, what it deletes, and in unrestorable_points which of your recovery points the recorded "+
			"boundary makes unrestorable. It was recorded by another apply of this control topic: another workspace, the Java tool, or a "+
			"run of this configuration stopped before it saved its state. If you do not recognise the plan, find who recorded it before applying.",
			control, strings.Join(names, ", "), ours.PlanID, ours.Plan.SourceRecoveryPoint, ours.Offset, topic, rangeList(remaining)))
}

// HeldBoundary turns the refusal d of one boundary of
// flinkagents_cleanup_boundaries (key) into a warning: the entry is held and
// the others go ahead.
func HeldBoundary(key string, at path.Path, d diag.Diagnostic) diag.Diagnostic {
	summary := fmt.Sprintf("Boundary %q Held: %s", key, d.Summary())
	detail := "Nothing is written or deleted for this boundary in this run; its control topic keeps what it recorded before, and the " +
		"runtime reads it on restore as it is (the reason below says whether that still works). The other boundaries of the resource " +
		"go ahead; this one is planned again on the next run. Set on_refusal = \"fail\" to stop the whole run instead.\n\n" + d.Detail()
	return diag.NewAttributeWarningDiagnostic(at, summary, detail)
}

// RecordsGonePastBoundary warns that records at or above the boundary were
// deleted outside the cleanup protocol.
func RecordsGonePastBoundary(topic string, gone []cleanup.Range) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Records Deleted Past The Cleanup Boundary",
		fmt.Sprintf("Action-state topic %q no longer holds records at or above the cleanup boundary on %s. "+
			"They were deleted outside this provider (retention.ms or retention.bytes set on the topic, a manual DeleteRecords, "+
			"or another tool).\n\nRestoring the job from a checkpoint or savepoint whose recovery marker lies in those ranges "+
			"can no longer replay the missing action state. Nothing is refused: plan the boundary from a recovery point at or above "+
			"these start offsets, and find what deleted them (flinkagents_action_state_topic enforces retention.ms=-1 and retention.bytes=-1).",
			topic, rangeList(gone)))
}

// HistoryNotCompared warns that the recorded boundary could not be checked
// against the action-state topic.
func HistoryNotCompared(control string, err error) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Cleanup Boundary Not Checked Against Its Topic",
		fmt.Sprintf("The boundary recorded in control topic %q could not be compared with its action-state topic, so whether records "+
			"below it remain is unknown. An apply of this boundary refuses to run until this is resolved.\n\nOriginal error: %s", control, err))
}

// BoundaryRef names a boundary of the configuration being planned: Who is
// the resource ("flinkagents_cleanup_boundary", or an entry of
// flinkagents_cleanup_boundaries), PlanID and Source its plan.
type BoundaryRef struct{ Who, PlanID, Source string }

// TwoBoundariesOneControlTopic refuses a configuration holding two
// boundaries on one control topic: this one, and other planned before it.
func TwoBoundariesOneControlTopic(control string, this, other BoundaryRef) diag.Diagnostic {
	same := ""
	if this.PlanID == other.PlanID {
		same = " Even with the same plan, two resources would each record and delete on their own and disagree about the boundary as soon as one changes."
	}
	return diag.NewErrorDiagnostic("Two Cleanup Boundaries Share A Control Topic",
		fmt.Sprintf("While planning: this boundary (%s, plan %s, from %q) and another boundary in this configuration (%s, plan %s, "+
			"from %q) both record into control topic %q. A control topic holds one boundary history; two boundaries would each "+
			"apply their own plan and fence each other's transactions on every run.%s\n\n"+
			"Keep one boundary per control topic and point its plan_json at the recovery point to keep. "+
			"Nothing was written or deleted.", this.Who, this.PlanID, this.Source, other.Who, other.PlanID, other.Source, control, same))
}

// MalformedPlan reports a plan_json (or plan file) that is not a valid
// cleanup plan; attr is the attribute that holds it.
func MalformedPlan(attr path.Path, err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Malformed Cleanup Plan",
		attr.String()+" is not a valid cleanup plan, so nothing will be written or deleted.\n\n"+
			"Regenerate it with data.flinkagents_cleanup_plan or the Java tool's plan command; plans are never edited by hand "+
			"(the plan ID covers every field).\n\nOriginal error: "+err.Error())
}

// BoundariesArePermanent warns, on destroy, that a boundary outlives its
// resource.
func BoundariesArePermanent() diag.Diagnostic {
	return diag.NewWarningDiagnostic("Cleanup Boundaries Are Permanent",
		"Destroying flinkagents_cleanup_boundary only removes it from Terraform state. The boundary stays recorded in the control topic, "+
			"the deleted records stay deleted, and the runtime keeps refusing restores below it.")
}

// PlanCleansAnotherTopic refuses a plan for another topic than the one the
// boundary is bound to.
func PlanCleansAnotherTopic(attr path.Path, planTopic, bound string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Plan Cleans Another Topic",
		fmt.Sprintf("plan_json cleans topic %q but action_state_topic is %q. Derive the plan from the checkpoint of the job that writes %q. "+
			"Nothing was written or deleted.", planTopic, bound, bound))
}

// ControlTopicMissing warns that a boundary's control topic is gone.
func ControlTopicMissing(control string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Cleanup Control Topic Missing",
		fmt.Sprintf("Control topic %q no longer exists, so this boundary is no longer recorded anywhere; Terraform will plan to record it again.", control))
}

// PlanRecordedSincePlan warns that a boundary planned with no plan found,
// at apply, a plan recorded in its control topic since: it is not adopted
// unreviewed.
func PlanRecordedSincePlan(control, planID, status string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Cleanup Plan Recorded Since The Plan",
		fmt.Sprintf("Control topic %q was empty or missing when Terraform planned, and now records plan %s as %s, written by another "+
			"applier meanwhile. This apply writes and deletes nothing for it and holds the boundary (REFUSED); run terraform plan to "+
			"review that plan, which the boundary then adopts.", control, planID, status))
}

// ControlTopicRecreated warns, on refresh, that a boundary's control topic
// was deleted and recreated: the boundaries recorded in the old one are gone.
func ControlTopicRecreated(control, recordedID, liveID string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Cleanup Control Topic Was Recreated",
		fmt.Sprintf("Control topic %q now has topic ID %s, but this boundary was recorded in the topic with ID %s: it was deleted and "+
			"recreated outside Terraform, and every boundary recorded in the old one is gone, so the runtime no longer enforces them "+
			"on restore. Find out who recreated it. The plan shows this boundary's status and records it in the new topic on apply; "+
			"a plan saved before this refresh is refused.", control, liveID, recordedID))
}

// NoBoundaryRecorded refuses an import from a control topic without plans.
func NoBoundaryRecorded(op string) diag.Diagnostic {
	return diag.NewErrorDiagnostic("No Cleanup Boundary Recorded",
		fmt.Sprintf("While %s: it holds no plan. There is nothing to import; create the boundary with a plan instead.", op))
}

// BoundaryWouldMakeKeptPointUnrestorable refuses, at plan time, a boundary
// after which the runtime would refuse to restore a point keep_restorable
// names.
func BoundaryWouldMakeKeptPointUnrestorable(planID, source, point, prefix string, r cleanupplan.RestoreRefusal) diag.Diagnostic {
	where := r.Reason
	if r.Partition >= 0 {
		where = fmt.Sprintf("on partition %d its marker is %d and the new boundary is %d (%s)", r.Partition, r.Marker, r.Boundary, r.Reason)
	}
	return diag.NewAttributeErrorDiagnostic(path.Root("keep_restorable"), "Boundary Would Make A Kept Recovery Point Unrestorable",
		fmt.Sprintf("While planning cleanup boundary %s (derived from %q): recovery point %q matches keep_restorable entry %q, "+
			"but once this boundary is recorded the runtime refuses to restore it: %s. Nothing was written or deleted.\n\n"+
			"To keep it restorable, derive the plan from a point at or below it: in data.flinkagents_cleanup_plan use "+
			"select = \"oldest\" (the default, which orders points by their markers) or a larger nth_newest, or pin "+
			"checkpoint_path to this point. If the point may go, remove it from keep_restorable.", planID, source, point, prefix, where))
}

// KeepRestorableMatchesNoPoint refuses a keep_restorable entry (attr) that
// names none of the recovery points given: it would protect nothing.
func KeepRestorableMatchesNoPoint(attr path.Path, prefix string, points int) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Kept Recovery Point Not Found",
		fmt.Sprintf("keep_restorable entry %q is not a prefix of any of the %d paths in recovery_points, so it protects nothing. "+
			"Nothing was written or deleted. Check the spelling against data.flinkagents_cleanup_plan.<name>.recovery_points[*].path "+
			"(the directory string as given, joined with the point's name); if the point was deleted on purpose, remove the entry.", prefix, points))
}

// InvalidRecoveryPointInput refuses a recovery_points element (attr) whose
// markers do not form a valid plan: it cannot be compared with a boundary.
func InvalidRecoveryPointInput(attr path.Path, point string, err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Invalid Recovery Point",
		fmt.Sprintf("Recovery point %q cannot be compared with the boundary, so nothing was written or deleted. Pass "+
			"data.flinkagents_cleanup_plan.<name>.recovery_points unchanged.\n\nOriginal error: %v", point, err))
}

// BoundaryStateNotUpgraded refuses a stored state this provider version
// cannot read, rather than guess at it.
func BoundaryStateNotUpgraded(fromVersion int64, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Cleanup Boundary State Not Upgraded",
		detail(fmt.Sprintf("upgrading the stored state of a flinkagents_cleanup_boundary from schema version %d", fromVersion),
			"Nothing was written. Check that the state file was not edited by hand (terraform state pull); "+
				"if it was, restore it from a backup, or remove the resource with terraform state rm and import it again by its control topic "+
				"(the boundary stays recorded in the control topic).",
			err))
}
