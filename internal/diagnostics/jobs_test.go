package diagnostics

import (
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// A job's diagnostic keeps its severity, detail and own path, names the
// job first, and otherwise points at the job's entry.
func TestForJob(t *testing.T) {
	entry := path.Root("jobs").AtMapKey("orders")
	problem := FromCheckpointError("reading recovery markers from /ckpt/job/chk-7", errors.New("unexpected EOF"))
	for _, tc := range []struct {
		in       diag.Diagnostic
		severity diag.Severity
		at       path.Path
	}{
		{problem, diag.SeverityError, entry},
		{SkippedUnreadablePlan(problem), diag.SeverityWarning, entry},
		{FewerRecoveryPointsThanNthNewest(3, 2, "/ckpt/job/chk-7"), diag.SeverityWarning, path.Root("nth_newest")},
	} {
		d := ForJob("orders", entry, tc.in)
		if d.Severity() != tc.severity || d.Summary() != `Job "orders": `+tc.in.Summary() || d.Detail() != tc.in.Detail() {
			t.Errorf("%v %q\n%s", d.Severity(), d.Summary(), d.Detail())
		}
		if p, ok := d.(diag.DiagnosticWithPath); !ok || !p.Path().Equal(tc.at) {
			t.Errorf("%q: path %v, want %s", d.Summary(), d, tc.at)
		}
	}
}

// The refusals of one job's settings name the job.
func TestJobRefusals(t *testing.T) {
	entry := path.Root("jobs").AtMapKey("orders")
	for _, d := range []diag.Diagnostic{JobWithoutDirectory(entry, "orders"), JobOperatorFieldsConflict(entry, "orders")} {
		if d.Severity() != diag.SeverityError || !strings.HasPrefix(d.Summary(), `Job "orders" `) || !strings.Contains(d.Detail(), `jobs["orders"]`) {
			t.Errorf("%v %q\n%s", d.Severity(), d.Summary(), d.Detail())
		}
	}
	none := NoRecoveryPointForJob("orders")("choosing a recovery point in /ckpt/job", errors.New("no complete recovery point"))
	if none.Severity() != diag.SeverityWarning || !strings.Contains(none.Detail(), `"orders" has no key in plans`) ||
		!strings.HasPrefix(none.Detail(), "While choosing a recovery point in /ckpt/job.") {
		t.Errorf("no point yet: %v %q\n%s", none.Severity(), none.Summary(), none.Detail())
	}
}
