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
// key=control_topic pairs.
func BadBoundariesImportID(id string) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Invalid Import ID",
		fmt.Sprintf("The import ID %q is not a comma-separated list of key=control_topic pairs, one per boundary, each key once "+
			"(for example \"orders=agents-orders-cleanup-control,payments=agents-payments-cleanup-control\"). The keys are those of "+
			"the boundaries map in the configuration.", id))
}
