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
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
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
	kafka, diags := r.clients.KafkaClient(ctx, fmt.Sprintf("reading cleanup boundaries from control topic %q", control))
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	rd, ok := refreshBoundary(ctx, r.clients, kafka, control, state.PlanID.ValueString(), state.ControlTopicID, state.Topic.ValueString(), &resp.Diagnostics)
	switch {
	case !ok:
		return
	case rd.gone:
		resp.State.RemoveResource(ctx)
		return
	}
	state.ID = types.StringValue(control)
	state.ControlTopicID, state.Status = rd.controlTopicID, rd.status // a state from before control_topic_id learns it here
	if rd.compared {
		state.RecordsToDelete, state.Partitions = rd.recordsToDelete, rd.partitions
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// boundaryRefresh is what a refresh learns of one recorded boundary.
type boundaryRefresh struct {
	gone            bool // the control topic no longer exists (warned)
	controlTopicID  types.String
	status          types.String
	compared        bool // recordsToDelete and partitions were read
	recordsToDelete types.Int64
	partitions      types.Map
}

// refreshBoundary reads back the boundary of plan planID from its control
// topic and the topic's start offsets, for flinkagents_cleanup_boundary and
// each entry of flinkagents_cleanup_boundaries: its status, and what an
// apply would delete now, so that a boundary advanced elsewhere or records
// readable again show. ok is false on an error (in diags).
func refreshBoundary(ctx context.Context, clients *providerdata.Clients, kafka *kafkaops.Client, control, planID string,
	recordedID types.String, topic string, diags *diag.Diagnostics) (boundaryRefresh, bool) {
	ins, err := cleanup.Inspect(ctx, kafka, control)
	if errors.Is(err, kafkaops.ErrTopicNotFound) {
		diags.Append(diagnostics.ControlTopicMissing(control))
		return boundaryRefresh{gone: true}, true
	}
	if err != nil {
		diags.Append(clients.CleanupDiag(fmt.Sprintf("reading cleanup boundaries from control topic %q", control), err))
		return boundaryRefresh{}, false
	}
	log := ins.Log
	if !recordedID.IsNull() && !recordedID.IsUnknown() && recordedID.ValueString() != ins.ControlTopicID {
		diags.Append(diagnostics.ControlTopicRecreated(control, recordedID.ValueString(), ins.ControlTopicID))
	}
	rd := boundaryRefresh{controlTopicID: types.StringValue(ins.ControlTopicID), status: types.StringValue(statusNotRecorded)}
	recorded, isRecorded := log.Lookup(planID)
	if isRecorded {
		rd.status = types.StringValue(string(recorded.Status))
	}
	if ins.Uncompared != nil {
		diags.Append(diagnostics.HistoryNotCompared(control, ins.Uncompared))
	}
	if ins.Uncompared == nil && len(ins.Remaining) > 0 && recorded.Status == cleanupplan.StatusApplied {
		// The recorded APPLIED no longer holds: show the deletion as
		// pending, so the plan proposes it and apply performs it again.
		rd.status = types.StringValue(statusDeletionPending)
		diags.Append(diagnostics.RecordsBelowAppliedBoundary(control, topic, ins.Remaining))
	}
	if isRecorded && ins.Uncompared == nil {
		rd.compared = true
		rd.recordsToDelete = types.Int64Value(sumRanges(ins.Remaining))
		rd.partitions = tfconv.PartitionSummaries(recorded.Plan.Offsets, log.Boundary(), ins.Remaining, ins.GonePast)
	}
	if len(ins.GonePast) > 0 {
		diags.Append(diagnostics.RecordsGonePastBoundary(topic, ins.GonePast))
	}
	return rd, true
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
	res, ok := applyBoundary(ctx, r.clients, kafka, p, control, plan.ControlTopicID.ValueString(), plan.ActionStateTopic.ValueString(), diags)
	if !ok {
		return
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

// applyBoundary runs the commit-then-delete protocol for plan p through
// control, for flinkagents_cleanup_boundary and each entry of
// flinkagents_cleanup_boundaries; controlID is "" when unknown at plan time
// (Apply learns it), expectedTopic "" when not bound. ok is false on an
// error (in diags).
func applyBoundary(ctx context.Context, clients *providerdata.Clients, kafka *kafkaops.Client, p cleanupplan.Plan,
	control, controlID, expectedTopic string, diags *diag.Diagnostics) (cleanup.Result, bool) {
	res, err := cleanup.Apply(ctx, kafka, cleanup.Request{
		Plan:           p,
		ControlTopic:   control,
		ControlTopicID: controlID,
		ExpectedTopic:  expectedTopic,
		Progress: func(step string, fields map[string]any) {
			tflog.Info(ctx, "cleanup: "+step, fields)
		},
	})
	if err != nil {
		diags.Append(clients.CleanupDiag(fmt.Sprintf("applying cleanup plan %s to topic %q through control topic %q", p.ID(), p.Topic, control), err))
		return res, false
	}
	if res.Redeleted {
		tflog.Warn(ctx, "cleanup: records below the APPLIED boundary were readable again and were deleted again", map[string]any{"plan_id": p.ID()})
	}
	for _, rg := range res.Deleted {
		tflog.Info(ctx, "cleanup: deleted records", map[string]any{"topic": p.Topic, "partition": rg.Partition, "from": rg.From, "to": rg.To})
	}
	return res, true
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
