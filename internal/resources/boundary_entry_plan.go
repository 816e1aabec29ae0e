package resources

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// entryPlanning is one boundary being planned: what the configuration and
// the state say, and what is still to be read from Kafka.
type entryPlanning struct {
	entryRules
	// at is the entry's attribute path (the root for the single resource).
	at         path.Path
	prior      *boundaryEntry // nil when the boundary is new
	configured boundaryEntry  // the configuration's values
	// facts is what the refresh read (boundary_entry_facts.go), the source
	// of the review when there is a prior state; nil otherwise.
	facts *entryFacts
	// plan is the plan to preview against the live topics, once parsed.
	plan cleanupplan.Plan
	// next says what planLive has to do.
	next entryNext
	// target is the effective boundary the apply completes (the plan, or a
	// higher one already recorded), once previewed; nil when unknown.
	target cleanupplan.Offsets
}

type entryNext int

const (
	entryDone    entryNext = iota // planned from the configuration and state alone
	entryPreview                  // preview plan against the live topics
	entryLookup                   // no plan given: ask the control topic what it records
)

// planStatic plans what the configuration and the state decide without
// Kafka; e holds the proposed values and becomes the planned ones.
// planLive finishes what it leaves (entryPreview, entryLookup), side by
// side with the other entries.
func (pl *entryPlanning) planStatic(clients *providerdata.Clients, e *boundaryEntry, diags *diag.Diagnostics) {
	pl.next = entryDone
	e.PlanJSON = pl.configured.PlanJSON
	if e.PlanJSON.IsUnknown() {
		// Unknown until apply: so is everything it decides.
		e.PlanID, e.Status, e.ControlTopicID = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
		e.RecordsToDelete, e.Partitions, e.CleanupEnabled = types.Int64Unknown(), types.MapUnknown(types.StringType), types.BoolUnknown()
		if pl.configured.ActionStateTopic.IsNull() {
			e.ActionStateTopic = types.StringUnknown()
		}
		if latched(pl.prior) {
			e.CleanupEnabled = types.BoolValue(true)
		}
		return
	}
	if e.PlanJSON.IsNull() {
		// No plan this run (a skipped point, a job with no new checkpoint):
		// keep the one in state; with none, ask the control topic.
		if pl.prior != nil && !pl.prior.PlanJSON.IsNull() {
			e.PlanJSON = pl.prior.PlanJSON
		} else {
			pl.next = entryLookup
			return
		}
	}
	p, err := cleanupplan.Parse([]byte(e.PlanJSON.ValueString()))
	if err != nil {
		pl.refuse(e, nil, diagnostics.MalformedPlan(pl.at.AtName("plan_json"), err), diags)
		return
	}
	pl.planKnown(clients, e, p, diags)
}

// who names the boundary for a diagnostic about another one.
func (pl *entryPlanning) who() string {
	if pl.at.Equal(path.Empty()) {
		return "a flinkagents_cleanup_boundary"
	}
	return fmt.Sprintf("%s of a flinkagents_cleanup_boundaries", pl.at)
}

// planKnown plans a boundary whose plan p is known.
func (pl *entryPlanning) planKnown(clients *providerdata.Clients, e *boundaryEntry, p cleanupplan.Plan, diags *diag.Diagnostics) {
	e.PlanID = types.StringValue(p.ID())
	switch bound := pl.configured.ActionStateTopic; {
	case bound.IsUnknown():
	case bound.IsNull():
		e.ActionStateTopic = types.StringValue(p.Topic)
	case bound.ValueString() != p.Topic:
		pl.refuse(e, nil, diagnostics.PlanCleansAnotherTopic(pl.at.AtName("plan_json"), p.Topic, bound.ValueString()), diags)
		return
	}
	if !e.ControlTopic.IsUnknown() && clients != nil {
		// One history per control topic: two boundaries would fence each
		// other's writes on every run.
		this := diagnostics.BoundaryRef{Who: pl.who(), PlanID: p.ID(), Source: p.SourceRecoveryPoint}
		if other, clash := clients.ClaimControlTopic(e.ControlTopic.ValueString(), this); clash {
			pl.refuse(e, nil, diagnostics.TwoBoundariesOneControlTopic(e.ControlTopic.ValueString(), this, other), diags)
			return
		}
	}
	if unchanged(pl.prior, *e) {
		// Nothing to do: keep what was read and reviewed, so nothing shows.
		e.ControlTopicID, e.Status, e.RecordsToDelete, e.Partitions, e.CleanupEnabled =
			pl.prior.ControlTopicID, pl.prior.Status, pl.prior.RecordsToDelete, pl.prior.Partitions, pl.prior.CleanupEnabled
		return
	}
	pl.plan = p
	pl.pending(e)
	if !e.ControlTopic.IsUnknown() {
		pl.next = entryPreview
	}
}

// pending plans e as a boundary the apply will record and delete below:
// the review unknown until the preview fills it.
func (pl *entryPlanning) pending(e *boundaryEntry) {
	e.RecordsToDelete = types.Int64Unknown()
	e.Partitions = types.MapUnknown(types.StringType)
	e.ControlTopicID = types.StringUnknown()
	if pl.prior != nil && pl.prior.ControlTopic.Equal(e.ControlTopic) && !pl.prior.ControlTopicID.IsNull() {
		// The ID the refresh read: an apply must find the control topic
		// reviewed, not one recreated since.
		e.ControlTopicID = pl.prior.ControlTopicID
	}
	if pl.deferOutcome {
		e.Status = types.StringUnknown()
		e.CleanupEnabled = types.BoolUnknown()
		if latched(pl.prior) {
			e.CleanupEnabled = types.BoolValue(true)
		}
		return
	}
	e.Status = types.StringValue(string(cleanupplan.StatusApplied))
	e.CleanupEnabled = types.BoolValue(true)
}

// refuse holds e (REFUSED) with a warning, or reports an error, for refusal
// d. pv, when the control topic was read, says whether it holds a boundary.
func (pl *entryPlanning) refuse(e *boundaryEntry, pv *cleanup.Preview, d diag.Diagnostic, diags *diag.Diagnostics) {
	pl.next = entryDone
	pl.report(d, diags)
	if !pl.hold {
		return
	}
	if e.PlanJSON.IsNull() || e.PlanJSON.IsUnknown() {
		e.PlanID = types.StringNull()
	} else if p, err := cleanupplan.Parse([]byte(e.PlanJSON.ValueString())); err == nil {
		e.PlanID = types.StringValue(p.ID())
	} else {
		e.PlanID = types.StringNull()
	}
	if e.ActionStateTopic.IsUnknown() {
		e.ActionStateTopic = types.StringNull()
	}
	e.Status = types.StringValue(statusRefused)
	e.RecordsToDelete = types.Int64Value(0)
	e.Partitions = noPartitions()
	if p, err := cleanupplan.Parse([]byte(e.PlanJSON.ValueString())); err == nil && !e.PlanJSON.IsNull() && !e.PlanJSON.IsUnknown() {
		// What the refused change would delete, by the refresh's facts: the
		// same review whether the refusal is seen at plan time or only when
		// Terraform plans again at apply (nothing is deleted either way).
		pl.reviewFromFacts(e, p)
	}
	e.ControlTopicID = types.StringNull()
	if pl.prior != nil && pl.prior.ControlTopic.Equal(e.ControlTopic) {
		e.ControlTopicID = pl.prior.ControlTopicID
	}
	e.CleanupEnabled = types.BoolValue(latched(pl.prior) || (pv != nil && len(pv.Boundary) > 0))
}

// planLive finishes planning e against the live topics through kafka, as
// planStatic left it. Without kafka (the provider's connection is not known
// until apply) what it would read stays unknown.
func (pl *entryPlanning) planLive(ctx context.Context, clients *providerdata.Clients, kafka *kafkaops.Client, e *boundaryEntry, diags *diag.Diagnostics) {
	if kafka == nil {
		if pl.next == entryLookup {
			pl.configured.PlanJSON = planJSONValue{StringValue: types.StringUnknown()}
			pl.planStatic(clients, e, diags)
		}
		return
	}
	switch pl.next {
	case entryPreview:
		pl.preview(ctx, clients, kafka, e, diags)
	case entryLookup:
		pl.lookup(ctx, clients, kafka, e, diags)
	}
}

// preview fills the review (records_to_delete, partitions) from the live
// topics, and refuses at plan time what the apply would refuse. A control
// topic that does not exist yet (created in the same apply) leaves the
// review unknown, and so does a fleet's new entry (below).
func (pl *entryPlanning) preview(ctx context.Context, clients *providerdata.Clients, kafka *kafkaops.Client, e *boundaryEntry, diags *diag.Diagnostics) {
	p, control := pl.plan, e.ControlTopic.ValueString()
	pv, err := cleanup.PreviewApply(ctx, kafka, p, control)
	if errors.Is(err, kafkaops.ErrTopicNotFound) {
		tflog.Info(ctx, "cleanup boundary preview unknown: the control topic does not exist yet", map[string]any{"control_topic": control, "error": err.Error()})
		return
	}
	if err != nil {
		pl.refuse(e, &pv, clients.CleanupDiag(fmt.Sprintf("checking cleanup boundary %s in control topic %q", p.ID(), control), err), diags)
		return
	}
	if pl.prior == nil && len(pv.GonePast) > 0 {
		// With a prior state the refresh has said so already.
		pl.report(diagnostics.RecordsGonePastBoundary(p.Topic, pv.GonePast), diags)
	}
	fromFacts := pl.reviewFromFacts(e, p)
	if !fromFacts && pl.hold && pl.prior == nil && !pl.configured.PlanJSON.IsNull() {
		// A new entry of a fleet, given its plan, has no refresh behind it,
		// and Terraform plans it again at apply from the configuration
		// alone: a review read live now would be read live again then, and
		// a topic recreated in between would make the two differ, which
		// fails the apply of every entry ("inconsistent final plan"). Left
		// unknown, the entry is refused alone at apply, with the others
		// advancing. The checks above still refuse now what the apply would
		// refuse. (An entry adopting the plan its control topic records,
		// lookup, has a plan_json read live too: the review does not make
		// it any steadier, and it stays shown.)
		return
	}
	if e.ControlTopicID.IsUnknown() {
		e.ControlTopicID = types.StringValue(pv.ControlTopicID)
	}
	if fromFacts {
		return
	}
	e.RecordsToDelete = types.Int64Value(pv.RecordsToDelete)
	e.Partitions = tfconv.PartitionSummaries(p.Offsets, pv.Target, pv.Ranges, pv.GonePast)
	pl.target = pv.Target
}

// reviewFromFacts fills e's review of plan p from what the refresh read,
// when it read this topic: the plan Terraform makes again at apply time
// then shows the same review, whatever happened in Kafka since (the apply
// checks that again).
func (pl *entryPlanning) reviewFromFacts(e *boundaryEntry, p cleanupplan.Plan) bool {
	if pl.facts == nil {
		return false
	}
	target, records, partitions, ok := pl.facts.review(p)
	if !ok {
		return false
	}
	e.RecordsToDelete, e.Partitions, pl.target = types.Int64Value(records), partitions, target
	return true
}

// lookup plans a boundary given no plan and holding none in state: the
// plan the control topic records, if any, is adopted (as an import would),
// else the boundary is NONE.
func (pl *entryPlanning) lookup(ctx context.Context, clients *providerdata.Clients, kafka *kafkaops.Client, e *boundaryEntry, diags *diag.Diagnostics) {
	control := e.ControlTopic.ValueString()
	none := func(controlID types.String, recorded bool) {
		e.PlanJSON, e.PlanID = planJSONValue{StringValue: types.StringNull()}, types.StringNull()
		if e.ActionStateTopic.IsUnknown() {
			e.ActionStateTopic = types.StringNull()
		}
		e.ControlTopicID = controlID
		e.Status = types.StringValue(statusNone)
		e.RecordsToDelete = types.Int64Value(0)
		e.Partitions = noPartitions()
		e.CleanupEnabled = types.BoolValue(latched(pl.prior) || recorded)
	}
	// Terraform plans this again when it applies, with the same state, and
	// requires every value known now to come out the same. What a control
	// topic created in this apply records can only be read then, and that
	// read can fail (a broker slow to show 2,000 new topics): planned NONE,
	// any other answer would end the whole apply in "inconsistent final
	// plan". So the status is left to the apply; plan_json stays null (no
	// plan was given, so nothing is deleted and the review is empty).
	later := func() {
		none(types.StringUnknown(), false)
		e.Status = types.StringUnknown()
		if !latched(pl.prior) {
			e.CleanupEnabled = types.BoolUnknown()
		}
	}
	// A boundary already NONE in state stays NONE when the read fails, so
	// the plan and the apply's plan agree whatever each read meets.
	wasNone := pl.prior != nil && pl.prior.Status.ValueString() == statusNone && pl.prior.ControlTopic.Equal(e.ControlTopic)
	if e.ControlTopic.IsUnknown() {
		later()
		return
	}
	log, described, err := historyOfNewTopic(ctx, kafka, control)
	switch {
	case errors.Is(err, kafkaops.ErrTopicNotFound) && wasNone:
		none(pl.prior.ControlTopicID, false)
		return
	case errors.Is(err, kafkaops.ErrTopicNotFound):
		later() // created in this apply, which reads it
		return
	case err != nil && pl.hold:
		pl.report(noPlanReadFailed(clients, control, err), diags)
		if wasNone {
			none(pl.prior.ControlTopicID, false)
		} else {
			none(types.StringUnknown(), false)
		}
		return
	case err != nil:
		pl.refuse(e, nil, noPlanReadFailed(clients, control, err), diags)
		return
	}
	latest, ok := log.Latest()
	if !ok {
		none(types.StringValue(described.ID.String()), false)
		return
	}
	e.PlanJSON = newPlanJSON(string(latest.Plan.File()))
	pl.planKnown(clients, e, latest.Plan, diags)
	if pl.next == entryPreview {
		pl.preview(ctx, clients, kafka, e, diags)
	}
}

// noPlanReadFailed is the diagnostic of a failed read of the control topic
// of a boundary with no plan, at plan or at apply.
func noPlanReadFailed(clients *providerdata.Clients, control string, err error) diag.Diagnostic {
	return clients.CleanupDiag(fmt.Sprintf("reading control topic %q of a cleanup boundary with no plan", control), err)
}
