package diagnostics

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// A cleanup that timed out is advised by what ran it: the action has no
// timeouts block and is finished by invoking it again; a resource has one.
func TestCleanupTimeoutAdviceFitsTheCaller(t *testing.T) {
	err := fmt.Errorf("committing the transaction on control topic \"c\" that appended COMMITTED for plan abc failed, but a re-read of the control topic shows it landed: %w",
		context.DeadlineExceeded)
	action := FromCleanupErrorFor(CleanupByAction, op, err, "")
	assertShape(t, action, "Kafka Operation Timed Out", "invoke the action again with the same plan", err)
	if strings.Contains(action.Detail(), "timeouts block (") || !strings.Contains(action.Detail(), "the action has no timeouts block") {
		t.Errorf("the action's advice names a timeouts block it does not have:\n%s", action.Detail())
	}
	resource := FromCleanupErrorFor(CleanupByResource, op, err, "")
	assertShape(t, resource, "Kafka Operation Timed Out", "the resource's timeouts block", err)
	// A refusal keeps its own diagnostic for either caller.
	refusal := fmt.Errorf("%w: plan x", cleanupplan.ErrBackwardMove)
	if d := FromCleanupErrorFor(CleanupByAction, op, refusal, ""); d.Summary() != "Cleanup Boundary Would Move Backward" {
		t.Errorf("summary %q", d.Summary())
	}
}
