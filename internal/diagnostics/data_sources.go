package diagnostics

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// AgentControlTopicEqualsDataTopic refuses an agent configuration whose
// control topic is its action-state topic.
func AgentControlTopicEqualsDataTopic(attr path.Path, control string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Control Topic Equals Action-State Topic",
		fmt.Sprintf("control_topic and action_state_topic are both %q. The control topic records cleanup boundaries and must be "+
			"dedicated to them; the runtime refuses a job configured this way. Name a separate topic, for example %q.",
			control, strings.TrimSuffix(control, "-action-state")+"-cleanup-control"))
}

// TombstonesConflictWithCleanup refuses an agent configuration with both
// per-key tombstones and checkpoint-aligned cleanup.
func TombstonesConflictWithCleanup(attr path.Path, control string) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Tombstones Conflict With Cleanup",
		fmt.Sprintf("tombstones_enabled is true and control_topic is %q. Per-key tombstones and checkpoint-aligned cleanup are "+
			"mutually exclusive in the Flink Agents runtime; the job would fail to start (\"Per-key Kafka tombstones cannot be enabled "+
			"with checkpoint-aligned cleanup\"). Remove control_topic or set tombstones_enabled to false; to move a job from "+
			"tombstones to cleanup, follow the guide \"Moving from per-key tombstones\": the order of its steps matters.", control))
}

// NoBootstrapServersToRender refuses an agent configuration that cannot
// name a broker.
func NoBootstrapServersToRender(attr path.Path) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "No Bootstrap Servers To Render",
		"While rendering the agent configuration: neither bootstrap_servers nor the provider (bootstrap_servers or "+
			"KAFKA_BOOTSTRAP_SERVERS) names a Kafka broker, so kafkaBootstrapServers cannot be rendered. Set bootstrap_servers "+
			"to the addresses the Flink job uses.")
}

// InvalidCheckpointStorage refuses storage settings the store cannot use.
func InvalidCheckpointStorage(attr path.Path, err error) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Invalid Checkpoint Storage Settings",
		"The storage settings cannot be used. Fix the attribute named below.\n\nOriginal error: "+err.Error())
}

// RecoveryPointDirNotFound refuses to list a directory that does not exist.
func RecoveryPointDirNotFound(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Recovery Point Directory Not Found",
		fmt.Sprintf("While %s: %v.\n\nCheck checkpoint_dir (the job's directory, the parent of chk-N) and savepoint_dir; "+
			"they must be readable from where Terraform runs. Nothing is listed from a directory that does not exist, so no point is picked by mistake.", op, err))
}

// NoRecoveryPoints warns that the directories hold no complete point.
func NoRecoveryPoints(op string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("No Recovery Points Found",
		fmt.Sprintf("While %s: no directory holds a _metadata file. Point checkpoint_dir at the job's directory (the parent of chk-N, "+
			"which is state.checkpoints.dir plus the job ID) and savepoint_dir at the directory holding savepoint-* directories.", op))
}

// UnreadableRecoveryPoint is problem (why one point could not be read),
// with the way to list the others anyway.
func UnreadableRecoveryPoint(problem diag.Diagnostic) diag.Diagnostic {
	return diag.NewErrorDiagnostic(problem.Summary(),
		problem.Detail()+"\n\nTo list the other points anyway, set ignore_unreadable = true: this point then stays in the list with its error.")
}

// UnreadableRecoveryPointsListed warns that points with errors are listed.
func UnreadableRecoveryPointsListed(paths []string) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Unreadable Recovery Points Listed",
		fmt.Sprintf("These points are listed with their error because ignore_unreadable is set; a cleanup plan cannot be derived from them:\n%s",
			strings.Join(paths, "\n")))
}

// ChoiceWithoutDirectory refuses select or nth_newest (attr) with no
// directory of recovery points to choose in.
func ChoiceWithoutDirectory(attr path.Path) diag.Diagnostic {
	return diag.NewAttributeErrorDiagnostic(attr, "Recovery Point Choice Without A Directory",
		attr.String()+" chooses among the recovery points of checkpoint_dir or savepoint_dir, and neither is set. Set "+
			"checkpoint_dir to the job's checkpoint directory (the parent of its chk-N directories), savepoint_dir, or both; "+
			"or remove "+attr.String()+" to plan from checkpoint_path or plan_json.")
}

// NoRecoveryPointToFollow warns that a plan following a job's directories
// has no point to derive from yet; the plan's attributes are null.
func NoRecoveryPointToFollow(op string, err error) diag.Diagnostic {
	return diag.NewWarningDiagnostic("No Recovery Point To Follow Yet",
		detail(op, "The directories exist but hold no complete checkpoint or savepoint (one with _metadata): the job has not "+
			"completed one yet. plan_json, plan_id and the other plan attributes are null until it has, so nothing can be cleaned. "+
			"A flinkagents_cleanup_boundary fed from this plan needs a guard meanwhile, for example "+
			"count = data.flinkagents_cleanup_plan.<name>.plan_json == null ? 0 : 1.", err))
}

// RecoveryPointsRetiredWhileReading reports that every point chosen in a
// job's directories was deleted before it could be read.
func RecoveryPointsRetiredWhileReading(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Recovery Points Deleted While Being Read",
		detail(op, "Each recovery point chosen was deleted between the listing and the read, several times in a row. Flink "+
			"retires a checkpoint or two as each new one completes; this is faster than that. Nothing was planned. Run again; "+
			"if it persists, look for something else deleting checkpoints (a bucket lifecycle rule, a cleanup job).", err))
}

// FewerRecoveryPointsThanNthNewest warns that nth_newest asked for a point
// beyond the oldest, which the plan follows instead.
func FewerRecoveryPointsThanNthNewest(nth, listed int, oldest string) diag.Diagnostic {
	return diag.NewAttributeWarningDiagnostic(path.Root("nth_newest"), "Fewer Recovery Points Than nth_newest",
		fmt.Sprintf("nth_newest is %d but the directories hold only %d complete recovery point(s), so the plan follows the oldest, %s. "+
			"Every listed point stays restorable. Once there are %d or more, the plan follows the %s newest. If Flink "+
			"retains fewer checkpoints than that (state.checkpoints.num-retained, default 1), lower nth_newest or raise num-retained.",
			nth, listed, oldest, nth, ordinal(nth)))
}

// ordinal spells n as "3rd".
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// UnorderedRecoveryPoints refuses to follow directories holding recovery
// points that cannot be ordered by their markers.
func UnorderedRecoveryPoints(op string, err error) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Recovery Points Cannot Be Ordered",
		detail(op, "Points are ordered by their recovery markers, not by file times, so that a boundary never makes a point "+
			"found here unrestorable. The two points named below cannot be ordered: one is ahead on some partition and behind on "+
			"another, or they belong to different topics. Nothing was planned. Check that checkpoint_dir and savepoint_dir hold the "+
			"points of this one job (one action-state topic); move a point that belongs elsewhere out of these directories, or pin "+
			"the point to keep with checkpoint_path.", err))
}
