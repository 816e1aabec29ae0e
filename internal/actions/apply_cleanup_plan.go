// Package actions holds the provider's actions (Terraform 1.14+): one-off
// operations invoked with -invoke or an action_trigger, keeping nothing in
// state. Each is a thin layer over the library core.
package actions

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// All lists the constructors the provider registers.
func All() []func() action.Action {
	return []func() action.Action{NewApplyCleanupPlan}
}

var (
	_ action.ActionWithConfigure      = (*applyCleanupPlan)(nil)
	_ action.ActionWithModifyPlan     = (*applyCleanupPlan)(nil)
	_ action.ActionWithValidateConfig = (*applyCleanupPlan)(nil)
)

// NewApplyCleanupPlan is flinkagents_apply_cleanup_plan: the Java tool's
// `apply --plan --control-topic`, run by Terraform. The protocol is
// cleanup.Apply, the same the boundary resources run: COMMITTED before
// DeleteRecords, verified, then APPLIED, every check and refusal included.
type applyCleanupPlan struct {
	clients *providerdata.Clients
}

func NewApplyCleanupPlan() action.Action { return &applyCleanupPlan{} }

type applyCleanupPlanModel struct {
	PlanJSON     types.String `tfsdk:"plan_json"`
	ControlTopic types.String `tfsdk:"control_topic"`
}

func (a *applyCleanupPlan) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_apply_cleanup_plan"
}

func (a *applyCleanupPlan) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Applies one cleanup plan, exactly as the runtime's tool does with `apply --plan FILE --control-topic TOPIC`: " +
			"records the plan COMMITTED in the control topic, deletes the records below it, verifies the deletion, records APPLIED. " +
			"Nothing is kept in state: for a boundary that moves with each savepoint, use `flinkagents_cleanup_boundary`. " +
			"An interrupted invocation is finished by invoking it again with the same plan.",
		Attributes: map[string]schema.Attribute{
			"plan_json": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The plan, as `data.flinkagents_cleanup_plan`'s `plan_json` or the Java tool's plan file " +
					"(`file(\"cleanup-plan.json\")`).",
			},
			"control_topic": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The dedicated control topic (the job's `kafkaActionStateCleanupControlTopic`). It must exist: " +
					"unlike the Java tool, the action never creates it (use `flinkagents_cleanup_control_topic`).",
				Validators: []validator.String{tfconv.TopicName()},
			},
		},
	}
}

func (a *applyCleanupPlan) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
}

// ValidateConfig refuses a malformed plan before any request.
func (a *applyCleanupPlan) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var m applyCleanupPlanModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if !resp.Diagnostics.HasError() {
		parsePlan(m, &resp.Diagnostics)
	}
}

// parsePlan parses plan_json when known; ok is false when it is unknown
// (computed in the same apply) or refused.
func parsePlan(m applyCleanupPlanModel, diags *diag.Diagnostics) (p cleanupplan.Plan, ok bool) {
	if m.PlanJSON.IsUnknown() || m.PlanJSON.IsNull() {
		return p, false
	}
	p, err := cleanupplan.Parse([]byte(m.PlanJSON.ValueString()))
	if err != nil {
		diags.Append(diagnostics.MalformedPlan(path.Root("plan_json"), err))
		return p, false
	}
	return p, true
}

// ModifyPlan refuses at plan time what the apply would refuse before
// writing: a plan that moves the boundary backward, a recreated topic, an
// offset outside the available range, a missing action-state topic. A
// control topic that does not exist yet may be created in the same apply
// (an action_trigger after it): the invocation then checks everything.
// Terraform shows nothing of a planned action but its diagnostics, so what
// the invocation deletes, and a plan an earlier run left COMMITTED, are
// warnings.
func (a *applyCleanupPlan) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var m applyCleanupPlanModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.ControlTopic.IsUnknown() || a.clients == nil {
		return
	}
	p, ok := parsePlan(m, &resp.Diagnostics)
	if !ok {
		return
	}
	control := m.ControlTopic.ValueString()
	op := fmt.Sprintf("planning action flinkagents_apply_cleanup_plan: cleanup plan %s for topic %q, control topic %q", p.ID(), p.Topic, control)
	kafka, diags := a.clients.KafkaClient(ctx, op)
	if diags.HasError() {
		return // a provider configuration known only at apply: the invocation reports it
	}
	pv, err := cleanup.PreviewApply(ctx, kafka, p, control)
	if opErr, isOp := errors.AsType[*kafkaops.OpError](err); isOp && opErr.Topic == control && errors.Is(err, kafkaops.ErrTopicNotFound) {
		tflog.Info(ctx, "apply_cleanup_plan: control topic does not exist yet; the invocation checks the plan", map[string]any{"control_topic": control})
		return
	}
	if err != nil {
		resp.Diagnostics.Append(a.clients.ActionCleanupDiag(op, err))
		return
	}
	// An interrupted invocation cannot say so (see Invoke): its next plan does.
	if pv.Latest.Status == cleanupplan.StatusCommitted {
		resp.Diagnostics.Append(diagnostics.UnfinishedBeforeInvoke(control, p.ID(), pv.Latest))
	} else if pv.Status == cleanupplan.StatusCommitted {
		resp.Diagnostics.Append(diagnostics.UnfinishedBeforeInvoke(control, p.ID(), cleanupplan.Operation{PlanID: p.ID(), Status: pv.Status, Plan: p}))
	}
	summaries := tfconv.PartitionSummaries(p.Offsets, pv.Target, pv.Ranges, pv.GonePast).Elements()
	lines := make([]string, 0, len(summaries))
	for _, part := range p.Offsets.Partitions() {
		if line, ok := summaries[strconv.FormatInt(int64(part), 10)].(types.String); ok {
			lines = append(lines, fmt.Sprintf("  %d: %s", part, line.ValueString()))
		}
	}
	resp.Diagnostics.Append(diagnostics.CleanupPlanReview(p.ID(), p.Topic, pv.RecordsToDelete, lines))
}

// Invoke runs the protocol, telling each milestone as progress.
func (a *applyCleanupPlan) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m applyCleanupPlanModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	p, ok := parsePlan(m, &resp.Diagnostics)
	if !ok {
		if !resp.Diagnostics.HasError() {
			resp.Diagnostics.AddAttributeError(path.Root("plan_json"), "Cleanup Plan Unknown",
				"plan_json is still unknown when the action runs, so nothing was written or deleted. Give a plan known before the apply.")
		}
		return
	}
	control := m.ControlTopic.ValueString()
	op := fmt.Sprintf("applying cleanup plan %s to topic %q through control topic %q", p.ID(), p.Topic, control)
	kafka, diags := a.clients.KafkaClient(ctx, op)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	// Once Terraform stops the run, terraform-plugin-go ends the stream at
	// the next event and nothing reads progress any more: a send then would
	// block this invocation for good.
	send := func(msg string) {
		if resp.SendProgress != nil && ctx.Err() == nil {
			resp.SendProgress(action.InvokeProgressEvent{Message: msg})
		}
	}
	res, err := cleanup.Apply(ctx, kafka, cleanup.Request{
		Plan:         p,
		ControlTopic: control,
		Progress: func(step string, fields map[string]any) {
			tflog.Info(ctx, "cleanup: "+step, fields)
			if msg, ok := progressMessage(step, fields, p, control); ok {
				send(msg)
			}
		},
	})
	if err != nil && ctx.Err() != nil {
		// Terraform does not show this (terraform-plugin-go drops every
		// event after a stop); the log and the next plan's warning do.
		d := diagnostics.CleanupPlanInterrupted(op, p.ID(), res.Committed, err)
		tflog.Error(ctx, d.Summary()+": "+d.Detail())
		resp.Diagnostics.Append(d)
		return
	}
	if err != nil {
		resp.Diagnostics.Append(a.clients.ActionCleanupDiag(op, err))
		return
	}
	for _, rg := range res.Deleted {
		tflog.Info(ctx, "cleanup: deleted records", map[string]any{"topic": p.Topic, "partition": rg.Partition, "from": rg.From, "to": rg.To})
	}
	send(fmt.Sprintf("Cleanup plan %s is APPLIED", res.PlanID))
}

// progressMessage is what the operator sees for one step of the protocol:
// the milestones, and the start of the steps that write.
func progressMessage(step string, fields map[string]any, p cleanupplan.Plan, control string) (string, bool) {
	switch step {
	case "append COMMITTED":
		return fmt.Sprintf("recording plan %s COMMITTED in %q", p.ID(), control), true
	case cleanup.StepCommitted:
		return fmt.Sprintf("COMMITTED: the runtime now refuses restores below the boundary of plan %s "+
			"(a run stopped before APPLIED is finished by invoking the action again)", p.ID()), true
	case cleanup.StepResumed:
		return fmt.Sprintf("plan %s was COMMITTED already (an interrupted apply): resuming", p.ID()), true
	case "delete records":
		return fmt.Sprintf("DeleteRecords on %q, %v partitions", p.Topic, fields["partitions"]), true
	case cleanup.StepDeleted:
		return fmt.Sprintf("DeleteRecords done: %v records deleted in %v partitions", fields["records"], fields["partitions"]), true
	case cleanup.StepVerified:
		return fmt.Sprintf("verified: every partition of %q starts at or above the boundary, topic ID unchanged", p.Topic), true
	case cleanup.StepApplied:
		return fmt.Sprintf("APPLIED recorded in %q", control), true
	case cleanup.StepAlreadyApplied:
		return fmt.Sprintf("plan %s was APPLIED already: nothing to write or delete", p.ID()), true
	case cleanup.StepAwaitingOtherApplier:
		return fmt.Sprintf("another run applying to %q fenced this one: waiting for it", control), true
	case cleanup.StepResumingFenced:
		return fmt.Sprintf("the run that fenced this one left plan %s COMMITTED and went quiet: resuming it", p.ID()), true
	case cleanup.StepAppliedByAnother:
		return fmt.Sprintf("plan %s was applied by another run", p.ID()), true
	}
	return "", false
}
