package diagnostics

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// The broker refusals a topic resource meets when it creates a topic
// (TopicCreateFailed picks them); FromKafkaErrorVia would report them
// generically, these name the topic and the fix.

// TopicNotAuthorized reports TOPIC_AUTHORIZATION_FAILED; operation is the
// ACL operation the request needs (CREATE, DESCRIBE_CONFIGS, ALTER_CONFIGS,
// DELETE, ...).
func TopicNotAuthorized(op, topic, operation string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Kafka Topic Authorization Failed",
		detail(fmt.Sprintf("%s, the broker refused %s on topic %q to the provider's principal", op, operation, topic),
			fmt.Sprintf("Grant it, then re-run: kafka-acls --add --allow-principal User:<name> --operation %s --topic %s "+
				"(CREATE may also be granted on the cluster).", operation, topic), err))
}

// PolicyViolation reports POLICY_VIOLATION: a create.topic.policy or
// alter.config.policy plugin on the brokers refused the request.
func PolicyViolation(op, topic string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Topic Refused By Broker Policy",
		detail(fmt.Sprintf("%s, a policy of the cluster (create.topic.policy.class.name or alter.config.policy.class.name) "+
			"refused topic %q as requested", op, topic),
			"The error below quotes the policy's reason. Change partitions, replication_factor or the topic settings to what "+
				"the policy allows, or ask the cluster's operators for an exception.", err))
}

// InvalidReplicationFactor reports INVALID_REPLICATION_FACTOR: more
// replicas than the cluster has brokers (replicationFactor -1 means the
// broker's default.replication.factor).
func InvalidReplicationFactor(op, topic string, replicationFactor int16, err error) diag.Diagnostic {
	asked := fmt.Sprintf("replication factor %d", replicationFactor)
	if replicationFactor < 0 {
		asked = "the broker's default.replication.factor"
	}
	return diag.NewErrorDiagnostic("Replication Factor Not Possible",
		detail(fmt.Sprintf("%s, the cluster cannot place topic %q with %s", op, topic, asked),
			"Set replication_factor to at most the number of live brokers (a single-broker development cluster takes 1), "+
				"or bring the missing brokers back first.", err))
}
