package diagnostics

import (
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// The control topic left out of a job's configuration warns, names the
// topic and quotes the runtime's refusal word for word.
func TestControlTopicNotRenderedYet(t *testing.T) {
	for missing, why := range map[bool]string{true: `control topic "c" does not exist yet`, false: `control topic "c" holds no committed boundary yet`} {
		d := ControlTopicNotRenderedYet(path.Root("control_topic"), "c", missing)
		if d.Severity() != diag.SeverityWarning || d.Summary() != "Cleanup Control Topic Not Rendered Yet" {
			t.Errorf("%v %q", d.Severity(), d.Summary())
		}
		for _, want := range []string{"While rendering the agent configuration: " + why, RuntimeNoBoundaryRefusal, "redeploy the job"} {
			if !strings.Contains(d.Detail(), want) {
				t.Errorf("missing=%v: detail lacks %q:\n%s", missing, want, d.Detail())
			}
		}
	}
}

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
