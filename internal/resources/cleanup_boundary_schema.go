package resources

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// boundarySchemaVersion 1 removed offsets, committed_boundary and
// delete_ranges and keyed partitions in decimal; 2 made recovery_points
// write-only and added cleanup_enabled (cleanup_boundary_upgrade.go).
const boundarySchemaVersion = 2

// The details behind these short descriptions are in
// templates/resources/cleanup_boundary.md.tmpl.
func (r *boundaryResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		Version: boundarySchemaVersion,
		MarkdownDescription: "A checkpoint-aligned cleanup boundary: apply records the plan as COMMITTED in the control topic, " +
			"deletes the action-state records below it and records APPLIED. `terraform plan` shows, per partition, what the apply " +
			"deletes, and refuses a backward move. Destroy only forgets it.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "The control topic name.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"control_topic": schema.StringAttribute{
				Required: true, MarkdownDescription: "The control topic (the job's `kafkaActionStateCleanupControlTopic`).",
				Validators:    []validator.String{tfconv.TopicName()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"control_topic_id": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The control topic's ID (Java form). Apply refuses, before writing, a control topic whose ID changed " +
					"since the plan; a refresh that finds a new ID warns and records it.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"action_state_topic": schema.StringAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "The action-state topic the plan must clean: set, a plan for another topic is refused at plan time; " +
					"omitted, the plan's topic.",
				Validators: []validator.String{tfconv.TopicName()},
			},
			"plan_json": schema.StringAttribute{
				Optional: true, Computed: true, CustomType: planJSONType{},
				MarkdownDescription: "The cleanup plan: `data.flinkagents_cleanup_plan.<name>.plan_json` or a Java-tool plan file, " +
					"parsed strictly. Null keeps the plan in state (a run without a new plan changes nothing); with none, the control " +
					"topic's newest plan is adopted, or `status` is `NONE`.",
			},
			"plan_id":               computed("The plan's ID (SHA-256 over its contents, as the Java tool computes it)."),
			"topic":                 computed("The action-state topic the plan cleans."),
			"topic_id":              computed("That topic's ID, in Kafka's Java form."),
			"source_recovery_point": computed("The checkpoint or savepoint path the plan was derived from."),
			"partitions": schema.MapAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "One line per partition, keyed in decimal: what the apply of this change deletes " +
					"(`deletes 50 records from offset 150`) or `nothing to delete`, and a higher boundary recorded elsewhere. " +
					"Previewed at plan time, kept after the apply.",
			},
			"status": computed("`APPLIED`; `COMMITTED` while an interrupted apply is pending; `DELETION_PENDING` when records below " +
				"the recorded boundary are readable; `NOT_RECORDED` when the control topic does not hold the plan; `NONE` without a plan. " +
				"Apply converges each to `APPLIED`."),
			"records_to_delete": schema.Int64Attribute{
				Computed: true,
				MarkdownDescription: "The records the apply of this change deletes (the sum over `partitions`), previewed at plan time " +
					"when the topics exist and kept after the apply. Policies should treat unknown as a refusal.",
			},
			"cleanup_enabled": schema.BoolAttribute{
				Computed: true,
				MarkdownDescription: "Whether the control topic holds a committed boundary, so the job's configuration must name it " +
					"(`kafkaActionStateCleanupControlTopic`). Once true it stays true.",
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true}),
		},
	}
	maps.Copy(resp.Schema.Attributes, restorableAttributes())
}
