package cleanup

import (
	"context"
	"fmt"
)

// checkBinding is step 1: the plan cleans the topic the caller bound. It
// also checks the control topic's shape (section 5) and, when the caller
// recorded one, its ID: a control topic recreated since the caller last
// read it holds none of the recorded boundaries.
func (a *applier) checkBinding(ctx context.Context) error {
	if a.req.ExpectedTopic != "" && a.req.ExpectedTopic != a.plan.Topic {
		return fmt.Errorf("%w: plan %s cleans topic %q but this boundary is bound to %q; derive the plan from this job's checkpoint",
			ErrTopicMismatch, a.id, a.plan.Topic, a.req.ExpectedTopic)
	}
	control, err := describeControlTopic(ctx, a.k, a.req.ControlTopic, a.plan.Topic)
	if err != nil {
		return err
	}
	a.controlID = control.ID.String()
	if a.req.ControlTopicID != "" && a.controlID != a.req.ControlTopicID {
		return fmt.Errorf("%w: control topic %q now has ID %s but this boundary recorded ID %s; it was deleted and recreated, "+
			"so it holds none of the boundaries recorded before. Nothing was written or deleted",
			ErrControlTopicIDChanged, a.req.ControlTopic, a.controlID, a.req.ControlTopicID)
	}
	return nil
}
