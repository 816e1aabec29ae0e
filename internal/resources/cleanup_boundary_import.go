package resources

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// ImportState adopts the newest plan recorded in the control topic named
// by the import ID, whoever recorded it (this provider or the Java tool);
// the Read that Terraform runs next fills in its status and partitions.
func (r *boundaryResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	control := req.ID
	op := fmt.Sprintf("importing the cleanup boundary recorded in control topic %q", control)
	kafka, diags := r.clients.KafkaClient(ctx, op)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	log, err := cleanup.History(ctx, kafka, control)
	if err != nil {
		resp.Diagnostics.Append(r.clients.CleanupDiag(op, err))
		return
	}
	latest, ok := log.Latest()
	if !ok {
		resp.Diagnostics.Append(diagnostics.NoBoundaryRecorded(op))
		return
	}
	m := boundaryModel{
		ID:                 types.StringValue(control),
		ControlTopic:       types.StringValue(control),
		ControlTopicID:     types.StringNull(), // the Read that follows fills it
		ActionStateTopic:   types.StringValue(latest.Plan.Topic),
		PlanJSON:           newPlanJSON(string(latest.Plan.File())),
		Timeouts:           nullTimeouts(),
		Status:             types.StringValue(string(latest.Status)),
		RecordsToDelete:    types.Int64Value(0),
		Partitions:         tfconv.PartitionSummaries(latest.Plan.Offsets, log.Boundary(), nil, nil),
		RecoveryPoints:     types.ListNull(tfconv.RecoveryPointType),
		KeepRestorable:     types.ListNull(types.StringType),
		UnrestorablePoints: types.ListNull(unrestorablePointType),
	}
	setPlanFields(&m, latest.Plan)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// nullTimeouts is the timeouts block of an imported resource.
func nullTimeouts() timeouts.Value {
	return timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{"create": types.StringType, "update": types.StringType})}
}
