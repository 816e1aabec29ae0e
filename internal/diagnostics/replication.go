package diagnostics

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// ReplicationUneven warns that a topic's partitions hold different numbers
// of replicas (a reassignment outside Terraform, or one cut short), naming
// each; state records the fewest.
func ReplicationUneven(label, topic string, factor int, settled map[int32]int) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Topic Partitions Have Different Replication Factors",
		detail(fmt.Sprintf("reading %s %q, its partitions hold %s", label, topic, partitionCounts(settled)),
			fmt.Sprintf("State records replication_factor = %d, the fewest any partition has, so a configuration asking for more "+
				"plans an update that adds replicas to the partitions short of it (existing replicas and records stay). "+
				"If the extra replicas were meant, set replication_factor to the highest count; if not, move the partitions "+
				"back with kafka-reassign-partitions.sh.", factor), nil))
}

// ReplicationInProgress warns that a reassignment is still adding replicas
// to some partitions; state records only the replicas already settled.
func ReplicationInProgress(label, topic string, factor int, partitions []int32) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Replica Reassignment Still Under Way",
		detail(fmt.Sprintf("reading %s %q, Kafka is still adding replicas to %s", label, topic, partitionList(partitions)),
			fmt.Sprintf("State records replication_factor = %d, what every partition holds in sync now. The cluster keeps "+
				"copying; the next apply with a higher replication_factor waits until every new replica is in sync "+
				"(within the timeouts block's update). Progress: kafka-reassign-partitions.sh --verify, or "+
				"kafka-topics.sh --describe (Isr).", factor), nil))
}

// ReplicationUnlisted warns that replicas are out of sync and the principal
// may not list reassignments, so only in-sync replicas were counted.
func ReplicationUnlisted(label, topic string, factor int, partitions []int32) diag.Diagnostic {
	return diag.NewWarningDiagnostic("Replicas Out Of Sync",
		detail(fmt.Sprintf("reading %s %q, %s have replicas out of sync and the broker refused to list partition "+
			"reassignments (it needs DESCRIBE on the cluster)", label, topic, partitionList(partitions)),
			fmt.Sprintf("State records replication_factor = %d, the replicas in sync, because a reassignment still under way "+
				"cannot be told from a broker that is behind or down. Grant DESCRIBE on the cluster to tell them apart, or "+
				"check the brokers: kafka-topics.sh --describe --under-replicated-partitions.", factor), nil))
}

// ReplicationFactorAboveBrokers refuses, at plan time, more replicas than
// the cluster has live brokers.
func ReplicationFactorAboveBrokers(label, topic string, want int64, brokers []int32) diag.Diagnostic {
	return diag.NewErrorDiagnostic("Replication Factor Above Broker Count",
		detail(fmt.Sprintf("planning %s %q with replication_factor = %d, the cluster has %d live broker(s) (IDs %v)",
			label, topic, want, len(brokers), brokers),
			fmt.Sprintf("Each replica needs its own broker, so Kafka would refuse this at apply. Set replication_factor to at most %d, "+
				"or bring the missing brokers up (a broker that is down or fenced is not counted) and plan again. "+
				"Nothing was created or changed.", len(brokers)), nil))
}

func partitionCounts(settled map[int32]int) string {
	parts := make([]int32, 0, len(settled))
	for p := range settled {
		parts = append(parts, p)
	}
	slices.Sort(parts)
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = fmt.Sprintf("partition %d: %d", p, settled[p])
	}
	return "these replica counts (" + strings.Join(out, ", ") + ")"
}

func partitionList(partitions []int32) string {
	out := make([]string, len(partitions))
	for i, p := range partitions {
		out[i] = fmt.Sprint(p)
	}
	if len(out) == 1 {
		return "partition " + out[0]
	}
	return "partitions " + strings.Join(out, ", ")
}
