package diagnostics

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// RuntimeNoBoundaryRefusal is what the runtime's KafkaActionStateStore throws
// when it restores with a control topic that holds no committed boundary.
const RuntimeNoBoundaryRefusal = "Kafka cleanup control topic contains no committed boundary; " +
	"apply a cleanup plan before enabling checkpoint-aligned cleanup during recovery"

// ControlTopicNotRenderedYet warns that control_topic was left out of the
// rendered configuration because it holds no committed boundary yet.
func ControlTopicNotRenderedYet(attr path.Path, control string, missing bool) diag.Diagnostic {
	why := fmt.Sprintf("control topic %q holds no committed boundary yet", control)
	if missing {
		why = fmt.Sprintf("control topic %q does not exist yet", control)
	}
	return diag.NewAttributeWarningDiagnostic(attr, "Cleanup Control Topic Not Rendered Yet",
		fmt.Sprintf("While rendering the agent configuration: %s, so kafkaActionStateCleanupControlTopic was left out and "+
			"cleanup_enabled is false. A job configured with it now would fail every restore with the runtime's refusal:\n\n"+
			"  IllegalStateException: %s\n\n"+
			"The job runs without checkpoint-aligned cleanup meanwhile, which is safe: nothing is deleted for it. Next: apply the "+
			"operator's first cleanup boundary (flinkagents_cleanup_boundary), then read this data source again and redeploy the job "+
			"with the rendered kafkaActionStateCleanupControlTopic.", why, RuntimeNoBoundaryRefusal))
}

// SkippedUnreadablePlan is problem (why a job's recovery point could not be
// planned) downgraded to a warning because on_unreadable is "skip".
func SkippedUnreadablePlan(problem diag.Diagnostic) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Skipped: "+problem.Summary(),
		problem.Detail()+"\n\non_unreadable = \"skip\": this plan is null, so this job's boundary does not move in this run and "+
			"every other job's still does. Fix the point named above (or wait for the job's next checkpoint) before the next "+
			"scheduled run; a job skipped run after run keeps all its action state.")
}
