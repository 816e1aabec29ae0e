package diagnostics

import (
	"errors"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

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

func TestImportedTopicNotFound(t *testing.T) {
	err := errors.New(`describe topic on topic "orders-cleanup": topic not found`)
	d := ImportedTopicNotFound("cleanup control topic", "orders-cleanup", err)
	assertShapeOf(t, d, `importing cleanup control topic "orders-cleanup", Kafka answered that no topic of that name exists`,
		"Cleanup Control Topic Not Found", "run the import again", err)
}
