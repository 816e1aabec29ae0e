package diagnostics

import (
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// ListNoDescribe reports a listing that found nothing because the
// principal may not describe topics: Kafka leaves every topic the
// principal may not describe out of the answer, so without this the
// operator would see an empty cluster.
func ListNoDescribe(listing, prefix string, err error) diag.Diagnostic {
	pattern := `--resource-pattern-type literal --topic '*'`
	if prefix != "" {
		pattern = fmt.Sprintf("--resource-pattern-type prefixed --topic %q", prefix)
	}
	return diag.NewErrorDiagnostic("Missing Kafka Permission",
		detail(fmt.Sprintf("listing %s, Kafka listed no topic at all, and refused to describe one by name", listing),
			fmt.Sprintf("The provider's principal may not DESCRIBE the cluster's topics, so Kafka leaves each of them out of its answer "+
				"instead of refusing it. Grant the principal DESCRIBE on the topics to adopt (kafka-acls.sh --add --allow-principal <principal> "+
				"--operation Describe --operation DescribeConfigs --operation Read %s; Read lets the listing tell control topics by their records), "+
				"then run terraform query again. Nothing was listed or changed. %s", pattern, requiredPermissionsHint), err))
}

// ListTopicNotRead warns that one listed topic could not be read in full:
// it is listed all the same, from what Kafka's metadata gave.
func ListTopicNotRead(label, name string, err error) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Topic Not Read In Full",
		detail(fmt.Sprintf("listing %s %q", label, name),
			"The topic is listed from its metadata alone (partitions, replication factor); its settings or its first record could not be read. "+
				"Importing it reads it again: fix what the error names first (usually a missing DESCRIBE_CONFIGS or READ ACL).", err))
}

// InvalidNameRegex refuses a list block's name_regex that is not a Go
// regular expression.
func InvalidNameRegex(attr path.Path, err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Invalid Regular Expression",
		detail(fmt.Sprintf("reading %s", attr),
			"Give a regular expression in Go's RE2 syntax (https://golang.org/s/re2syntax), for example \"-action-state$\"; "+
				"it matches anywhere in a topic's name unless anchored with ^ and $. Nothing was listed.", err))
}

// InvalidTopicNamePrefix refuses a list block's name_prefix that no topic
// name can start with: the listing would find nothing and say nothing.
func InvalidTopicNamePrefix(attr path.Path, err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Invalid Kafka Topic Name Prefix",
		detail(fmt.Sprintf("validating %s, before any request to Kafka", attr),
			fmt.Sprintf("Set %s to the start of the topics' names (Kafka allows only a-z A-Z 0-9 . _ - in a name, %d characters at most), "+
				"or remove it to list every topic. Nothing was listed.", attr, kafkaops.MaxTopicNameLength), err))
}

// ListTopicKindUntold warns that a topic passing the listing's filters is
// in neither list because what it holds could not be read: a control topic
// adopted as an action-state topic gets compact,delete, which makes the
// runtime refuse every restore of its job, so the listing does not guess.
func ListTopicKindUntold(listing, name string, err error) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Topic Kind Unknown: Listed As Neither",
		detail(fmt.Sprintf("listing %s, topic %q passes the filters but what it holds could not be read", listing, name),
			"A one-partition topic is a cleanup control topic when it holds control records, and importing a control topic as an "+
				"action-state topic would set cleanup.policy=compact,delete, after which the runtime refuses every restore of its job. "+
				"So the topic is listed neither as an action-state topic nor as a control topic. "+unreadableFix(name, "run terraform query again", err)+
				" Nothing was changed.", err))
}

// unreadableFix says what makes a topic's records readable (the READ ACL
// the broker refused, or a leader for its partition), then what to run.
func unreadableFix(name, then string, err error) string {
	switch {
	case errors.Is(err, kerr.TopicAuthorizationFailed):
		return fmt.Sprintf("The provider's principal may not READ it: grant it (kafka-acls.sh --add --allow-principal <principal> "+
			"--operation Read --topic %q), then %s.", name, then)
	case errors.Is(err, kafkaops.ErrNoLeader), errors.Is(err, kerr.LeaderNotAvailable), errors.Is(err, kerr.NotLeaderForPartition):
		return fmt.Sprintf("Its partition is offline: no broker leads it (kafka-topics.sh --describe --topic %q shows the leader). "+
			"Bring its replicas back, then %s.", name, then)
	}
	return fmt.Sprintf("Fix what the error names, then %s.", then)
}

// TopicHoldsControlRecords refuses to manage a cleanup control topic as an
// action-state topic: the enforced compact,delete would make the runtime
// refuse every restore of the job that records its boundaries there.
func TopicHoldsControlRecords(doing, name string, offset int64, serves string) diag.Diagnostic {
	what := "a cleanup control record"
	if serves != "" {
		what = fmt.Sprintf("a cleanup control record (a plan for action-state topic %q)", serves)
	}
	return diag.NewErrorDiagnostic("Topic Is A Cleanup Control Topic",
		detail(doing, fmt.Sprintf("Topic %q holds %s at offset %d: it is a cleanup control topic, not an action-state topic. "+
			"flinkagents_action_state_topic would set cleanup.policy=compact,delete on it, and the runtime refuses every restore of a job "+
			"whose control topic is not exactly cleanup.policy=compact. Manage it with flinkagents_cleanup_control_topic instead "+
			"(terraform import flinkagents_cleanup_control_topic.<name> %s), and remove it from this resource's configuration or import block. "+
			"Nothing was changed.", name, what, offset, name), nil))
}

// TopicKindNotReadable refuses to adopt a one-partition topic as an
// action-state topic when its records cannot be read: it may be a control
// topic, and guessing wrong stops a job from restoring.
func TopicKindNotReadable(doing, name string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Cannot Tell Whether Topic Is A Control Topic",
		detail(doing, fmt.Sprintf("Topic %q has one partition, like a cleanup control topic, and its records could not be read to tell. "+
			"Managed as an action-state topic it would get cleanup.policy=compact,delete, which, were it a control topic, would make the "+
			"runtime refuse every restore of its job. ", name)+unreadableFix(name, "plan again", err)+" Nothing was changed.", err))
}
