package diagnostics

import (
	"errors"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// TestBrokerTooOld: an unsupported request, from the broker or from
// franz-go's own version check, names the operation and the minimum broker.
func TestBrokerTooOld(t *testing.T) {
	for _, err := range []error{kerr.UnsupportedVersion, errors.New("broker is too old; the broker has already indicated it will not know how to handle the request")} {
		d := FromKafkaErrorVia("listing the reassignments of \"orders\"", err, "")
		if d.Summary() != "Kafka Broker Too Old For This Operation" || !strings.Contains(d.Detail(), `"orders"`) || !strings.Contains(d.Detail(), "Apache Kafka 2.8 or newer") {
			t.Errorf("%v: %s\n%s", err, d.Summary(), d.Detail())
		}
	}
}

// TestBrokerTooOldNamesReleaseAndFeature: with the brokers' releases that
// kafkaops learned, the diagnostic names each broker's release and the
// feature the operation serves, with the release that feature needs.
func TestBrokerTooOldNamesReleaseAndFeature(t *testing.T) {
	tooOld := errors.New("broker is too old; the broker has already indicated it will not know how to handle the request")
	err := &kafkaops.BrokerTooOldError{
		Releases: []kafkaops.BrokerRelease{{Broker: 1, Release: "v2.3"}, {Broker: 2, Release: "v2.3"}},
		Err:      &kafkaops.OpError{Op: kafkaops.OpReassignPartitions, Topic: "orders", Err: tooOld},
	}
	d := FromCleanupErrorVia(`raising the replication factor of action-state topic "orders" from 1 to 3`, err, "")
	for _, want := range []string{"broker 1 Apache Kafka v2.3, broker 2 Apache Kafka v2.3", "raising replication_factor in place",
		`reassign partitions on topic "orders"`, "AlterPartitionReassignments, Apache Kafka 2.4", "nothing was changed"} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("detail lacks %q:\n%s", want, d.Detail())
		}
	}
	for _, op := range []string{kafkaops.OpCreateTopic, kafkaops.OpDeleteTopic, kafkaops.OpDescribeTopic, kafkaops.OpDescribeConfigs,
		kafkaops.OpAlterConfigs, kafkaops.OpListStartOffsets, kafkaops.OpListEndOffsets, kafkaops.OpListCommittedEnd, kafkaops.OpDeleteRecords,
		kafkaops.OpReadControlLog, kafkaops.OpBeginControlTxn, kafkaops.OpAppendControlRecord, kafkaops.OpCommitControlTxn,
		kafkaops.OpReassignPartitions, kafkaops.OpRaiseReplication, kafkaops.OpListReassignments, kafkaops.OpDescribeCluster} {
		if _, ok := brokerFeatures[op]; !ok {
			t.Errorf("operation %q has no feature to name when the broker is too old for it", op)
		}
	}
}
