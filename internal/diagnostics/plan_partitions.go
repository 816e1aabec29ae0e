package diagnostics

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// planMissesPartitions reports a plan that covers only some of its
// topic's partitions (or of those the recorded boundary covers). The
// control topic is the topic's own: it is the plan that falls short.
func planMissesPartitions(op string, missing *cleanupplan.MissingPartitionsError, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic(fmt.Sprintf("Cleanup Plan Misses Partitions Of %s", missing.Topic),
		detail(op, cleanupOutcome(err)+" "+
			fmt.Sprintf("A cleanup plan names every partition of its action-state topic, as the recovery markers of a checkpoint do; this one lacks %s. ",
				partitionsText(missing.Missing))+
			"A plan from a checkpoint taken before partitions were added to the topic lacks the new ones: derive plan_json from a checkpoint or "+
			"savepoint taken since (data.flinkagents_cleanup_plan, or the Java tool's plan command). Plans are never edited by hand.", err))
}

func partitionsText(ps []int32) string {
	if len(ps) == 1 {
		return fmt.Sprintf("partition %d", ps[0])
	}
	return fmt.Sprintf("partitions %v", ps)
}
