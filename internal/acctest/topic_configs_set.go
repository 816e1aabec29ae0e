package acctest

import (
	"context"
	"time"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// configsSetWithin bounds how long SetTopicConfigs waits for the broker to
// show a change made behind Terraform's back.
const configsSetWithin = 15 * time.Second

// SetTopicConfigs changes topic's configs the way an operator with a CLI
// would (outside Terraform) and returns once the broker describes the
// change. Kafka answers the alter when the controller has committed it; the
// broker applies it from the metadata log afterwards, so a plan started at
// once may still read the old values and see no drift. A step that expects
// drift must not race that.
//
// "Shows the change" is each key reading either the value asked for or
// something other than what it read before: a broker may store a list
// value trimmed and de-duplicated (" compact" as "compact"), which never
// equals the string sent. A key whose old value already equals the
// normalised new one cannot be told apart from a lagging broker; callers
// that need that case first set a value that differs (see
// TestCleanupControlTopicPolicyIsRestoredExactly).
func (e *Env) SetTopicConfigs(topic string, set map[string]string) {
	e.t.Helper()
	ctx := context.Background()
	before, err := e.Admin.TopicConfigs(ctx, topic)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.Admin.AlterTopicConfigs(ctx, topic, set, nil); err != nil {
		e.t.Fatal(err)
	}
	shows := func(cfg map[string]kafkaops.ConfigValue) bool {
		for k, v := range set {
			if got := cfg[k].Value; got != v && got == before[k].Value {
				return false
			}
		}
		return true
	}
	cfg, err := e.Admin.AwaitTopicConfigs(ctx, topic, shows, configsSetWithin)
	if err != nil {
		e.t.Fatal(err)
	}
	if !shows(cfg) {
		e.t.Fatalf("topic %s: the broker still describes the configs as before %v was set, %s later", topic, set, configsSetWithin)
	}
}
