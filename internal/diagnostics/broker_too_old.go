package diagnostics

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// brokerFeature is what an operation is for, and the broker it needs.
type brokerFeature struct {
	feature string // completes "... is what failed: "
	needs   string // the requests and the oldest Apache Kafka release with them
}

// brokerFeatures maps each kafkaops operation to its feature.
var brokerFeatures = map[string]brokerFeature{
	kafkaops.OpDescribeTopic:       {"topic identity, checked on every refresh and apply", "topic IDs in Metadata, Apache Kafka 2.8"},
	kafkaops.OpCreateTopic:         {"creating topics", "CreateTopics answering the topic's settings (v5), Apache Kafka 2.4; topic IDs 2.8"},
	kafkaops.OpDeleteTopic:         {"deleting topics", "DeleteTopics, Apache Kafka 0.10.1"},
	kafkaops.OpDescribeConfigs:     {"reading topic settings", "DescribeConfigs, Apache Kafka 0.11"},
	kafkaops.OpAlterConfigs:        {"changing topic settings without touching unmanaged ones", "IncrementalAlterConfigs, Apache Kafka 2.3"},
	kafkaops.OpListStartOffsets:    {"reading the records a boundary would delete", "ListOffsets, Apache Kafka 0.10.1"},
	kafkaops.OpListEndOffsets:      {"reading the records a boundary would delete", "ListOffsets, Apache Kafka 0.10.1"},
	kafkaops.OpListCommittedEnd:    {"reading the control log as the runtime reads it (read_committed)", "ListOffsets v2, Apache Kafka 0.11"},
	kafkaops.OpDeleteRecords:       {"deleting records below a boundary", "DeleteRecords, Apache Kafka 0.11"},
	kafkaops.OpReadControlLog:      {"reading the control log as the runtime reads it (read_committed)", "Fetch v4, Apache Kafka 0.11"},
	kafkaops.OpBeginControlTxn:     {"transactional control appends, serialised between appliers", "transactions, Apache Kafka 0.11; fencing by producer epoch 2.5"},
	kafkaops.OpAppendControlRecord: {"transactional control appends, serialised between appliers", "transactions, Apache Kafka 0.11; fencing by producer epoch 2.5"},
	kafkaops.OpCommitControlTxn:    {"transactional control appends, serialised between appliers", "transactions, Apache Kafka 0.11; fencing by producer epoch 2.5"},
	kafkaops.OpReassignPartitions:  {"raising replication_factor in place", "AlterPartitionReassignments, Apache Kafka 2.4"},
	kafkaops.OpRaiseReplication:    {"raising replication_factor in place", "AlterPartitionReassignments, Apache Kafka 2.4"},
	kafkaops.OpListReassignments:   {"reporting replica reassignments under way", "ListPartitionReassignments, Apache Kafka 2.4"},
	kafkaops.OpDescribeCluster:     {"counting the live brokers", "Metadata, any supported release"},
}

// brokerTooOld names the brokers' releases (when kafkaops could ask them)
// and the feature the failed operation serves, with what that feature
// needs, instead of an opaque protocol error.
func brokerTooOld(op string, err error) diag.Diagnostic {
	var b strings.Builder
	if tooOld, ok := errors.AsType[*kafkaops.BrokerTooOldError](err); ok {
		b.WriteString("The brokers, judged by the request versions they support: ")
		for i, r := range tooOld.Releases {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "broker %d Apache Kafka %s", r.Broker, r.Release)
		}
		b.WriteString(". ")
	}
	if oe, ok := errors.AsType[*kafkaops.OpError](err); ok {
		if f, known := brokerFeatures[oe.Op]; known {
			fmt.Fprintf(&b, "What failed is %s (%s on topic %q), which needs %s. ", f.feature, oe.Op, oe.Topic, f.needs)
		}
	}
	b.WriteString("This provider needs Apache Kafka 2.8 or newer (topic IDs, which guard every apply); it is tested on 3.6 " +
		"(ZooKeeper), 3.9 and 4.4 (KRaft). Upgrade the brokers (kafka-broker-api-versions.sh lists what each supports); " +
		"nothing was changed by this request.")
	return diag.NewErrorDiagnostic("Kafka Broker Too Old For This Operation",
		detail(op+", the broker answered that it does not support the request this needs", b.String(), err))
}
