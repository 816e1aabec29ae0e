package cleanup

import (
	"errors"
	"fmt"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// recreatedDuringApply reports an action-state topic found deleted or
// recreated (checkIdentity's cause, whose "nothing was deleted" it
// replaces) after this apply recorded the plan as
// COMMITTED: what the apply did to the topic's name so far, and so which
// topic may have lost records, depends on whether DeleteRecords was sent.
func (a *applier) recreatedDuringApply(now kafkaops.Topic, cause error) error {
	found := fmt.Sprintf("now has ID %s", now.ID)
	if errors.Is(cause, ErrActionStateTopicGone) || errors.Is(cause, kafkaops.ErrTopicNotFound) {
		found = "no longer exists"
	}
	if a.deleted == nil {
		return fmt.Errorf("%w: plan %s is COMMITTED in control topic %q for topic %q with ID %s, and the topic %s. "+
			"No DeleteRecords request was sent, so this apply deleted no records of any topic",
			ErrTopicRecreatedDuringApply, a.id, a.req.ControlTopic, a.plan.Topic, a.plan.TopicID, found)
	}
	return fmt.Errorf("%w: plan %s is COMMITTED in control topic %q for topic %q with ID %s, and the topic %s. "+
		"This apply's DeleteRecords (%s) reached topic ID %s, as planned: the topic's ID was read unchanged right after it, "+
		"so the topic was deleted or recreated afterwards and no other topic lost records through this apply",
		ErrTopicRecreatedDuringApply, a.id, a.req.ControlTopic, a.plan.Topic, a.plan.TopicID, found,
		kafkaops.DescribeOffsets(a.deleted, "up to"), a.plan.TopicID)
}

// deleteRefused reports a DeleteRecords that found the topic's ID changed
// right before or right after its request (kafkaops.DeleteRecords checks
// both). Before, nothing was sent. After, Kafka's DeleteRecords, which
// names a topic and not its ID, may have reached the recreated topic: the
// error names its partitions and offsets, so the operator can check them.
func (a *applier) deleteRefused(e *kafkaops.DeleteRecordsIdentityError) error {
	if !e.Sent {
		now := kafkaops.Topic{Name: e.Topic, ID: e.Now}
		cause := error(e)
		if e.Gone {
			cause = errors.Join(kafkaops.ErrTopicNotFound, e)
		}
		return a.recreatedDuringApply(now, cause)
	}
	var who string
	switch {
	case e.Gone:
		who = "The topic no longer exists, so whichever incarnation of it the request reached is gone as well: no existing topic lost records through it"
	case e.Now.IsZero():
		who = fmt.Sprintf("Whether the topic was recreated around the request could not be read. Run apply again: its identity check says whether %q "+
			"is still topic ID %s. If it reports the topic recreated, the new topic may have lost its records below those offsets on those partitions", e.Topic, e.Checked)
	default:
		who = fmt.Sprintf("If the topic was recreated before the request reached its partitions' leaders, topic ID %s lost its records below those offsets "+
			"on those partitions; if after, the records deleted were topic ID %s's, as planned. "+
			"Check the start offsets of %q now (kafka-get-offsets.sh --bootstrap-server BROKERS --topic %s --time -2) against what the jobs writing to it need", e.Now, e.Checked, e.Topic, e.Topic)
	}
	return fmt.Errorf("%w: plan %s is COMMITTED in control topic %q for topic ID %s; %w. %s",
		ErrTopicRecreatedDuringApply, a.id, a.req.ControlTopic, e.Checked, e, who)
}
