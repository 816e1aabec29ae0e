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

// boundaryModel is the resource's state: one boundaryEntry (the values
// the fleet's resource holds per operator) and what only this resource has.
type boundaryModel struct {
	boundaryEntry
	ID                  types.String   `tfsdk:"id"`
	Timeouts            timeouts.Value `tfsdk:"timeouts"`
	Topic               types.String   `tfsdk:"topic"`
	TopicID             types.String   `tfsdk:"topic_id"`
	SourceRecoveryPoint types.String   `tfsdk:"source_recovery_point"`
	RecoveryPoints      types.List     `tfsdk:"recovery_points"`     // cleanup_boundary_restorable.go
	KeepRestorable      types.List     `tfsdk:"keep_restorable"`     // cleanup_boundary_restorable.go
	UnrestorablePoints  types.List     `tfsdk:"unrestorable_points"` // cleanup_boundary_restorable.go
}

// singleRules: the single resource fails on a refusal, and plans the
// outcome of its apply (APPLIED), which reports an error otherwise.
var singleRules = entryRules{}

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
