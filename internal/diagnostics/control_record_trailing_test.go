package diagnostics

import (
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// A record with content after its JSON object breaks restores too: the
// diagnostic names the record, what its object records, and the way on.
func TestControlRecordTrailingContent(t *testing.T) {
	p := mustPlan(t)
	k, v := cleanupplan.EncodeRecord(cleanupplan.StatusApplied, p)
	err := readError(t, "orders-cleanup", 4, k, append(v, " garbage"...))
	d := FromCleanupErrorVia(op, err, "k1:9092 in plaintext")
	assertShape(t, d, "Control Record Has Content After Its JSON",
		"kafka-console-consumer.sh --bootstrap-server BROKERS --topic orders-cleanup --partition 0 --offset 4", err)
	for _, want := range []string{
		`The control topic "orders-cleanup" holds, at partition 0, offset 4 (key "` + p.ID() + `"), a record whose JSON object is followed by 7 bytes of other content`,
		"the runtime's reader refuses it as this provider does",
		"every restore of a job configured with this control topic fails on it",
		"Nothing was written or deleted after it was read",
		"The object before that content records plan " + p.ID() + " (from file:/cp/chk-1) as APPLIED.",
		"apply to it the plan with the highest offsets recorded",
	} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("detail lacks %q:\n%s", want, d.Detail())
		}
	}
}
