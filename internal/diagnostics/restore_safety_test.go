package diagnostics

import (
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// The control topic left out of a job's configuration warns, names the
// topic and quotes the runtime's refusal word for word.
// A skipped point keeps the original diagnostic's summary and detail, as a
// warning that says what skipping means.
func TestSkippedUnreadablePlan(t *testing.T) {
	problem := FromCheckpointError("reading recovery markers from /ckpt/job/chk-7", errors.New("unexpected EOF"))
	d := SkippedUnreadablePlan(problem)
	if d.Severity() != diag.SeverityWarning || d.Summary() != "Skipped: "+problem.Summary() {
		t.Errorf("%v %q", d.Severity(), d.Summary())
	}
	if !strings.HasPrefix(d.Detail(), problem.Detail()) || !strings.Contains(d.Detail(), "/ckpt/job/chk-7") || !strings.Contains(d.Detail(), `on_unreadable = "skip"`) {
		t.Errorf("detail:\n%s", d.Detail())
	}
}
