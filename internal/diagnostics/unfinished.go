package diagnostics

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// InvokeCommand finishes or runs a flinkagents_apply_cleanup_plan action;
// <name> is the action block's name, which Terraform does not tell the
// provider.
const InvokeCommand = "terraform apply -invoke=action.flinkagents_apply_cleanup_plan.<name>"

// unfinishedState says what a plan left COMMITTED means for the data.
const unfinishedState = "The runtime already refuses restores below that boundary, but the records below it are still in the topic."

// resumeSteps is what finishing a COMMITTED plan does.
const resumeSteps = "Finishing resumes the plan (nothing is committed twice): DeleteRecords below the boundary, " +
	"a check of the start offsets, then APPLIED."

// UnfinishedCleanupPlan warns that the latest plan recorded in a control
// topic is COMMITTED but not APPLIED: an apply of it stopped between its
// commit and its APPLIED record (Ctrl-C, a lost connection, a killed
// process). Shown where the history is read, with every way to finish it.
func UnfinishedCleanupPlan(control string, op cleanupplan.Operation) diag.Diagnostic {
	return unfinished(control, op, fmt.Sprintf("Finish it with any of: invoking again the action that applied it (%s), "+
		"terraform apply of the flinkagents_cleanup_boundary that planned it, or the runtime tool's apply --plan FILE "+
		"--control-topic %s with the same plan.", InvokeCommand, control))
}

// UnfinishedBeforeInvoke is UnfinishedCleanupPlan at the plan of a
// flinkagents_apply_cleanup_plan action: planID is the action's plan, op
// the control topic's latest, COMMITTED only.
func UnfinishedBeforeInvoke(control, planID string, op cleanupplan.Operation) diag.Diagnostic {
	finish := fmt.Sprintf("Invoking this action (%s) resumes it.", InvokeCommand)
	if op.PlanID != planID {
		finish = fmt.Sprintf("Invoking this action (%s) commits plan %s, deletes below it and records APPLIED for "+
			"both plans, which finishes plan %s too; invoking the action with plan %s's own plan file finishes it alone.",
			InvokeCommand, planID, op.PlanID, op.PlanID)
	}
	return unfinished(control, op, finish)
}

// unfinished is the warning both of the above give, with how to finish.
func unfinished(control string, op cleanupplan.Operation, finish string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Cleanup Plan COMMITTED But Not APPLIED",
		fmt.Sprintf("Control topic %q records cleanup plan %s for topic %q (from %s) as COMMITTED and not APPLIED: "+
			"an apply of it was interrupted after it recorded the plan. %s\n\n%s %s",
			control, op.PlanID, op.Plan.Topic, op.Plan.SourceRecoveryPoint, unfinishedState, finish, resumeSteps))
}

// CleanupPlanInterrupted reports an invocation of
// flinkagents_apply_cleanup_plan that Terraform stopped (Ctrl-C). committed
// says the plan was recorded COMMITTED before the stop; otherwise it may or
// may not have been (a commit in flight lands or not).
//
// terraform-plugin-go (v0.31.0) drops every InvokeAction event that follows
// the stop, this diagnostic included, so Terraform does not show it; the
// action logs it too, and the next plan of the action warns instead.
func CleanupPlanInterrupted(op, planID string, committed bool, err error) diag.Diagnostic {
	state := fmt.Sprintf("It stopped before plan %s was known to be COMMITTED: it may be recorded or not, and nothing was "+
		"deleted. terraform plan -invoke of the action says which: a warning names a plan COMMITTED but not APPLIED.", planID)
	if committed {
		state = fmt.Sprintf("Plan %s is COMMITTED and not APPLIED: %s", planID, unfinishedState)
	}
	return diag.NewErrorDiagnostic("Cleanup Plan Interrupted",
		detail(op+", Terraform stopped the action before it finished",
			state+" Invoke the action again with the same plan to finish it ("+InvokeCommand+"). "+resumeSteps, err))
}

// CleanupPlanReview tells, at the plan of a flinkagents_apply_cleanup_plan
// action, what invoking it deletes: records in all, and one line per
// partition as the boundary resource's partitions attribute reads. A
// warning only because Terraform shows a planned action's diagnostics and
// nothing else of it.
func CleanupPlanReview(planID, topic string, records int64, partitions []string) diag.Diagnostic {
	summary := "Cleanup Plan Deletes No Records"
	switch {
	case records == 1:
		summary = "Cleanup Plan Deletes 1 Record"
	case records > 1:
		summary = fmt.Sprintf("Cleanup Plan Deletes %d Records", records)
	}
	return diag.NewWarningDiagnostic(summary,
		fmt.Sprintf("Invoking the action applies cleanup plan %s: it deletes %d records from topic %q, by partition:\n%s\n\n"+
			"This is the review of the invocation, not a problem: Terraform shows a planned action's warnings and "+
			"no other output from the provider.", planID, records, topic, strings.Join(partitions, "\n")))
}
