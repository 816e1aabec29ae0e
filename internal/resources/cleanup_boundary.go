package resources

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
)

var (
	_ resource.Resource                 = (*boundaryResource)(nil)
	_ resource.ResourceWithConfigure    = (*boundaryResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*boundaryResource)(nil)
	_ resource.ResourceWithImportState  = (*boundaryResource)(nil)
	_ resource.ResourceWithUpgradeState = (*boundaryResource)(nil)
)

// NewCleanupBoundary is the flinkagents_cleanup_boundary resource: its
// Create and Update run the commit-then-delete protocol
// (internal/cleanup/apply.go). Its schema is in cleanup_boundary_schema.go,
// the plan-time preview in cleanup_boundary_plan.go, the lifecycle in
// cleanup_boundary_crud.go, import and state upgrades beside them.
func NewCleanupBoundary() resource.Resource { return &boundaryResource{} }

type boundaryResource struct {
	clients *providerdata.Clients
}

type boundaryModel struct {
	ID                  types.String   `tfsdk:"id"`
	ControlTopic        types.String   `tfsdk:"control_topic"`
	ControlTopicID      types.String   `tfsdk:"control_topic_id"`
	ActionStateTopic    types.String   `tfsdk:"action_state_topic"`
	PlanJSON            planJSONValue  `tfsdk:"plan_json"`
	Timeouts            timeouts.Value `tfsdk:"timeouts"`
	PlanID              types.String   `tfsdk:"plan_id"`
	Topic               types.String   `tfsdk:"topic"`
	TopicID             types.String   `tfsdk:"topic_id"`
	SourceRecoveryPoint types.String   `tfsdk:"source_recovery_point"`
	Status              types.String   `tfsdk:"status"`
	RecordsToDelete     types.Int64    `tfsdk:"records_to_delete"`
	Partitions          types.Map      `tfsdk:"partitions"`
	RecoveryPoints      types.List     `tfsdk:"recovery_points"`     // cleanup_boundary_restorable.go
	KeepRestorable      types.List     `tfsdk:"keep_restorable"`     // cleanup_boundary_restorable.go
	UnrestorablePoints  types.List     `tfsdk:"unrestorable_points"` // cleanup_boundary_restorable.go
}

// statusNotRecorded is shown when the control topic does not hold this
// boundary's plan (a recreated control topic): the next apply records it.
const statusNotRecorded = "NOT_RECORDED"

// statusDeletionPending is shown when the plan is recorded APPLIED but the
// topic still holds records below the boundary: the next apply deletes
// them again.
const statusDeletionPending = "DELETION_PENDING"

const defaultApplyTimeout = 10 * time.Minute

func (r *boundaryResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cleanup_boundary"
}

func (r *boundaryResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
}

func (r *boundaryResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {
	// Only forgets: recorded boundaries are permanent (ModifyPlan warned).
}
