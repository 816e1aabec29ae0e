package diagnostics

import (
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// TopicStepTimedOut reports a step of a topic's create, update or delete
// that the resource's timeouts block ended (key: "create", "update" or
// "delete"). step completes "While ..." and names the topic; outcome says
// what the step may or may not have changed.
func TopicStepTimedOut(label, key string, limit time.Duration, step, outcome string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic(fmt.Sprintf("%s %s Timed Out", titleCase(label), titleCase(key)),
		detail(fmt.Sprintf("%s, the resource's timeouts.%s (%s) ran out", step, key, limit),
			outcome+" If the cluster is only slow, raise timeouts."+key+" in the resource's timeouts block; otherwise check "+
				"broker health. Then run the same terraform command again: it converges.", err))
}
