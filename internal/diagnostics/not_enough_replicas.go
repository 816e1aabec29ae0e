package diagnostics

import (
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// notEnoughReplicas reports a write the broker refuses because the
// partition has fewer in-sync replicas than min.insync.replicas. Every
// control record is written with acks=all, so this is the fix, not a
// timeout to raise.
func notEnoughReplicas(op string, err error) diag.Diagnostic {
	const summary = "Not Enough In-Sync Replicas To Write"
	ner, ok := errors.AsType[*kafkaops.NotEnoughReplicasError](err)
	if !ok {
		return diag.NewErrorDiagnostic(summary, detail(op+", the broker refused the write with NOT_ENOUGH_REPLICAS: the partition has fewer in-sync replicas than its min.insync.replicas",
			"Check the topic's replicas and their state (kafka-topics.sh --describe --topic TOPIC shows Replicas and Isr) and its "+
				"min.insync.replicas (kafka-configs.sh --describe --entity-type topics --entity-name TOPIC --all), bring the missing "+
				"replicas back in sync, then re-run. Nothing that failed here was recorded.", err))
	}
	what := fmt.Sprintf("%s, the broker refused to write to topic %q partition %d: it has min.insync.replicas=%d, but %d replicas %v, of which %d in sync %v",
		op, ner.Topic, ner.Partition, ner.MinInSync, len(ner.Replicas), ner.Replicas, len(ner.InSync), ner.InSync)
	var next string
	if ner.Never() {
		next = fmt.Sprintf("With fewer replicas than min.insync.replicas no write with acks=all can ever succeed, and the provider writes "+
			"every control record with acks=all so a recorded boundary survives a broker's loss. Either raise the topic's replication "+
			"factor to at least %d (replication_factor on its flinkagents_cleanup_control_topic, raised in place), or lower its "+
			"min.insync.replicas to at most %d: set \"min.insync.replicas\" in the resource's config, or kafka-configs.sh "+
			"--bootstrap-server BROKERS --alter --entity-type topics --entity-name %s --add-config min.insync.replicas=%d "+
			"(without a topic setting the broker's default applies). Nothing was recorded; then re-run terraform apply.",
			ner.MinInSync, len(ner.Replicas), ner.Topic, max(len(ner.Replicas), 1))
	} else {
		next = "Replicas are out of sync: a broker is down or behind. Bring the brokers holding the missing replicas back " +
			"(kafka-topics.sh --describe --topic " + ner.Topic + " shows Isr catching up), then re-run terraform apply. Lowering " +
			"min.insync.replicas would let a boundary be recorded on fewer copies than the topic was configured to require. " +
			"Nothing was recorded: the transaction was aborted."
	}
	return diag.NewErrorDiagnostic(summary, detail(what, next, err))
}
