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
	_ resource.Resource                = (*boundariesResource)(nil)
	_ resource.ResourceWithConfigure   = (*boundariesResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*boundariesResource)(nil)
	_ resource.ResourceWithImportState = (*boundariesResource)(nil)
)

// NewCleanupBoundaries is the flinkagents_cleanup_boundaries resource: the
// boundaries of a fleet of operators in one resource, each entry applied
// with the same commit-then-delete protocol as flinkagents_cleanup_boundary
// (internal/cleanup/apply.go).
//
// Why one resource for many: Terraform core's cost per resource instance,
// not Kafka, bounds a nightly run over a large fleet (BENCHMARKS.md, "Fleet
// cleanup"). One instance is one graph node and one state write, however
// many operators it advances; the provider runs their protocols side by side.
//
// Schema in cleanup_boundaries_schema.go, the plan-time preview in
// cleanup_boundaries_plan.go, the lifecycle in cleanup_boundaries_crud.go,
// import in cleanup_boundaries_import.go.
func NewCleanupBoundaries() resource.Resource { return &boundariesResource{} }

type boundariesResource struct {
	clients *providerdata.Clients
}

type boundariesModel struct {
	ID         types.String   `tfsdk:"id"`
	Boundaries types.Map      `tfsdk:"boundaries"` // of boundaryEntry (boundary_entry.go)
	OnRefusal  types.String   `tfsdk:"on_refusal"`
	Timeouts   timeouts.Value `tfsdk:"timeouts"`
}

// The values of on_refusal.
const (
	onRefusalHold = "hold"
	onRefusalFail = "fail"
)

// rules is how this resource treats entry key: held on a refusal unless
// on_refusal says fail; outcomes known only after the apply.
func (m boundariesModel) rules(key string) entryRules {
	return entryRules{hold: m.OnRefusal.ValueString() != onRefusalFail, deferOutcome: true, key: key}
}

// boundariesID is the resource's ID: the set has no name of its own, and an
// ID that changed with its entries would show as drift.
const boundariesID = "cleanup-boundaries"

// defaultFleetApplyTimeout bounds one apply of every entry together.
const defaultFleetApplyTimeout = 30 * time.Minute

// fleetConcurrency is how many entries are applied at once. Concurrent
// calls of one provider process share broker requests (the coalescer in
// internal/kafkaops), so more in flight means fewer requests: at 1,000
// entries, 64 rather than 32 took an apply's update from 14-16 s to 11-12 s
// and its requests from 30-41 to 26-36 thousand (BENCHMARKS.md, "Fleet
// cleanup"). Each boundary's apply holds a control-topic producer (its
// own connections) while it runs, which bounds it.
const fleetConcurrency = 64

// fleetTogetherConcurrency is how many entries are refreshed, planned or
// imported at once, and how many topics of flinkagents_action_state_topics
// are created, updated or deleted at once. None of it holds a connection
// of its own, and calls that ask together share one request per kind (up
// to the coalescer's 500 topics): at 1,000 boundaries a refresh took 410
// requests 64 at a time and 45 all at once (BenchmarkFleetRefresh), and a
// rollout of 2,000 topics 128 CreateTopics 64 at a time. Fewer, larger
// CreateTopics also matter to the broker: Apache Kafka 4.4 shows the
// topics of one request with leaders at once, while it worked through
// 128 small ones at about a hundred topics a second after the last had
// returned.
const fleetTogetherConcurrency = 4096

func (r *boundariesResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cleanup_boundaries"
}

func (r *boundariesResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
}

func (r *boundariesResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {
	// Only forgets: recorded boundaries are permanent (ModifyPlan warned).
}
