package diagnostics

import (
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// The diagnostics of a plan that follows a job's directories.
func TestFollowingDiagnostics(t *testing.T) {
	doing := "choosing a recovery point in /ckpt/job"
	err := errors.New("boom")
	assertShapeOf(t, RecoveryPointsRetiredWhileReading(doing, err), doing, "Recovery Points Deleted While Being Read", "Run again", err)

	none := NoRecoveryPointToFollow(doing, err)
	if none.Severity() != diag.SeverityWarning || !strings.Contains(none.Detail(), "plan_json == null ? 0 : 1") {
		t.Errorf("no point yet: %v %s\n%s", none.Severity(), none.Summary(), none.Detail())
	}
	few := FewerRecoveryPointsThanNthNewest(3, 2, "/ckpt/job/chk-7")
	if few.Severity() != diag.SeverityWarning || !strings.Contains(few.Detail(), "the plan follows the oldest, /ckpt/job/chk-7") ||
		!strings.Contains(few.Detail(), "the plan follows the 3rd newest") {
		t.Errorf("fewer points: %v\n%s", few.Severity(), few.Detail())
	}
	if d := ChoiceWithoutDirectory(path.Root("select")); d.Severity() != diag.SeverityError || !strings.Contains(d.Detail(), "Set checkpoint_dir") {
		t.Errorf("choice without a directory: %s", d.Detail())
	}
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 102: "102nd", 111: "111th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %s, want %s", n, got, want)
		}
	}
}

// A topic moved from the Mongey provider: settings it managed that the
// target enforces are named with the reason.
func TestMovedTopicDiagnostics(t *testing.T) {
	d := MovedTopicSettingsDropped("flinkagents_action_state_topic", "orders", []string{"cleanup.policy=compact (enforced)", "retention.ms=604800000 (enforced)"})
	if d.Severity() != diag.SeverityWarning || !strings.Contains(d.Detail(), "\n  cleanup.policy=compact (enforced)\n  retention.ms=604800000 (enforced)\n") {
		t.Errorf("dropped settings: %v\n%s", d.Severity(), d.Detail())
	}
	if d := MovedTopicUnreadable("registry.terraform.io/mongey/kafka", 1, "flinkagents_action_state_topic"); d.Severity() != diag.SeverityError ||
		!strings.Contains(d.Detail(), "schema version 1") || !strings.Contains(d.Detail(), "import block") {
		t.Errorf("unreadable state: %s", d.Detail())
	}
}
