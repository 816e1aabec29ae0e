package kafkaops_test

import (
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// The names Kafka's Topic.validate refuses, and Kafka's internal topics,
// are refused, with the reason; every other name passes.
func TestCheckTopicName(t *testing.T) {
	for _, ok := range []string{"orders", "a", "...", ".a", "a..b", "A-Z_0.9", strings.Repeat("x", 249), "__orders", "_schemas"} {
		if err := kafkaops.CheckTopicName(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for name, want := range map[string]string{
		"":                       "empty",
		".":                      `"." is refused`,
		"..":                     `".." is refused`,
		strings.Repeat("x", 250): "250 characters long, more than Kafka's 249",
		"a/b":                    `'/' at byte 1`,
		"a b":                    `' ' at byte 1`,
		"a*":                     `'*' at byte 1`,
		"ä":                      `'ä' at byte 0`,
		"__consumer_offsets":     "one of Kafka's internal topics",
		"__transaction_state":    "one of Kafka's internal topics",
		"__share_group_state":    "one of Kafka's internal topics",
		"__cluster_metadata":     "one of Kafka's internal topics",
		"__remote_log_metadata":  "one of Kafka's internal topics",
	} {
		if err := kafkaops.CheckTopicName(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", name, err, want)
		}
	}
}
