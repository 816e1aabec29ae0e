package resources

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// A rollout creates each new operator's control topic and, in the same
// apply, its boundary reads it (when Terraform plans the boundary again
// with the topic's name known, and when it applies it). Brokers busy making
// many new logs leave a new partition without an answering leader for
// longer than one operation's timeout: a rollout of 1,000 operators x 64
// partitions on five nodes had 985 boundaries warn "list start offsets:
// context deadline exceeded" or NOT_LEADER_FOR_PARTITION, and, waiting for
// those, 3 still met UNKNOWN_TOPIC_OR_PARTITION from a leader that had not
// made the partition yet (kafkaops.LeadersNotReady). So a control
// topic this provider process created is read again while its leader is
// not answering, up to newTopicLeaderWithin; a topic that was there before
// is read once, as always (a leaderless partition there is an outage to
// report, not a birth to wait out).

// newTopicLeaderWithin bounds the wait for a new control topic's leader.
const newTopicLeaderWithin = 5 * time.Minute

// newTopicReadInterval spaces the reads meanwhile.
const newTopicReadInterval = 500 * time.Millisecond

// historyOfNewTopic is cleanup.HistoryAndTopic, read again while control
// was created by this process and its leader is not answering yet. Only
// the read is repeated; any other error, or ctx or the bound ending,
// stands as before.
func historyOfNewTopic(ctx context.Context, kafka *kafkaops.Client, control string) (*cleanupplan.Log, kafkaops.Topic, error) {
	log, t, err := cleanup.HistoryAndTopic(ctx, kafka, control)
	if err == nil || !kafka.CreatedHere(control) {
		return log, t, err
	}
	ctx, cancel := context.WithTimeout(ctx, newTopicLeaderWithin)
	defer cancel()
	for kafkaops.LeadersNotReady(ctx, err) {
		tflog.Debug(ctx, "cleanup: the new control topic's leader is not answering yet; reading again", map[string]any{"control_topic": control, "error": err.Error()})
		select {
		case <-ctx.Done():
			return log, t, err
		case <-time.After(newTopicReadInterval):
		}
		log, t, err = cleanup.HistoryAndTopic(ctx, kafka, control)
	}
	return log, t, err
}
