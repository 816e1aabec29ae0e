package functions

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

var _ function.Function = (*decodePlan)(nil)

// NewDecodePlan is decode_plan: a plan file's JSON as typed values.
func NewDecodePlan() function.Function { return &decodePlan{} }

type decodePlan struct{}

// planAttributes are decode_plan's result, in the plan file's terms.
var planAttributes = map[string]attr.Type{
	"schema_version":        types.Int64Type,
	"plan_id":               types.StringType,
	"source_recovery_point": types.StringType,
	"topic":                 types.StringType,
	"topic_id":              types.StringType,
	"offsets":               types.MapType{ElemType: types.Int64Type},
}

func (f *decodePlan) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "decode_plan"
}

func (f *decodePlan) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Reads a cleanup plan's JSON into typed values, under the runtime's rules.",
		MarkdownDescription: "Reads a cleanup plan's JSON (a `plan_json`, or a file the Java tool's `plan` command wrote) " +
			"and returns its fields as typed values: `plan_id`, `source_recovery_point`, `topic`, `topic_id`, `schema_version` " +
			"and `offsets` (a map from partition to offset, keyed by the partition in decimal). The JSON is read with the " +
			"rules the runtime reads plans with, and refused with the same errors as `plan_json`: duplicate keys, content " +
			"after the object, a missing or extra field, blank text, the zero topic ID, negative or non-canonical partitions, " +
			"and a `planId` that is not the ID of the contents.",
		Parameters: []function.Parameter{
			function.StringParameter{
				Name:                "plan_json",
				MarkdownDescription: "The plan as JSON text.",
			},
		},
		Return: function.ObjectReturn{AttributeTypes: planAttributes},
	}
}

func (f *decodePlan) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var text string
	if resp.Error = req.Arguments.Get(ctx, &text); resp.Error != nil {
		return
	}
	p, err := cleanupplan.Parse([]byte(text))
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, "The plan cannot be read: "+err.Error()+
			". Regenerate it (data.flinkagents_cleanup_plan, or the Java tool's plan command); plans are never edited by hand.")
		return
	}
	result := types.ObjectValueMust(planAttributes, map[string]attr.Value{
		"schema_version":        types.Int64Value(cleanupplan.SchemaVersion),
		"plan_id":               types.StringValue(p.ID()),
		"source_recovery_point": types.StringValue(p.SourceRecoveryPoint),
		"topic":                 types.StringValue(p.Topic),
		"topic_id":              types.StringValue(p.TopicID),
		"offsets":               tfconv.Offsets(p.Offsets),
	})
	resp.Error = resp.Result.Set(ctx, result)
}
