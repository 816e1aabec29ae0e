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
			"mutually exclusive in the Flink Agents runtime; the job would fail to start. Remove control_topic or set "+
			"tombstones_enabled to false.", control))
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
