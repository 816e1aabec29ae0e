package diagnostics

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// DeletionProtected refuses, at plan time, destroying (or replacing) a
// protected topic.
func DeletionProtected(kind, name string) diag.Diagnostic {
	return deletionProtected(fmt.Sprintf("planning, Terraform would destroy %s %q", kind, name))
}

// DeletionProtectedAtDelete refuses the delete itself, at apply time, of a
// topic whose state says it is protected: the plan that led here skipped the
// plan-time check (a -target, a plan file saved before the protection).
func DeletionProtectedAtDelete(kind, name string) diag.Diagnostic {
	return deletionProtected(fmt.Sprintf("destroying %s %q, its state has deletion_protection = true, so nothing was deleted", kind, name))
}

func deletionProtected(doing string) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Deletion Protection Is On",
		detail(doing,
			"Destroying it deletes data the Flink Agents runtime needs to restore without re-running actions. "+
				"If that is really intended: set deletion_protection = false, run terraform apply, then destroy or remove the block. "+
				"If the block was renamed or moved, use a moved block or terraform state mv instead.", nil))
}

// TopicShapeChange refuses changing a topic's partition count.
func TopicShapeChange(attr, topic string, old, planned int64) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Topic Shape Cannot Change",
		detail(fmt.Sprintf("planning topic %q, %s would change from %d to %d", topic, attr, old, planned),
			"The provider never replaces a topic that holds action state, and changing partitions would break the key-to-partition "+
				"mapping the runtime and every recorded cleanup boundary rely on. Set "+attr+" back to "+fmt.Sprint(old)+
				". To really move to a new shape, create a new topic under a new name and migrate the job.", nil))
}

// ReplicationFactorDecrease refuses lowering a topic's replication factor.
func ReplicationFactorDecrease(topic string, old, planned int64) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Replication Factor Cannot Be Lowered",
		detail(fmt.Sprintf("planning topic %q, replication_factor would go from %d to %d", topic, old, planned),
			"Fewer replicas means losing copies of state the runtime needs to survive a broker failure, and Terraform should not "+
				"make that trade silently. Set replication_factor back to "+fmt.Sprint(old)+". If it really must go down, reassign "+
				"the partitions with kafka-reassign-partitions.sh, then set replication_factor to the new value (a refresh reads it).", nil))
}

// FleetTopicsType is the fleet resource, whose topics are adopted by
// importing the fleet.
const FleetTopicsType = "flinkagents_action_state_topics"

// TopicCreateFailed explains a failed creation, with the import hint when
// the topic already exists.
func TopicCreateFailed(op, resourceType, name string, replicationFactor int16, err error, conn string) diag.Diagnostic {
	switch {
	case errors.Is(err, kerr.TopicAlreadyExists) && resourceType == FleetTopicsType:
		return diag.NewErrorDiagnostic("Topic Already Exists",
			detail(op, fmt.Sprintf("Topic %q exists but is not in Terraform state, and the provider never takes over a topic it did not "+
				"create or import. If it is a leftover, delete it and apply again; if it holds this operator's state, adopt the fleet with it: "+
				"remove flinkagents_action_state_topics from state (a removed block with lifecycle { destroy = false }, or terraform state rm) "+
				"and import it again with an import block whose id lists every operator, this one included "+
				"(\"key=action_state_topic:control_topic,...\"). The fleet's other topics were applied and saved.", name), err))
	case errors.Is(err, kerr.TopicAlreadyExists):
		return diag.NewErrorDiagnostic("Topic Already Exists",
			detail(op, fmt.Sprintf("The topic exists but is not in Terraform state. Adopt it instead of creating it:\n\n"+
				"  terraform import %s.<name> %s\n\nor an import block with id = %q.", resourceType, name, name), err))
	case errors.Is(err, kerr.TopicAuthorizationFailed):
		return TopicNotAuthorized(op, name, "CREATE", err)
	case errors.Is(err, kerr.PolicyViolation):
		return PolicyViolation(op, name, err)
	case errors.Is(err, kerr.InvalidReplicationFactor):
		return InvalidReplicationFactor(op, name, replicationFactor, err)
	}
	return FromKafkaErrorVia(op, err, conn)
}

// TopicRecreated warns that a topic was deleted and recreated outside
// Terraform: same name, new topic ID, none of the old records.
func TopicRecreated(label, name, recordedID, liveID string) diag.Diagnostic {
	return diag.NewWarningDiagnostic(fmt.Sprintf("%s Was Recreated", titleCase(label)),
		fmt.Sprintf("Topic %q now has topic ID %s, but Terraform created or adopted it with ID %s: it was deleted and recreated "+
			"outside Terraform, and the new topic holds none of the old records. For an action-state topic, checkpoints and "+
			"savepoints taken before cannot be restored against it, and cleanup boundaries recorded for the old ID refuse to apply; "+
			"for a control topic, the recorded boundaries are gone.\n\n"+
			"The plan shows topic_id changing to the new ID: applying it accepts the new topic. Before that, find out who "+
			"recreated it. A recreated action-state topic needs a new control topic for its history.",
			name, liveID, recordedID))
}

// titleCase capitalises each word of a label ("action-state topic" ->
// "Action-State Topic") for a summary.
func titleCase(s string) string {
	out := []byte(s)
	up := true
	for i, c := range out {
		if up && c >= 'a' && c <= 'z' {
			out[i] = c - 'a' + 'A'
		}
		up = c == ' ' || c == '-'
	}
	return string(out)
}

// TopicMissing warns that a topic in state no longer exists; goneDetail
// says why that matters for its kind (%q: the name).
func TopicMissing(label, name, goneDetail string) diag.Diagnostic {
	return diag.NewWarningDiagnostic(titleCase(label)+" Missing", fmt.Sprintf(goneDetail, name))
}

// TopicChangedSincePlan refuses an update whose topic was recreated (again)
// between plan and apply, found before anything was written: the reviewed
// plan no longer describes it.
func TopicChangedSincePlan(label, name, plannedID, liveID string) diag.Diagnostic {
	return diag.NewErrorDiagnostic(titleCase(label)+" Changed Since The Plan",
		fmt.Sprintf("While updating topic %q: it has ID %s, not the %s the plan was reviewed with, so it was deleted and recreated "+
			"in between. Nothing was changed: the identity is checked before any setting is written. Find out who recreated it, "+
			"then run terraform plan again and review the change (the plan shows topic_id changing).", name, liveID, plannedID))
}

// TopicRecreatedDuringUpdate reports a topic recreated while an update was
// writing to it: Kafka addresses settings by name, so what was written may
// have reached the new topic. written lists what was sent.
func TopicRecreatedDuringUpdate(label, name, plannedID, liveID string, written []string) diag.Diagnostic {
	return diag.NewErrorDiagnostic(titleCase(label)+" Recreated During The Update",
		fmt.Sprintf("While updating topic %q: it had ID %s when the update began and has ID %s now, so it was deleted and recreated "+
			"while the update ran. These changes were sent by name and may have been made to the new topic:\n\n  %s\n\n"+
			"Check the new topic's settings (kafka-configs.sh --describe --topic %s) and who recreated it, then run terraform plan "+
			"again and review the change (the plan shows topic_id changing).",
			name, plannedID, liveID, strings.Join(written, "\n  "), name))
}

// TopicRecreatedNotDeleted refuses deleting a topic whose name now belongs
// to a topic recreated outside Terraform.
func TopicRecreatedNotDeleted(label, name, recordedID, liveID string) diag.Diagnostic {
	return diag.NewErrorDiagnostic(titleCase(label)+" Recreated, Not Deleted",
		fmt.Sprintf("While deleting topic %q: it has ID %s, but Terraform manages the topic with ID %s, which was deleted and recreated "+
			"outside Terraform. Nothing was deleted: Terraform never deletes a topic it did not review. To delete the new topic too, "+
			"first accept it (terraform apply shows topic_id changing), then destroy; to only forget it, use a removed block "+
			"(lifecycle { destroy = false }) or terraform state rm.", name, liveID, recordedID))
}

// ReservedTopicSetting refuses a config key the resource enforces itself.
func ReservedTopicSetting(attr path.Path, key, why string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Reserved Topic Setting",
		fmt.Sprintf("%q cannot be set in config: %s Remove it from config.", key, why))
}

// InvalidTopicName refuses a topic name Kafka refuses, before anything is
// asked of a broker or rendered into the job's configuration or an ACL.
func InvalidTopicName(attr path.Path, err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Invalid Kafka Topic Name",
		detail("validating the configuration, the topic name was refused before any request to Kafka",
			fmt.Sprintf("Set %s to the topic's real name: %s (the job's configuration names the same topic). Nothing was created or changed.",
				attr, topicNameRule), err))
}

// topicNameRule is kafkaops.CheckTopicName in words.
var topicNameRule = fmt.Sprintf("1 to %d characters of a-z A-Z 0-9 . _ -, not \".\" or \"..\", as Kafka requires, "+
	"and not one of Kafka's internal topics (__consumer_offsets, __transaction_state, ...)", kafkaops.MaxTopicNameLength)

// InvalidImportedTopicName refuses a topic name an import ID gives, before
// anything is asked of a broker: the configuration's validators never see
// an import ID. what names the ID's part ("the import ID", "entry \"orders\"").
func InvalidImportedTopicName(doing, what string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Invalid Kafka Topic Name",
		detail(doing+", the topic name was refused before any request to Kafka",
			fmt.Sprintf("Nothing was imported. In %s, give the topic's name exactly as Kafka lists it (kafka-topics.sh --list): %s.", what, topicNameRule), err))
}

// MovedTopicNameInvalid refuses a moved kafka_topic whose state names a
// topic this provider may not manage: Mongey's provider never checked the
// name the way Kafka does, and its state may hold anything.
func MovedTopicNameInvalid(source, target string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Invalid Kafka Topic Name",
		detail(fmt.Sprintf("moving a kafka_topic of %s into %s, the topic name in its state was refused before any request to Kafka", source, target),
			fmt.Sprintf("Nothing was changed. A topic name must be %s. Look at the source state (terraform state show on the moved block's "+
				"from address); if it names the wrong topic, remove the moved block, take that resource out of state with a removed block "+
				"(lifecycle { destroy = false }), and adopt the topic with an import block (id = the topic name) instead.", topicNameRule), err))
}

// ControlTopicNotDedicated refuses a control topic named like the
// action-state topic it serves.
func ControlTopicNotDedicated(attr path.Path, name string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Control Topic Must Be Dedicated",
		fmt.Sprintf("name and action_state_topic are both %q. The control topic must be a separate, compacted, single-partition topic; "+
			"choose another name, for example %q.", name, name+"-cleanup-control"))
}

// ControlTopicHasSeveralPartitions reports a control topic no update can
// fix: boundaries in several partitions have no single order.
func ControlTopicHasSeveralPartitions(op string, partitions int) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Control Topic Has Several Partitions",
		fmt.Sprintf("While %s: it has %d partitions. A cleanup control topic must have exactly one, so that the runtime and every tool read one order of boundaries. "+
			"Partitions cannot be removed: create a new single-partition control topic, copy the records of partition 0 if they hold boundaries, and point the job at it.", op, partitions))
}

// MovedTopicUnreadable refuses a moved kafka_topic whose state is not the
// Mongey provider's schema version 0.
func MovedTopicUnreadable(source string, version int64, target string) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Cannot Move Topic State",
		fmt.Sprintf("While moving a kafka_topic of %s (schema version %d) into %s: its state does not have the Mongey provider's "+
			"kafka_topic schema (version 0: id, name, partitions, replication_factor, config), so it cannot be read. Nothing was "+
			"changed. Remove the moved block, take the topic out of state with a removed block (lifecycle { destroy = false }), and "+
			"adopt it with an import block (id = the topic name) instead.", source, version, target))
}

// MovedTopicNameMissing refuses a moved kafka_topic whose state names no
// topic: there is nothing to take over, and planning a create for "" would
// only hide that.
func MovedTopicNameMissing(source, target string) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Cannot Move Topic State",
		fmt.Sprintf("While moving a kafka_topic of %s into %s: its state has an empty name and an empty id, so it names no topic to take "+
			"over. Nothing was changed. Look at the source state (terraform state show on the moved block's from address); remove the "+
			"moved block, take that resource out of state with a removed block (lifecycle { destroy = false }), and adopt the topic "+
			"with an import block (id = the topic name) instead.", source, target))
}

// MovedTopicSettingsDropped warns that settings the source provider managed
// are enforced by the target and were left out of its config.
func MovedTopicSettingsDropped(resourceType, name string, dropped []string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Moved Topic Settings Now Enforced",
		fmt.Sprintf("Topic %q was moved into %s. The previous provider managed these settings, which %s enforces itself, so they "+
			"are not part of its config:\n\n  %s\n\nThe plan shows the topic's live values changing to the enforced ones, and apply "+
			"sets them. Leave these keys out of the resource's config block (they are refused there).",
			name, resourceType, resourceType, strings.Join(dropped, "\n  ")))
}
