package diagnostics

import (
	"errors"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

func TestTopicStepTimedOutNamesTheBlockTheStepAndTheTopic(t *testing.T) {
	err := errors.New(`alter topic configs on topic "orders-action-state": context deadline exceeded`)
	step := `updating the settings of action-state topic "orders-action-state"`
	d := TopicStepTimedOut("action-state topic", "update", 2*time.Second, step, "Nothing was written.", err)
	assertShapeOf(t, d, step+", the resource's timeouts.update (2s) ran out", "Action-State Topic Update Timed Out",
		"Nothing was written. If the cluster is only slow, raise timeouts.update", err)
}

func TestControlTopicPairingNotLearnedIsAWarning(t *testing.T) {
	err := errors.New("incomparable plans in control topic")
	d := ControlTopicPairingNotLearned("orders-cleanup", err)
	if d.Severity() != diag.SeverityWarning || d.Summary() != "Control Topic Pairing Not Learned" {
		t.Fatalf("got %v %q, want a warning titled Control Topic Pairing Not Learned", d.Severity(), d.Summary())
	}
	if want := `While importing cleanup control topic "orders-cleanup"`; d.Detail()[:len(want)] != want {
		t.Errorf("detail does not say what we were doing:\n%s", d.Detail())
	}
}
