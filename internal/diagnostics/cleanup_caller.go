package diagnostics

import (
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// CleanupCaller is what ran the cleanup operation an error comes from:
// the advice differs where the two differ (how to bound the whole
// operation, how to run it again).
type CleanupCaller int

const (
	// CleanupByResource: a boundary resource or data source. Its timeouts
	// block bounds the whole operation; terraform apply runs it again.
	CleanupByResource CleanupCaller = iota
	// CleanupByAction: flinkagents_apply_cleanup_plan. An action has no
	// timeouts block; it runs again when invoked again.
	CleanupByAction
)

// FromCleanupErrorFor is FromCleanupErrorVia with advice fitting caller.
func FromCleanupErrorFor(caller CleanupCaller, op string, err error, conn string) diag.Diagnostic {
	if caller == CleanupByAction {
		if f, _ := classifyKafkaError(err); f == failureTimeout && !isRefusal(err) {
			return actionTimeout(op, err)
		}
	}
	return FromCleanupErrorVia(op, err, conn)
}

// isRefusal reports whether err is one of the protocol refusals, which
// keep their own diagnostics whatever else they wrap.
func isRefusal(err error) bool {
	for _, r := range cleanupRefusals {
		if errors.Is(err, r.err) {
			return true
		}
	}
	return false
}

// actionTimeout is kafkaTimeout for the action, which has no timeouts
// block and is finished by invoking it again.
func actionTimeout(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Kafka Operation Timed Out",
		detail(op+", the cluster did not answer in time (the error below says what was awaited, and whether the plan's COMMITTED record was written)",
			"Check broker health and connectivity. If the cluster is only slow, raise the provider's timeout attribute (per request, default \"30s\"); "+
				"the action has no timeouts block. Then invoke the action again with the same plan "+
				"(terraform apply -invoke=action.flinkagents_apply_cleanup_plan.NAME): it resumes a plan recorded COMMITTED, and records it "+
				"if nothing was recorded.", err))
}
