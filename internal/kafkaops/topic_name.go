package kafkaops

import "fmt"

// MaxTopicNameLength is the longest topic name Kafka accepts: 249, so that
// a partition directory "<topic>-<partition>" fits a 255-byte file name.
const MaxTopicNameLength = 249

// CheckTopicName refuses a name Kafka refuses (org.apache.kafka.common
// .internals.Topic.validate): empty, "." or ".." (they would name the log
// directory itself or its parent), longer than 249, or with a character
// outside a-z A-Z 0-9 . _ -. Checking before any request keeps a bad name
// from reaching the broker, the runtime's configuration or an ACL.
func CheckTopicName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("the topic name is empty")
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
