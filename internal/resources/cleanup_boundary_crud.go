package resources

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

func (r *boundaryResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan boundaryModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, defaultApplyTimeout)
	resp.Diagnostics.Append(diags...)
	r.apply(ctx, timeout, &plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *boundaryResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state boundaryModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	control := state.ControlTopic.ValueString()
	op := fmt.Sprintf("reading cleanup boundaries from control topic %q", control)
	kafka, diags := r.clients.KafkaClient(ctx, op)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ins, err := cleanup.Inspect(ctx, kafka, control)
	if errors.Is(err, kafkaops.ErrTopicNotFound) {
		resp.Diagnostics.Append(diagnostics.ControlTopicMissing(control))
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.Append(r.clients.CleanupDiag(op, err))
		return
	}
	log := ins.Log
	if recorded := state.ControlTopicID; !recorded.IsNull() && !recorded.IsUnknown() && recorded.ValueString() != ins.ControlTopicID {
		resp.Diagnostics.Append(diagnostics.ControlTopicRecreated(control, recorded.ValueString(), ins.ControlTopicID))
	}
	state.ControlTopicID = types.StringValue(ins.ControlTopicID) // a state from before the attribute learns it here
	state.ID = types.StringValue(control)
	state.Status = types.StringValue(statusNotRecorded)
	recorded, isRecorded := log.Lookup(state.PlanID.ValueString())
	if isRecorded {
		state.Status = types.StringValue(string(recorded.Status))
	}
	if ins.Uncompared != nil {
		resp.Diagnostics.Append(diagnostics.HistoryNotCompared(control, ins.Uncompared))
	}
	if ins.Uncompared == nil && len(ins.Remaining) > 0 && recorded.Status == cleanupplan.StatusApplied {
		// The recorded APPLIED no longer holds: show the deletion as
		// pending, so the plan proposes it and apply performs it again.
		state.Status = types.StringValue(statusDeletionPending)
		resp.Diagnostics.Append(diagnostics.RecordsBelowAppliedBoundary(control, state.Topic.ValueString(), ins.Remaining))
	}
	if isRecorded && ins.Uncompared == nil {
		// partitions and records_to_delete say what an apply would do now,
		// so a boundary advanced elsewhere or records readable again show.
		state.RecordsToDelete = types.Int64Value(sumRanges(ins.Remaining))
		state.Partitions = tfconv.PartitionSummaries(recorded.Plan.Offsets, log.Boundary(), ins.Remaining, ins.GonePast)
	}
	if len(ins.GonePast) > 0 {
		resp.Diagnostics.Append(diagnostics.RecordsGonePastBoundary(state.Topic.ValueString(), ins.GonePast))
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *boundaryResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan boundaryModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Update(ctx, defaultApplyTimeout)
	resp.Diagnostics.Append(diags...)
	r.apply(ctx, timeout, &plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// apply runs the coordinator and fills the computed attributes.
func (r *boundaryResource) apply(ctx context.Context, timeout time.Duration, plan *boundaryModel, diags *diag.Diagnostics) {
	p, ok := parsePlanAttr(diags, plan.PlanJSON)
	if !ok {
		return
	}
	control := plan.ControlTopic.ValueString()
	op := fmt.Sprintf("applying cleanup plan %s to topic %q through control topic %q", p.ID(), p.Topic, control)
	kafka, d := r.clients.KafkaClient(ctx, op)
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := cleanup.Apply(ctx, kafka, cleanup.Request{
		Plan:           p,
		ControlTopic:   control,
		ControlTopicID: plan.ControlTopicID.ValueString(), // "" when unknown at plan time: learned below
		ExpectedTopic:  plan.ActionStateTopic.ValueString(),
		Progress: func(step string, fields map[string]any) {
			tflog.Info(ctx, "cleanup: "+step, fields)
		},
	})
	if err != nil {
		diags.Append(r.clients.CleanupDiag(op, err))
		return
	}
	if res.Redeleted {
		tflog.Warn(ctx, "cleanup: records below the APPLIED boundary were readable again and were deleted again", map[string]any{"plan_id": p.ID()})
	}
	for _, rg := range res.Deleted {
		tflog.Info(ctx, "cleanup: deleted records", map[string]any{"topic": p.Topic, "partition": rg.Partition, "from": rg.From, "to": rg.To})
	}
	setPlanFields(plan, p)
	plan.ID = types.StringValue(control)
	plan.ControlTopicID = types.StringValue(res.ControlTopicID)
	plan.Status = types.StringValue(string(cleanupplan.StatusApplied))
	plan.ActionStateTopic = types.StringValue(p.Topic)
	// What the plan showed stays (Terraform requires it); where it was
	// unknown at plan time, record what this apply did. The next refresh
	// reads the control topic again.
	if plan.RecordsToDelete.IsUnknown() {
		plan.RecordsToDelete = types.Int64Value(sumRanges(res.Deleted))
	}
	if plan.Partitions.IsUnknown() {
		plan.Partitions = tfconv.PartitionSummaries(p.Offsets, res.Target, res.Deleted, nil)
	}
}

func setPlanFields(m *boundaryModel, p cleanupplan.Plan) {
	m.PlanID = types.StringValue(p.ID())
	m.Topic = types.StringValue(p.Topic)
	m.TopicID = types.StringValue(p.TopicID)
	m.SourceRecoveryPoint = types.StringValue(p.SourceRecoveryPoint)
}

// parsePlanAttr parses plan_json, reporting a precise attribute error.
func parsePlanAttr(diags *diag.Diagnostics, v planJSONValue) (cleanupplan.Plan, bool) {
	p, err := cleanupplan.Parse([]byte(v.ValueString()))
	if err != nil {
		diags.Append(diagnostics.MalformedPlan(path.Root("plan_json"), err))
		return cleanupplan.Plan{}, false
	}
	return p, true
}

func sumRanges(ranges []cleanup.Range) int64 {
	var n int64
	for _, rg := range ranges {
		n += rg.To - rg.From
	}
	return n
}
