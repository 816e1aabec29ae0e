package diagnostics

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// BoundaryEntriesForgotten warns, at plan time, that entries removed from a
// flinkagents_cleanup_boundaries are only forgotten: what they recorded and
// deleted stays so.
func BoundaryEntriesForgotten(keys []string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Cleanup Boundaries Are Permanent",
		fmt.Sprintf("The entries %s leave flinkagents_cleanup_boundaries: they are only removed from Terraform state. Their boundaries "+
			"stay recorded in their control topics, the deleted records stay deleted, and the runtime keeps refusing restores below them.",
			strings.Join(keys, ", ")))
}

// BadBoundariesImportID refuses an import ID that is not a list of
// key=control_topic pairs; problem says which part is wrong and how.
func BadBoundariesImportID(id string, problem error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Invalid Import ID",
		detail(fmt.Sprintf("importing flinkagents_cleanup_boundaries with import ID %q", id),
			"Nothing was imported. The import ID is a comma-separated list of key=control_topic pairs, one per boundary, each key "+
				"and each control topic once (for example \"orders=agents-orders-cleanup-control,payments=agents-payments-cleanup-control\"); "+
				"spaces around keys and topic names are ignored. The keys are those of the boundaries map in the configuration.", problem))
}
