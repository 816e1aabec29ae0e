package functions

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

var _ function.Function = (*planID)(nil)

// NewPlanID is plan_id: the runtime's plan ID of given contents.
func NewPlanID() function.Function { return &planID{} }

type planID struct{}

func (f *planID) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "plan_id"
}

func (f *planID) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Computes the runtime's plan ID of a cleanup plan's contents.",
		MarkdownDescription: "Computes the plan ID the runtime gives a cleanup plan with these contents: the lowercase hex " +
			"SHA-256 of its canonical text (schema version, source recovery point, topic, topic ID, then `partition=offset` " +
			"per partition in numeric order). The contents must be a plan the runtime accepts (no blank text, not the zero " +
			"topic ID, at least one partition, partitions in canonical decimal, partitions and offsets not negative); " +
			"otherwise the call fails with the reason. An approval list of plan IDs can be checked against it, and a plan " +
			"whose `plan_id` differs from it was not made from these contents.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "source_recovery_point", MarkdownDescription: "The recovery point's path, exactly as the plan records it."},
			function.StringParameter{Name: "topic", MarkdownDescription: "The action-state topic."},
			function.StringParameter{Name: "topic_id", MarkdownDescription: "The topic's ID as Kafka's Java client prints it (22 characters)."},
			function.MapParameter{Name: "offsets", ElementType: types.Int64Type, MarkdownDescription: "Offset by partition, keyed by the partition in decimal."},
		},
		Return: function.StringReturn{},
	}
}

func (f *planID) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var source, topic, topicID string
	var byKey map[string]int64
	if resp.Error = req.Arguments.Get(ctx, &source, &topic, &topicID, &byKey); resp.Error != nil {
		return
	}
	offsets, err := cleanupplan.OffsetsFromKeys(byKey)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(3, err.Error())
		return
	}
	p, err := cleanupplan.New(source, topic, topicID, offsets)
	if err != nil {
		resp.Error = function.NewFuncError("These contents are not a plan the runtime accepts: " + err.Error())
		return
	}
	resp.Error = resp.Result.Set(ctx, p.ID())
}
