package resources

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/actionstate/terraform-provider-flinkagents/internal/adoption"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
)

// refuseControlTopic stops flinkagents_action_state_topic from taking over
// a cleanup control topic: its enforced compact,delete would make the
// runtime refuse every restore of the job whose boundaries the topic
// records. A one-partition topic is read for control records anywhere in
// it; one that cannot be read is refused too, since nothing can tell.
func refuseControlTopic(ctx context.Context, kafka *kafkaops.Client, t kafkaops.Topic, doing string) diag.Diagnostics {
	rec, err := adoption.ControlRecordIn(ctx, kafka, t)
	switch {
	case err != nil:
		return diag.Diagnostics{diagnostics.TopicKindNotReadable(doing, t.Name, err)}
	case rec != nil:
		return diag.Diagnostics{diagnostics.TopicHoldsControlRecords(doing, t.Name, rec.Offset, adoption.Serves(rec))}
	}
	return nil
}

// importActionStateTopic refuses, at import, a topic holding control
// records. A topic that does not exist is left to Read, which reports it.
func importActionStateTopic(ctx context.Context, clients *providerdata.Clients, name string, resp *resource.ImportStateResponse) {
	doing := fmt.Sprintf("importing action-state topic %q, checking that it is not a cleanup control topic", name)
	kafka, diags := clients.KafkaClient(ctx, doing)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	d, _ := refuseControlTopicNamed(ctx, clients, kafka, name, doing)
	resp.Diagnostics.Append(d...)
}

// refuseControlTopicNamed describes topic name and runs refuseControlTopic
// on it; missing is the not-found error of a topic Kafka does not have,
// for the caller to treat.
func refuseControlTopicNamed(ctx context.Context, clients *providerdata.Clients, kafka *kafkaops.Client, name, doing string) (diags diag.Diagnostics, missing error) {
	t, err := kafka.DescribeTopic(ctx, name)
	switch {
	case errors.Is(err, kafkaops.ErrTopicNotFound):
		return nil, err
	case err != nil:
		return diag.Diagnostics{clients.KafkaDiag(doing, err)}, nil
	}
	return refuseControlTopic(ctx, kafka, t, doing), nil
}
