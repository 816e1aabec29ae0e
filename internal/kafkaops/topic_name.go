package kafkaops

import (
	"fmt"
	"slices"
)

// MaxTopicNameLength is the longest topic name Kafka accepts: 249, so that
// a partition directory "<topic>-<partition>" fits a 255-byte file name.
const MaxTopicNameLength = 249

// internalTopics are the topics Kafka keeps for itself: consumer group
// offsets, transaction state and share group state
// (org.apache.kafka.common.internals.Topic.INTERNAL_TOPICS), the KRaft
// metadata log, and tiered storage's remote log metadata. Action state or
// boundaries written there would corrupt them, and deleting their records
// would break every consumer group or transaction of the cluster.
var internalTopics = []string{"__consumer_offsets", "__transaction_state", "__share_group_state", "__cluster_metadata", "__remote_log_metadata"}

// CheckTopicName is the one rule for the name of a topic this provider
// manages or reads (an action-state or control topic), whatever it came
// from: configuration, an import ID, a moved block's state. It refuses a
// name Kafka refuses (org.apache.kafka.common.internals.Topic.validate):
// empty, "." or ".." (they would name the log directory itself or its
// parent), longer than 249, or with a character outside a-z A-Z 0-9 . _ -;
// and one of Kafka's internal topics. Checking before any request keeps a
// bad name from reaching the broker, the runtime's configuration or an ACL.
func CheckTopicName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("the topic name is empty")
	case slices.Contains(internalTopics, name):
		return fmt.Errorf("the topic name %q is one of Kafka's internal topics, which hold the cluster's own state; "+
			"an action-state or control topic must be a topic of its own", name)
	case name == "." || name == "..":
		return fmt.Errorf("the topic name %q is refused by Kafka (it would name a log directory's own entry)", name)
	case len(name) > MaxTopicNameLength:
		return fmt.Errorf("the topic name is %d characters long, more than Kafka's %d", len(name), MaxTopicNameLength)
	}
	for i, c := range name {
		if !isTopicNameChar(c) {
			return fmt.Errorf("the topic name %q holds %q at byte %d; Kafka allows only a-z A-Z 0-9 . _ -", name, c, i)
		}
	}
	return nil
}

func isTopicNameChar(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
}

// CheckTopicNamePrefix is CheckTopicName for the start of a name, as a
// listing filters by: empty (no filter), or what a topic name may begin
// with. A prefix no topic name can have would list nothing, silently.
func CheckTopicNamePrefix(prefix string) error {
	if len(prefix) > MaxTopicNameLength {
		return fmt.Errorf("the prefix is %d characters long, more than a topic name's %d", len(prefix), MaxTopicNameLength)
	}
	for i, c := range prefix {
		if !isTopicNameChar(c) {
			return fmt.Errorf("the prefix %q holds %q at byte %d, which no topic name can; Kafka allows only a-z A-Z 0-9 . _ -", prefix, c, i)
		}
	}
	return nil
}
