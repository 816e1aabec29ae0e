package diagnostics

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// cleanupRefusals maps each protocol refusal to its summary and advice. The
// core's error text already names the topic, partition and offsets; the
// advice here says what to do about it.
var cleanupRefusals = []struct {
	err     error
	summary string
	next    string
	// wroteNothing: the refusal comes before the apply writes, so next is
	// preceded by what the apply wrote (cleanupOutcome): nothing, unless
	// a refusal met after this apply's own COMMITTED says otherwise.
	wroteNothing bool
}{
	{cleanupplan.ErrBackwardMove, "Cleanup Boundary Would Move Backward",
		"A recorded boundary is permanent and the runtime already refuses restores below it. " +
			"Derive plan_json from a checkpoint or savepoint at least as new as the one that set the boundary " +
			"(data.flinkagents_cleanup_boundary shows it).", true},
	{cleanupplan.ErrTombstone, "Tombstone In Control Topic",
		"Boundaries cannot be deleted, so a null record means someone wrote to the control topic by hand. " +
			"Find who wrote it; do not reuse this control topic for cleanup until its history is understood.", true},
	{cleanupplan.ErrIncomparablePlans, "Control Topic Holds Incomparable Plans",
		"Two recorded plans cross each other, so there is no single boundary to enforce. " +
			"This happens when two tools applied plans from different recovery points concurrently; inspect the control topic.", true},
	{cleanupplan.ErrForeignPlan, "Control Topic Belongs To Another Topic",
		"Each control topic serves exactly one action-state topic incarnation (name, topic ID and partitions). " +
			"If the action-state topic was recreated, configure a new control topic for it.", true},
	{cleanupplan.ErrCorruptControlLog, "Control Topic History Is Inconsistent",
		"A record contradicts an earlier one; inspect the control topic and the tools that wrote it.", true},
	{cleanupplan.ErrLegacyMarker, "Checkpoint Holds Legacy Recovery Markers",
		"Legacy markers do not name the physical topic, so they cannot authorize deletion. " +
			"Run the job on a Flink Agents runtime that writes KafkaActionStateRecoveryMarker (the proposed plan/apply cleanup; no release up to 0.3.1 has it) and take a new checkpoint or savepoint.", false},
	{cleanupplan.ErrInconsistentMarkers, "Recovery Markers Disagree",
		"The markers of this recovery point name different topics or partition sets; no single plan can be derived. Check the job's configuration.", false},
	{cleanupplan.ErrMalformedPlan, "Malformed Cleanup Plan",
		"Fix or regenerate the plan (data.flinkagents_cleanup_plan, or the Java tool's plan command); plans are never edited by hand.", false},
	{cleanup.ErrTopicMismatch, "Plan Cleans Another Topic",
		"Derive the plan from the checkpoint of the job that owns this action-state topic.", true},
	{cleanup.ErrTopicIDChanged, "Action-State Topic Was Recreated",
		"The plan's offsets describe a topic that no longer exists; derive a new plan from a checkpoint taken on the current topic, with a new control topic.", true},
	{cleanup.ErrActionStateTopicGone, "Action-State Topic Is Gone",
		"The plan names a topic ID its checkpoint recorded, so the topic existed and was deleted since. " +
			"If the operator was retired on purpose, remove its boundary from the configuration (that only forgets it); otherwise find out " +
			"who deleted the topic, and once the job runs on a new topic, derive new plans from its checkpoints with a new control topic.", true},
	{cleanup.ErrTopicRecreatedDuringApply, "Action-State Topic Was Recreated During The Apply",
		"The plan was already COMMITTED for the topic as the apply checked it (the error below names its ID), so the runtime enforces that boundary for that topic ID only. " +
			"The error below says whether this apply sent DeleteRecords and, if it did, which partitions of which topic ID may have lost records below which offsets: " +
			"Kafka's DeleteRecords names a topic, not its ID, so a topic recreated between the apply's last check and the request loses them. " +
			"Where it names partitions, compare the recreated topic's start offsets with the recovery points of the jobs writing to it: " +
			"a restore from a point whose marker lies below a partition's start offset cannot replay the records in between. " +
			"Find out who recreated the topic; a recreated topic needs its own control topic and a plan from a checkpoint taken on it.", false},
	{cleanup.ErrPartitionSetChanged, "Action-State Topic Partitions Changed",
		"Partitions must never change under a recorded boundary; derive a new plan from a checkpoint taken after the change.", true},
	{cleanup.ErrDataTopicSettings, "Action-State Topic Settings Do Not Allow Cleanup",
		"Manage the topic with flinkagents_action_state_topic (it enforces cleanup.policy=compact,delete, retention.ms=-1, retention.bytes=-1) and apply that first.", false},
	{cleanup.ErrOffsetOutOfRange, "Plan Offset Outside The Topic's Records",
		"The runtime commits a boundary only inside each partition's available range; " +
			"the error below names the partition, the plan's offset, the range and what to do.", true},
	{cleanup.ErrControlTopicIDChanged, "Cleanup Control Topic Was Recreated",
		"The control topic holds the boundaries the runtime enforces on restore, and a recreated one holds none of those recorded before " +
			"(the error below says what was written). Find out who recreated it. If the new control topic is intended, run terraform plan " +
			"again: the refresh records its ID in control_topic_id and the plan shows what the apply records in it.", false},
	{cleanup.ErrControlTopicChanging, "Control Topic Kept Changing During The Apply",
		"Nothing was written or deleted by this apply: each time it was about to commit, the control topic recorded something new below its COMMITTED record, " +
			"so it aborted rather than record its plan after a history it had not checked. Something appends to the control topic without a transaction " +
			"while Terraform applies, most likely the Java KafkaActionStateCleanupTool. Let it finish (do not run it and Terraform against one control topic at once), " +
			"then run terraform plan and apply again: the plan shows what the tool recorded.", false},
	{cleanup.ErrControlTopicMisconfigured, "Control Topic Misconfigured",
		"Manage the control topic with flinkagents_cleanup_control_topic: one partition, cleanup.policy=compact, and distinct from the action-state topic.", true},
	{cleanup.ErrNotAuthorized, "Missing Kafka Permission For Cleanup",
		"Grant the ACL named below to the principal Terraform uses, then plan again. " + requiredPermissionsHint, false},
	{kafkaops.ErrFenced, "Another Apply Of This Control Topic Is Running",
		"Another Terraform run (a workspace, or another action_trigger of the same apply) started applying to the same control topic after this one, " +
			"so Kafka fenced this one's transaction: what that transaction appended is aborted, and no reader sees it. This run then waited for the other, " +
			"and the other did not finish this run's plan: it recorded another plan, or kept working on the control topic for the whole wait, so this run could " +
			"not resume its COMMITTED plan without fencing it (the error below says which, and whether this run had deleted records before it was fenced). " +
			"Wait for the other run, then plan again: the plan shows what it recorded, and applying the same plan again resumes it.", false},
	{cleanup.ErrDeleteNotEffective, "Records Below The Boundary Remain",
		"The boundary is COMMITTED and the runtime already enforces it. Run terraform apply again to finish the deletion.", false},
}

// FromCleanupError turns an error from the cleanup core into a diagnostic:
// protocol refusals get their own summary and advice, anything else is
// classified as a Kafka error.
func FromCleanupError(op string, err error) diag.Diagnostic {
	return FromCleanupErrorVia(op, err, "")
}

// FromCleanupErrorVia is FromCleanupError naming the connection (see
// FromKafkaErrorVia).
func FromCleanupErrorVia(op string, err error, conn string) diag.Diagnostic {
	// Before the refusals: an unreadable record also matches
	// ErrMalformedPlan, whose advice (regenerate the plan) cannot help.
	var rec *cleanupplan.RecordError
	if errors.Is(err, cleanupplan.ErrUnreadableRecord) && errors.As(err, &rec) {
		if trailing, ok := errors.AsType[*cleanupplan.TrailingContentError](err); ok {
			return ControlRecordTrailingContent(op, rec, trailing, err, conn)
		}
		return UnreadableControlRecord(op, rec, err, conn)
	}
	// Before the refusals too: it also matches ErrCorruptControlLog, whose
	// "contradicts an earlier one" does not describe it.
	var mismatch *cleanupplan.KeyMismatchError
	if errors.As(err, &mismatch) && errors.As(err, &rec) {
		return ControlRecordKeyMismatch(op, rec, mismatch.PlanID, err, conn)
	}
	if errors.Is(err, context.Canceled) {
		return cleanupCancelled(op, err)
	}
	// Before the refusals too: a control topic Kafka does not list is
	// missing, which "misconfigured" does not say.
	if errors.Is(err, cleanup.ErrControlTopicMisconfigured) && errors.Is(err, kafkaops.ErrTopicNotFound) {
		return diag.NewErrorDiagnostic("Cleanup Control Topic Not Found", detail(op,
			"Nothing was written or deleted. Kafka answered that no topic of that name exists. Check the name and the provider's "+
				"bootstrap_servers; create the control topic with flinkagents_cleanup_control_topic (one partition, cleanup.policy=compact). "+
				"A topic created a moment ago may not be known to every broker yet: run again.", err))
	}
	if refused, ok := errors.AsType[*cleanup.PermissionError](err); ok {
		return missingCleanupPermission(op, refused, err)
	}
	// Before the refusals: it may also match ErrPartitionSetChanged (the
	// topic may have gained partitions), but names what to fix.
	if missing, ok := errors.AsType[*cleanupplan.MissingPartitionsError](err); ok {
		return planMissesPartitions(op, missing, err)
	}
	for _, r := range cleanupRefusals {
		if errors.Is(err, r.err) {
			next := r.next
			if r.wroteNothing {
				next = cleanupOutcome(err) + " " + next
			}
			return diag.NewErrorDiagnostic(r.summary, detail(op, next, err))
		}
	}
	return FromKafkaErrorVia(op, err, conn)
}

// cleanupOutcome is what an apply refused by err wrote: nothing, unless the
// refusal came after its own COMMITTED (a writer outside the fencing
// recorded something between its last check and its commit).
func cleanupOutcome(err error) string {
	if written, ok := errors.AsType[*cleanup.WrittenBeforeError](err); ok {
		return written.Written + "; nothing else was written or deleted."
	}
	return "Nothing was written or deleted."
}

// UnreadableControlRecord reports a control record that is not a record of
// this protocol: garbage, non-UTF-8 bytes, a byte-order mark, an oversized
// value, or a plan the runtime would refuse. The operator cannot regenerate
// it, only find it and whoever wrote it, so the detail names the record
// (topic, partition, offset, key) and the commands that show it.
func UnreadableControlRecord(op string, rec *cleanupplan.RecordError, err error, conn string) diag.Diagnostic {
	topic, partition := recordLocation(err)
	var b strings.Builder
	fmt.Fprintf(&b, "The control topic %q holds a record this provider cannot read, at partition %d, offset %d (%s, value of %d bytes). "+
		"Nothing was written or deleted after it was read: a control history that cannot be read in full cannot say what is safe to delete.\n\n",
		topic, partition, rec.Offset, describeKey(rec.Key), rec.Size)
	inspectRecord(&b, topic, partition, rec.Offset, conn)
	return diag.NewErrorDiagnostic("Unreadable Record In Control Topic", detail(op, b.String(), err))
}

// ControlRecordKeyMismatch reports a control record keyed by something
// other than the ID of the plan inside it: every tool of this protocol keys
// a record by its plan ID, so another writer put it there.
func ControlRecordKeyMismatch(op string, rec *cleanupplan.RecordError, planID string, err error, conn string) diag.Diagnostic {
	topic, partition := recordLocation(err)
	var b strings.Builder
	fmt.Fprintf(&b, "The control topic %q holds, at partition %d, offset %d, a record with %s, but the plan inside it has plan ID %s. "+
		"Every tool of this protocol keys a control record by the ID of its plan, and the runtime refuses a history with this record "+
		"on restore, so it was written by something else. Nothing was written or deleted after it was read.\n\n",
		topic, partition, rec.Offset, describeKey(rec.Key), planID)
	inspectRecord(&b, topic, partition, rec.Offset, conn)
	return diag.NewErrorDiagnostic("Control Record Key Is Not Its Plan ID", detail(op, b.String(), err))
}

// recordLocation is the topic and partition kafkaops wraps around errors
// about one record it read; "TOPIC" when the log was replayed by hand.
func recordLocation(err error) (string, int32) {
	var loc *kafkaops.ControlRecordError
	if errors.As(err, &loc) {
		return loc.Topic, loc.Partition
	}
	return "TOPIC", 0
}

// inspectRecord tells how to look at one control record exactly as the
// provider reads it, and what not to do about it.
func inspectRecord(b *strings.Builder, topic string, partition int32, offset int64, conn string) {
	fmt.Fprintf(b, "Inspect it exactly as the provider reads it (read_committed; over TLS or SASL add your client settings, "+
		"--consumer.config FILE or kcat -F FILE):\n\n"+
		"  kafka-console-consumer.sh --bootstrap-server BROKERS --topic %s --partition %d --offset %d --max-messages 1 "+
		"--isolation-level read_committed --property print.key=true\n\n"+
		"or: kcat -C -b BROKERS -t %s -p %d -o %d -c 1 -e -X isolation.level=read_committed -f 'key: %%k\\n%%s\\n'\n\n",
		topic, partition, offset, topic, partition, offset)
	b.WriteString("Find which tool or person wrote it. Every plan and apply against this control topic stops at this record while it is there; " +
		"do not delete or recreate the control topic to get past it: its other records are the boundaries the runtime enforces on restore.")
	if conn != "" {
		fmt.Fprintf(b, "\n\nConnection (BROKERS above): %s.", conn)
	}
}

// describeKey shows a key when it is short printable text; anything else
// could garble the operator's terminal, so only its length is given.
func describeKey(key []byte) string {
	switch {
	case key == nil:
		return "no key"
	case len(key) <= 128 && utf8.Valid(key) && !strings.ContainsFunc(string(key), func(r rune) bool { return !unicode.IsPrint(r) }):
		return fmt.Sprintf("key %q", key)
	}
	return fmt.Sprintf("a key of %d bytes that is not printable text", len(key))
}
