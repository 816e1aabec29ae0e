package resources

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// boundaryEntryType is the object type of one entry of boundaries.
var boundaryEntryType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"control_topic":      types.StringType,
	"action_state_topic": types.StringType,
	"plan_json":          planJSONType{},
	"plan_id":            types.StringType,
	"control_topic_id":   types.StringType,
	"status":             types.StringType,
	"records_to_delete":  types.Int64Type,
	"partitions":         types.MapType{ElemType: types.StringType},
	"cleanup_enabled":    types.BoolType,
}}

// The details behind these short descriptions are in
// templates/resources/cleanup_boundaries.md.tmpl.
func (r *boundariesResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A fleet's cleanup boundaries in one resource: each entry is planned and applied as " +
			"`flinkagents_cleanup_boundary` does one, side by side, so a nightly run is one Terraform object. A refused entry " +
			"is held and the others advance. Removing an entry only forgets it.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "Always `" + boundariesID + "`.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"on_refusal": schema.StringAttribute{
				Optional: true, Computed: true, Default: stringdefault.StaticString(onRefusalHold),
				MarkdownDescription: "What a refusal or failure of one entry does: `hold` (the default) holds that entry, with a warning naming it " +
					"and the reason, and the other entries advance; `fail` stops the whole plan or apply with an error.",
				Validators: []validator.String{stringvalidator.OneOf(onRefusalHold, onRefusalFail)},
			},
			"boundaries": schema.MapNestedAttribute{
				Required: true,
				MarkdownDescription: "The boundaries by a key of your choice (the operator's name). An entry whose plan is unchanged " +
					"and recorded `APPLIED` is left alone; the others are applied side by side.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"control_topic": schema.StringAttribute{
						Required: true, MarkdownDescription: "The control topic (the job's `kafkaActionStateCleanupControlTopic`). One entry per control topic.",
						Validators: []validator.String{tfconv.TopicName()},
					},
					"action_state_topic": schema.StringAttribute{
						Optional: true, Computed: true,
						MarkdownDescription: "The action-state topic the plan must clean: set, a plan for another topic is refused at plan " +
							"time; omitted, the plan's topic.",
						Validators: []validator.String{tfconv.TopicName()},
					},
					"plan_json": schema.StringAttribute{
						Optional: true, Computed: true, CustomType: planJSONType{},
						MarkdownDescription: "The cleanup plan: `data.flinkagents_cleanup_plans.<name>.plans[<key>]` or a Java-tool plan " +
							"file, parsed strictly. Null keeps the plan in state (a night without a new plan changes nothing); with none, the " +
							"control topic's newest plan is adopted, or the entry is `NONE`.",
					},
					"plan_id":          computed("The plan's ID."),
					"control_topic_id": computed("The control topic's ID (Java form). Apply refuses, before writing, a control topic whose ID changed since the plan."),
					"status": computed("`APPLIED`; `COMMITTED` while an apply is pending; `DELETION_PENDING` when records below the " +
						"boundary are readable; `NOT_RECORDED`; `REFUSED` when the plan was refused and is held (a warning says why); " +
						"`NONE` without a plan. Known after apply when there is work to do."),
					"records_to_delete": schema.Int64Attribute{
						Computed: true,
						MarkdownDescription: "The records the apply of this change deletes, previewed at plan time, and kept after the apply. " +
							"Known at plan time when the topics exist; policies should treat unknown as a refusal.",
					},
					"partitions": schema.MapAttribute{
						Computed: true, ElementType: types.StringType,
						MarkdownDescription: "One line per partition, keyed in decimal: what the apply of this change deletes, or `nothing to delete`; kept after the apply.",
					},
					"cleanup_enabled": schema.BoolAttribute{
						Computed: true,
						MarkdownDescription: "Whether the control topic holds a committed boundary, so the job's configuration must name it " +
							"(`kafkaActionStateCleanupControlTopic`). Once true it stays true.",
					},
				}},
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true}),
		},
	}
}
