package diagnostics

import (
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

func TestTopicRefusals(t *testing.T) {
	err := errors.New("refused")
	for _, tt := range []struct {
		name, summary, next string
		d                   diag.Diagnostic
	}{
		{"ACL", "Kafka Topic Authorization Failed", "--operation CREATE --topic orders", TopicNotAuthorized(op, "orders", "CREATE", err)},
		{"policy", "Topic Refused By Broker Policy", "policy allows", PolicyViolation(op, "orders", err)},
		{"replication factor", "Replication Factor Not Possible", "number of live brokers", InvalidReplicationFactor(op, "orders", 3, err)},
		{"default replication factor", "Replication Factor Not Possible", "number of live brokers", InvalidReplicationFactor(op, "orders", -1, err)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assertShape(t, tt.d, tt.summary, tt.next, err)
			if !strings.Contains(tt.d.Detail(), `"orders"`) {
				t.Errorf("topic not named:\n%s", tt.d.Detail())
			}
		})
	}
}

func TestInvalidTopicName(t *testing.T) {
	err := errors.New(`the topic name ".." is refused by Kafka`)
	assertShapeOf(t, InvalidTopicName(path.Root("name"), err), "validating the configuration", "Invalid Kafka Topic Name",
		`Set name to the topic's real name: 1 to 249 characters of a-z A-Z 0-9 . _ -, not "." or "..", as Kafka requires, and not one of Kafka's internal topics`, err)
}

// Only a refusal found before any write may say nothing changed; a topic
// recreated while the writes ran is reported with what was sent.
func TestTopicIdentityDiagnosticsAreTruthful(t *testing.T) {
	before := TopicChangedSincePlan("action-state topic", "orders", "AAAA", "BBBB")
	if !strings.Contains(before.Detail(), "Nothing was changed") {
		t.Errorf("a refusal before any write does not say so:\n%s", before.Detail())
	}
	during := TopicRecreatedDuringUpdate("action-state topic", "orders", "AAAA", "BBBB",
		[]string{"cleanup.policy=compact,delete", "replication factor raised to 3"})
	for _, want := range []string{"Action-State Topic Recreated During The Update", "AAAA", "BBBB", "cleanup.policy=compact,delete", "replication factor raised to 3"} {
		if !strings.Contains(during.Summary()+during.Detail(), want) {
			t.Errorf("lacks %q:\n%s", want, during.Detail())
		}
	}
	if strings.Contains(during.Detail(), "Nothing was changed") {
		t.Errorf("claims nothing changed after writing:\n%s", during.Detail())
	}
}
