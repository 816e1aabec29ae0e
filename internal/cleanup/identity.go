package cleanup

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// checkTopic is steps 2 and 3, re-run around the deletion: identity (topic
// ID, partition set) and settings. It returns the topic as described.
// Once the plan is COMMITTED, a topic that was deleted or recreated is
// reported by recreatedDuringApply: the refusal's "nothing was written"
// would no longer be true.
func (a *applier) checkTopic(ctx context.Context) (kafkaops.Topic, error) {
	t, err := checkIdentity(ctx, a.k, a.plan)
	if err != nil {
		if a.committed && (errors.Is(err, ErrTopicIDChanged) || errors.Is(err, ErrActionStateTopicGone)) {
			return t, a.recreatedDuringApply(t, err)
		}
		return t, err
	}
	return t, a.checkSettings(ctx)
}

// checkIdentity verifies that the plan's topic exists with the plan's topic
// ID and exactly the plan's partitions, and returns it as described.
func checkIdentity(ctx context.Context, k Kafka, plan cleanupplan.Plan) (kafkaops.Topic, error) {
	t, err := k.DescribeTopic(ctx, plan.Topic)
	if err != nil {
		if errors.Is(err, kafkaops.ErrTopicNotFound) {
			return t, fmt.Errorf("%w: action-state topic %q does not exist (plan %s expects topic ID %s); nothing was deleted: %v",
				ErrActionStateTopicGone, plan.Topic, plan.ID(), plan.TopicID, err)
		}
		return t, err
	}
	if got := t.ID.String(); got != plan.TopicID {
		return t, fmt.Errorf("%w: topic %q now has ID %s but the plan was made for ID %s; the topic was deleted and recreated, so the plan's offsets do not describe it. Nothing was deleted",
			ErrTopicIDChanged, plan.Topic, got, plan.TopicID)
	}
	want := plan.Offsets.Partitions()
	if !slices.Equal(t.Partitions, want) {
		if missing := cleanupplan.MissingPartitions(plan.ID(), plan.Topic, plan.Offsets, t.Partitions,
			fmt.Sprintf("the topic has %d partitions %s", len(t.Partitions), shortList(t.Partitions))); missing != nil {
			// Still ErrPartitionSetChanged: the topic may have gained
			// partitions since the plan's checkpoint.
			return t, fmt.Errorf("%w: %w", ErrPartitionSetChanged, missing)
		}
		return t, fmt.Errorf("%w: topic %q has %d partitions %s but the plan covers %d; nothing was deleted",
			ErrPartitionSetChanged, plan.Topic, len(t.Partitions), shortList(t.Partitions), len(want))
	}
	return t, nil
}

func shortList(ps []int32) string {
	if len(ps) > 8 {
		return fmt.Sprintf("%v...", ps[:8])
	}
	return fmt.Sprint(ps)
}
