package tfconv

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

var _ validator.String = topicNameValidator{}

// topicNameValidator is Kafka's topic-name rule (kafkaops.CheckTopicName)
// as a schema validator, shared by every resource and data source that
// takes a topic name, so that none accepts what Kafka refuses.
type topicNameValidator struct{}

// TopicName validates a Kafka topic name at validate time.
func TopicName() validator.String { return topicNameValidator{} }

func (topicNameValidator) Description(context.Context) string {
	return "value must be a Kafka topic name: 1 to 249 of a-z A-Z 0-9 . _ -, not \".\" or \"..\""
}

func (v topicNameValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (topicNameValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := kafkaops.CheckTopicName(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.Append(diagnostics.InvalidTopicName(req.Path, err))
	}
}

var _ validator.String = topicNamePrefixValidator{}

// topicNamePrefixValidator is kafkaops.CheckTopicNamePrefix as a schema
// validator, for a listing's name_prefix.
type topicNamePrefixValidator struct{}

// TopicNamePrefix validates the start of a Kafka topic name at validate time.
func TopicNamePrefix() validator.String { return topicNamePrefixValidator{} }

func (topicNamePrefixValidator) Description(context.Context) string {
	return "value must be the start of a Kafka topic name: up to 249 of a-z A-Z 0-9 . _ -"
}

func (v topicNamePrefixValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (topicNamePrefixValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := kafkaops.CheckTopicNamePrefix(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.Append(diagnostics.InvalidTopicNamePrefix(req.Path, err))
	}
}
