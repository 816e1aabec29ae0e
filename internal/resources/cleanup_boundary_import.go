package resources

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// ImportState adopts the newest plan recorded in the control topic named
// by the import ID, whoever recorded it (this provider or the Java tool);
// the Read that Terraform runs next fills in its status and partitions.
func (r *boundaryResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	control := req.ID
	op := fmt.Sprintf("importing the cleanup boundary recorded in control topic %q", control)
	if err := kafkaops.CheckTopicName(control); err != nil {
		resp.Diagnostics.Append(diagnostics.InvalidImportedTopicName(op, "the import ID (the control topic's name)", err))
		return
	}
	kafka, diags := r.clients.KafkaClient(ctx, op)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	log, err := cleanup.History(ctx, kafka, control)
	if err != nil {
		resp.Diagnostics.Append(importHistoryDiag(r.clients, op, control, err))
		return
	}
	latest, ok := log.Latest()
	if !ok {
		resp.Diagnostics.Append(diagnostics.NoBoundaryRecorded(op))
		return
	}
	m := boundaryModel{
		boundaryEntry:      importedEntry(control, latest),
		ID:                 types.StringValue(control),
		Timeouts:           nullTimeouts(),
		RecoveryPoints:     types.ListNull(tfconv.RecoveryPointType),
		KeepRestorable:     types.ListNull(types.StringType),
		UnrestorablePoints: types.ListNull(unrestorablePointType),
	}
	m.setPlanFields()
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// importedEntry is the boundary of the newest plan control records, as
// both resources import it; the Read that Terraform runs next fills in its
// control topic ID, status and, as there was no change to review, what an
// apply would delete now.
func importedEntry(control string, latest cleanupplan.Operation) boundaryEntry {
	return boundaryEntry{
		ControlTopic:     types.StringValue(control),
		ActionStateTopic: types.StringValue(latest.Plan.Topic),
		PlanJSON:         newPlanJSON(string(latest.Plan.File())),
		PlanID:           types.StringValue(latest.Plan.ID()),
		ControlTopicID:   types.StringNull(),
		Status:           types.StringValue(string(latest.Status)),
		RecordsToDelete:  types.Int64Null(),
		Partitions:       types.MapNull(types.StringType),
		CleanupEnabled:   types.BoolValue(true),
	}
}

// nullTimeouts is the timeouts block of an imported resource.
func nullTimeouts() timeouts.Value {
	return timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{"create": types.StringType, "update": types.StringType})}
}

// importHistoryDiag reports a control topic's history that an import could
// not read: a topic Kafka does not list is said to be missing, as an
// import of the topic itself says, not misconfigured.
func importHistoryDiag(clients *providerdata.Clients, op, control string, err error) diag.Diagnostic {
	if errors.Is(err, kafkaops.ErrTopicNotFound) {
		return diagnostics.ImportedTopicNotFound("cleanup control topic", control, err)
	}
	return clients.CleanupDiag(op, err)
}
