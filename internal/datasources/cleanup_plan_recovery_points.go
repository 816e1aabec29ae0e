package datasources

import (
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// recoveryPointsAttribute is flinkagents_cleanup_plan's recovery_points:
// every point a followed plan chose among, in the shape
// flinkagents_cleanup_boundary's recovery_points takes
// (tfconv.RecoveryPointType).
func recoveryPointsAttribute() schema.ListNestedAttribute {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	return schema.ListNestedAttribute{
		Computed: true,
		MarkdownDescription: "With `checkpoint_dir`/`savepoint_dir`: every complete recovery point found, newest first by markers; " +
			"empty while there is none, null for `plan_json` and `checkpoint_path`. Pass it to `flinkagents_cleanup_boundary`'s " +
			"`recovery_points`.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"path":          computed("The point's directory, as `source_recovery_point` would name it."),
			"kind":          computed("`checkpoint` or `savepoint`."),
			"checkpoint_id": schema.Int64Attribute{Computed: true, MarkdownDescription: "The checkpoint ID recorded in its `_metadata`."},
			"topic":         computed("The action-state topic its markers name."),
			"topic_id":      computed("Its topic ID (Java form)."),
			"offsets": schema.MapAttribute{Computed: true, ElementType: types.Int64Type,
				MarkdownDescription: "Its markers by partition: the minimum over the point's recovery markers, as in a plan."},
		}},
	}
}
