package cleanup

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// Topic config keys the protocol depends on.
const (
	ConfigCleanupPolicy  = "cleanup.policy"
	ConfigRetentionMs    = "retention.ms"
	ConfigRetentionBytes = "retention.bytes"
)

// DataTopicSettings are the settings the runtime creates the action-state
// topic with, and the only ones under which cleanup may run: compaction keeps
// each key's latest state, "delete" lets DeleteRecords work (the broker
// refuses it otherwise), and infinite retention means nothing but our
// boundary ever removes records.
var DataTopicSettings = map[string]string{
	ConfigCleanupPolicy:  "compact,delete",
	ConfigRetentionMs:    "-1",
	ConfigRetentionBytes: "-1",
}

// PolicyEqual compares cleanup.policy values as sets of trimmed,
// comma-separated entries ("delete, compact" equals "compact,delete").
func PolicyEqual(a, b string) bool {
	return slices.Equal(policySet(a), policySet(b))
}

func policySet(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		// Java's String.trim, as the runtime compares: chars <= U+0020 only.
		if p = strings.TrimFunc(p, func(r rune) bool { return r <= ' ' }); p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// dataTopicSettingsDrift lists the enforced settings whose live value
// differs, as key -> live value ("" when unset).
func dataTopicSettingsDrift(cfg map[string]kafkaops.ConfigValue) map[string]string {
	drift := map[string]string{}
	for k, want := range DataTopicSettings {
		got := cfg[k]
		same := !got.Null && got.Value == want
		if k == ConfigCleanupPolicy {
			same = !got.Null && PolicyEqual(got.Value, want)
		}
		if !same {
			drift[k] = got.Value
		}
	}
	return drift
}

// checkDataTopicSettings fails with ErrDataTopicSettings naming each wrong
// setting and the fix.
func checkDataTopicSettings(topic string, cfg map[string]kafkaops.ConfigValue) error {
	drift := dataTopicSettingsDrift(cfg)
	if len(drift) == 0 {
		return nil
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range drift {
			if !yield(k) {
				return
			}
		}
	})
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%q (needs %q)", k, drift[k], DataTopicSettings[k]))
	}
	return fmt.Errorf("%w: topic %q has %s. Set them (the flinkagents_action_state_topic resource enforces them) and retry; nothing was written or deleted",
		ErrDataTopicSettings, topic, strings.Join(parts, ", "))
}

// ControlTopicPolicy is the one cleanup.policy a control topic may have:
// compaction keeps every plan's latest record, and without "delete" no
// retention can ever remove a boundary.
const ControlTopicPolicy = "compact"

// PolicySatisfies says whether a topic's live cleanup.policy satisfies the
// one the protocol requires of it, compared as the runtime compares it: a
// control topic's exactly (no trimming, no list: " compact" and
// "compact,compact" make the runtime refuse every restore), a data topic's
// as a set.
func PolicySatisfies(required, live string) bool {
	if required == ControlTopicPolicy {
		return live == ControlTopicPolicy
	}
	return PolicyEqual(required, live)
}

// checkControlTopic verifies the control topic's shape: it exists, is not
// the data topic, has exactly partition 0, and cleanup.policy is exactly
// "compact", the runtime's rule.
func checkControlTopic(t kafkaops.Topic, cfg map[string]kafkaops.ConfigValue, dataTopic string) error {
	if t.Name == dataTopic {
		return fmt.Errorf("%w: control topic %q is the action-state topic itself; use a dedicated topic", ErrControlTopicMisconfigured, t.Name)
	}
	if len(t.Partitions) != 1 || t.Partitions[0] != 0 {
		return fmt.Errorf("%w: control topic %q has %d partitions; it must have exactly one so that every reader sees one order of boundaries",
			ErrControlTopicMisconfigured, t.Name, len(t.Partitions))
	}
	if pol := cfg[ConfigCleanupPolicy]; pol.Null || !PolicySatisfies(ControlTopicPolicy, pol.Value) {
		return fmt.Errorf("%w: control topic %q has cleanup.policy=%q; the runtime requires exactly %q (no spaces, no list), "+
			"and refuses every restore of a job configured with this topic until it is. Nothing was written or deleted. "+
			"Set it to %q (the flinkagents_cleanup_control_topic resource does)",
			ErrControlTopicMisconfigured, t.Name, pol.Value, ControlTopicPolicy, ControlTopicPolicy)
	}
	return nil
}

// describeControlTopic checks the control topic's shape and returns it as
// described (its ID is what a recreation changes).
func describeControlTopic(ctx context.Context, k Kafka, name, dataTopic string) (kafkaops.Topic, error) {
	t, err := k.DescribeTopic(ctx, name)
	if err != nil {
		if errors.Is(err, kafkaops.ErrTopicNotFound) {
			return t, fmt.Errorf("%w: control topic %q does not exist; create it (flinkagents_cleanup_control_topic) before recording a boundary: %w",
				ErrControlTopicMisconfigured, name, err)
		}
		return t, err
	}
	cfg, err := k.TopicConfigs(ctx, name)
	if err != nil {
		return t, err
	}
	return t, checkControlTopic(t, cfg, dataTopic)
}

// checkSettings is step 3 on the plan's topic.
func (a *applier) checkSettings(ctx context.Context) error {
	cfg, err := a.k.TopicConfigs(ctx, a.plan.Topic)
	if err != nil {
		return err
	}
	return checkDataTopicSettings(a.plan.Topic, cfg)
}
