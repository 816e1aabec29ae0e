// Package permissions is the one table of the Kafka ACLs that Terraform's
// principal and the Flink Agents job's principal need for one topic pair
// (an action-state topic and its control topic), and its renderings: ACL
// bindings in the forms the Mongey kafka_acl and Confluent
// confluent_kafka_acl resources take, AWS MSK IAM policy documents, and the
// "Required permissions" guide. Refused says which of these permissions a
// refused request lacked, so diagnostics can name it. It knows nothing about
// Terraform.
//
// Every entry was observed on Apache Kafka 4.4 with StandardAuthorizer:
// internal/realkafka's TestSecurityRequiredPermissions grants exactly the
// rendered ACLs, runs the whole lifecycle with them, then removes each ACL
// in turn and shows the request that needs it refused.
package permissions

// Operation is a Kafka ACL operation, named as Kafka's AclOperation names it.
type Operation string

// The operations the table uses, and the two Kafka implies from them.
const (
	Read            Operation = "READ"
	Write           Operation = "WRITE"
	Create          Operation = "CREATE"
	Delete          Operation = "DELETE"
	AlterConfigs    Operation = "ALTER_CONFIGS"
	Describe        Operation = "DESCRIBE"
	DescribeConfigs Operation = "DESCRIBE_CONFIGS"

	// alter (topic partitions) is no entry's operation; it only implies DESCRIBE.
	alter Operation = "ALTER"
)

// Implies reports whether an ACL allowing o also allows other, as Kafka's
// authorizers decide: READ, WRITE, DELETE and ALTER imply DESCRIBE, and
// ALTER_CONFIGS implies DESCRIBE_CONFIGS. The table relies on it: it never
// lists an operation another entry of the same role and resource implies,
// so that removing any one entry is refused somewhere.
func (o Operation) Implies(other Operation) bool {
	switch {
	case o == other:
		return true
	case other == Describe:
		return o == Read || o == Write || o == Delete || o == alter
	case other == DescribeConfigs:
		return o == AlterConfigs
	}
	return false
}

// ResourceType is a Kafka ACL resource type, named as Kafka's ResourceType
// names it.
type ResourceType string

// The resource types the table uses.
const (
	Topic           ResourceType = "TOPIC"
	TransactionalID ResourceType = "TRANSACTIONAL_ID"
)

// Resource is one of the named resources of a topic pair.
type Resource int

// The resources of a topic pair.
const (
	// ActionStateTopic is the job's kafkaActionStateTopic.
	ActionStateTopic Resource = iota
	// ControlTopic is the job's kafkaActionStateCleanupControlTopic.
	ControlTopic
	// CleanupTransactionalID is the transactional.id every applier of the
	// control topic shares (kafkaops.TransactionalID).
	CleanupTransactionalID
)

// Type is the ACL resource type of r.
func (r Resource) Type() ResourceType {
	if r == CleanupTransactionalID {
		return TransactionalID
	}
	return Topic
}

func (r Resource) String() string {
	switch r {
	case ActionStateTopic:
		return "action-state topic"
	case ControlTopic:
		return "control topic"
	}
	return "cleanup transactional ID"
}

// Role is who needs a permission.
type Role string

// The two principals of a topic pair.
const (
	// Terraform is the principal the provider connects as.
	Terraform Role = "terraform"
	// Job is the principal the Flink Agents runtime connects as.
	Job Role = "job"
)

// Entry is one ACL of the table.
type Entry struct {
	Role      Role
	Resource  Resource
	Operation Operation
	// Requests says which Kafka requests the ACL authorizes for Role,
	// directly or through the operation it implies, and which step sends
	// them.
	Requests string
	// IdempotentProducer marks a WRITE through an idempotent,
	// non-transactional producer: AWS MSK IAM authorizes it only with
	// kafka-cluster:WriteDataIdempotently on the cluster as well, where
	// Kafka's authorizers (2.8 and later, KIP-679) take WRITE on the topic.
	IdempotentProducer bool
}

// table is the single source: the data source, the guide and the
// real-broker test all render it.
var table = []Entry{
	{Role: Terraform, Resource: ActionStateTopic, Operation: Create,
		Requests: "CreateTopics: creating the action-state topic (`flinkagents_action_state_topic`)."},
	{Role: Terraform, Resource: ActionStateTopic, Operation: Delete,
		Requests: "DeleteRecords below a COMMITTED boundary (`flinkagents_cleanup_boundary`). Implies DESCRIBE, which Metadata " +
			"(topic ID, partitions) and ListOffsets need on every refresh, plan, apply and import. Also lets Terraform destroy " +
			"the topic once `deletion_protection` is off."},
	{Role: Terraform, Resource: ActionStateTopic, Operation: AlterConfigs,
		Requests: "IncrementalAlterConfigs: restoring the enforced settings and applying `config` changes. Implies DESCRIBE_CONFIGS, " +
			"which DescribeConfigs needs on every refresh and before every apply (the settings check)."},
	{Role: Terraform, Resource: ControlTopic, Operation: Create,
		Requests: "CreateTopics: creating the control topic (`flinkagents_cleanup_control_topic`)."},
	{Role: Terraform, Resource: ControlTopic, Operation: Read,
		Requests: "Fetch (read_committed) of the recorded boundaries on every refresh, plan, apply and import. Implies DESCRIBE " +
			"(Metadata, ListOffsets)."},
	{Role: Terraform, Resource: ControlTopic, Operation: Write,
		Requests: "Produce of the COMMITTED and APPLIED records inside the control transaction (with AddPartitionsToTxn)."},
	{Role: Terraform, Resource: ControlTopic, Operation: AlterConfigs,
		Requests: "IncrementalAlterConfigs: keeping `cleanup.policy=compact` and applying `config` changes. Implies DESCRIBE_CONFIGS, " +
			"which DescribeConfigs needs to check the topic's shape before every read of its history."},
	{Role: Terraform, Resource: CleanupTransactionalID, Operation: Write,
		Requests: "InitProducerId, AddPartitionsToTxn and EndTxn of the control transaction that fences concurrent appliers. " +
			"Implies DESCRIBE (FindCoordinator). A transactional producer needs no IDEMPOTENT_WRITE on the cluster."},
	{Role: Job, Resource: ActionStateTopic, Operation: Read,
		Requests: "Fetch when a restore replays action state from the checkpoint's recovery markers (assigned partitions: no consumer " +
			"group, no offset commits). Implies DESCRIBE (Metadata for the topic ID and partitions, ListOffsets for recovery markers)."},
	{Role: Job, Resource: ActionStateTopic, Operation: Write, IdempotentProducer: true,
		Requests: "Produce of each action's state. The producer is idempotent (the Kafka client's default); from Kafka 2.8 on, WRITE " +
			"on a topic also authorizes its InitProducerId (KIP-679), so no IDEMPOTENT_WRITE on the cluster."},
	{Role: Job, Resource: ControlTopic, Operation: Read,
		Requests: "Fetch (read_committed) of the recorded boundaries when the job restores with `kafkaActionStateCleanupControlTopic` " +
			"set. Implies DESCRIBE (Metadata, ListOffsets)."},
	{Role: Job, Resource: ControlTopic, Operation: DescribeConfigs,
		Requests: "DescribeConfigs: on restore the runtime checks that the control topic's `cleanup.policy` is `compact`."},
}
