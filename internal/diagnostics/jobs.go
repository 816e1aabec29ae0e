package diagnostics

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// ForJob is d as reported for one of several jobs read together: the
// summary starts with the job's key, so that in a fleet's list of warnings
// each says whose it is, and a diagnostic without a path of its own points
// at the job's entry (attr) in the configuration.
func ForJob(job string, attr path.Path, d diag.Diagnostic) diag.Diagnostic {
	return forKey("Job", job, attr, d)
}

// ForBoundary is d as reported for one entry of flinkagents_cleanup_boundaries.
func ForBoundary(key string, attr path.Path, d diag.Diagnostic) diag.Diagnostic {
	return forKey("Boundary", key, attr, d)
}

func forKey(what, key string, attr path.Path, d diag.Diagnostic) diag.Diagnostic {
	summary := fmt.Sprintf("%s %q: %s", what, key, d.Summary())
	if p, ok := d.(diag.DiagnosticWithPath); ok && !p.Path().Equal(path.Empty()) {
		attr = p.Path()
	}
	if d.Severity() == diag.SeverityError {
		return diag.NewAttributeErrorDiagnostic(attr, summary, d.Detail())
	}
	return diag.NewAttributeWarningDiagnostic(attr, summary, d.Detail())
}

// JobWithoutDirectory refuses a job (attr, keyed job) with neither
// checkpoint_dir nor savepoint_dir: there is nothing to follow.
func JobWithoutDirectory(attr path.Path, job string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, fmt.Sprintf("Job %q Has No Directory To Follow", job),
		fmt.Sprintf("jobs[%q] sets neither checkpoint_dir nor savepoint_dir, so there is no recovery point to plan from. Set "+
			"checkpoint_dir to the job's checkpoint directory (the parent of its chk-N directories: state.checkpoints.dir plus the "+
			"job ID), savepoint_dir to the directory holding its savepoint-* directories, or both; or remove the job.", job))
}

// JobOperatorFieldsConflict refuses a job (attr, keyed job) naming its
// operator twice.
func JobOperatorFieldsConflict(attr path.Path, job string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, fmt.Sprintf("Job %q Names Its Operator Twice", job),
		fmt.Sprintf("jobs[%q] sets both operator_uid and operator_uid_hash; they name the same operator two ways and could "+
			"disagree. Keep one: operator_uid as set with .uid() in the job, or operator_uid_hash (32 hex digits). Omit both to "+
			"find the one operator holding recovery markers.", job))
}

// NoRecoveryPointForJob warns that one job of flinkagents_cleanup_plans has
// no point to derive a plan from yet; the job then has no key in plans.
func NoRecoveryPointForJob(job string) func(op string, err error) diag.Diagnostic {
	return func(op string, err error) diag.Diagnostic {
		return diag.NewWarningDiagnostic("No Recovery Point To Follow Yet",
			detail(op, fmt.Sprintf("The directories exist but hold no complete checkpoint or savepoint (one with _metadata): the "+
				"job has not completed one yet. %q has no key in plans or plan_ids until it has, so nothing of it can be cleaned. "+
				"Key boundaries fed from it by plans (for_each over data.flinkagents_cleanup_plans.<name>.plans), so that this job "+
				"has none meanwhile.", job), err))
	}
}

// ForFleetEntry names the entry (its key) of flinkagents_action_state_topics
// a diagnostic of one of its topics is about.
func ForFleetEntry(key string, attr path.Path, d diag.Diagnostic) diag.Diagnostic {
	return forKey("Operator", key, attr, d)
}
