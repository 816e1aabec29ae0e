package diagnostics

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// ControlRecordTrailingContent reports a control record whose JSON object
// is followed by more than whitespace. The runtime refuses it as well, so
// unlike other unreadable records it already breaks every restore of the
// job; the detail says what the object records and how to move on without
// losing the boundaries recorded before it.
func ControlRecordTrailingContent(op string, rec *cleanupplan.RecordError, trailing *cleanupplan.TrailingContentError, err error, conn string) diag.Diagnostic {
	topic, partition := recordLocation(err)
	var b strings.Builder
	fmt.Fprintf(&b, "The control topic %q holds, at partition %d, offset %d (%s), a record whose JSON object is followed by %s of other content, "+
		"from byte %d of its value. No tool of this protocol writes such a record, and the runtime's reader refuses it as this provider does "+
		"(Jackson's FAIL_ON_TRAILING_TOKENS): every restore of a job configured with this control topic fails on it. "+
		"Nothing was written or deleted after it was read.",
		topic, partition, rec.Offset, describeKey(rec.Key), plural(trailing.Length, "byte"), trailing.Offset)
	if r := trailing.Record; r != nil {
		fmt.Fprintf(&b, " The object before that content records plan %s (from %s) as %s.", r.PlanID, r.Plan.SourceRecoveryPoint, r.Status)
	}
	b.WriteString("\n\n")
	inspectRecord(&b, topic, partition, rec.Offset, conn)
	fmt.Fprintf(&b, "\n\nKafka cannot remove one record from a topic, so %q cannot serve restores again. Keep it as the record of what was "+
		"deleted, and move the boundary to a new control topic: create one (flinkagents_cleanup_control_topic), apply to it the plan with the "+
		"highest offsets recorded in %q (its plan file, or the same recovery point through data.flinkagents_cleanup_plan), and restart the job "+
		"with kafkaActionStateCleanupControlTopic set to the new topic.", topic, topic)
	return diag.NewErrorDiagnostic("Control Record Has Content After Its JSON", detail(op, b.String(), err))
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}
