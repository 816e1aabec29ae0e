package diagnostics

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// RuntimeNoBoundaryRefusal is what the runtime's KafkaActionStateStore throws
// when it restores with a control topic that holds no committed boundary.
const RuntimeNoBoundaryRefusal = "Kafka cleanup control topic contains no committed boundary; " +
	"apply a cleanup plan before enabling checkpoint-aligned cleanup during recovery"

// SkippedUnreadablePlan is problem (why a job's recovery point could not be
// planned) downgraded to a warning because on_unreadable is "skip".
func SkippedUnreadablePlan(problem diag.Diagnostic) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Skipped: "+problem.Summary(),
		problem.Detail()+"\n\non_unreadable = \"skip\": this plan is null, so this job's boundary does not move in this run and "+
			"every other job's still does. Fix the point named above (or wait for the job's next checkpoint) before the next "+
			"scheduled run; a job skipped run after run keeps all its action state.")
}
