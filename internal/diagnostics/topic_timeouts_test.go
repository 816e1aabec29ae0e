package diagnostics

import (
	"errors"
	"testing"
	"time"
)

func TestTopicStepTimedOutNamesTheBlockTheStepAndTheTopic(t *testing.T) {
	err := errors.New(`alter topic configs on topic "orders-action-state": context deadline exceeded`)
	step := `updating the settings of action-state topic "orders-action-state"`
	d := TopicStepTimedOut("action-state topic", "update", 2*time.Second, step, "Nothing was written.", err)
	assertShapeOf(t, d, step+", the resource's timeouts.update (2s) ran out", "Action-State Topic Update Timed Out",
		"Nothing was written. If the cluster is only slow, raise timeouts.update", err)
}
