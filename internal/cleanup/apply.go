package cleanup

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/permissions"
)

// Request is one apply.
type Request struct {
	Plan         cleanupplan.Plan
	ControlTopic string
	// ExpectedTopic, when set, must equal the plan's topic (spec step 1).
	ExpectedTopic string
	// ControlTopicID, when set, must be the control topic's ID: a control
	// topic recreated since the caller last read it holds none of the
	// recorded boundaries, and is refused before anything is written.
	ControlTopicID string
	// Progress, when set, is told each step as it starts (for logs).
	Progress func(step string, fields map[string]any)
}

// Range is the part of one partition an apply deleted: [From, To).
type Range struct {
	Partition int32
	From, To  int64
}

// Result of a successful Apply: the plan is APPLIED.
type Result struct {
	PlanID string
	// AlreadyApplied: the plan was APPLIED before this call; nothing was
	// written or deleted.
	AlreadyApplied bool
	// Resumed: the plan was already COMMITTED (an earlier apply stopped
	// between commit and APPLIED) and this call finished it.
	Resumed bool
	// Redeleted: the plan was APPLIED, but records below the recorded
	// boundary were readable again (a broker that crashed before persisting
	// its log start offset, or an APPLIED record written without a
	// deletion), so this call deleted them again.
	Redeleted bool
	// Target is the effective boundary deleted up to (it can exceed the
	// plan where an earlier, further plan is COMMITTED).
	Target cleanupplan.Offsets
	// Deleted lists partitions whose start offset moved, with the range.
	Deleted []Range
	// ControlTopicID is the ID of the control topic the plan is recorded in.
	ControlTopicID string
}

// Apply runs the commit-then-delete protocol of the spec, steps 1 to 8, and
// returns once the plan is APPLIED. Any failure leaves a state from which
// calling Apply again with the same plan converges; no DeleteRecords ever
// asks for an offset that is not already durably COMMITTED.
func Apply(ctx context.Context, k Kafka, req Request) (Result, error) {
	a := applier{k: k, req: req, plan: req.Plan, id: req.Plan.ID()}
	res, err := a.run(ctx)
	outcome := nothingChanged
	switch {
	case a.committed:
		outcome = "The plan is COMMITTED, so the runtime already enforces it; grant the permission and re-run apply to finish"
	case a.appending:
		outcome = "The COMMITTED record may have landed; once the permission is granted, the next apply resumes from it or commits anew"
	}
	return res, explainRefusal(err, permissions.Input{ActionStateTopic: a.plan.Topic, ControlTopic: req.ControlTopic}, outcome)
}

type applier struct {
	k    Kafka
	req  Request
	plan cleanupplan.Plan
	id   string
	// committed: the plan is recorded in the control topic (found there,
	// or appended by this apply), so a later failure leaves it in force.
	committed bool
	// appending: this apply began appending COMMITTED; until the commit
	// returns, whether it landed is unknown.
	appending bool
	// controlID is the control topic's ID every append must still find.
	controlID string
}

func (a *applier) step(name string, fields map[string]any) {
	if a.req.Progress != nil {
		if fields == nil {
			fields = map[string]any{}
		}
		fields["plan_id"] = a.id
		fields["topic"] = a.plan.Topic
		fields["control_topic"] = a.req.ControlTopic
		a.req.Progress(name, fields)
	}
}

func (a *applier) run(ctx context.Context) (Result, error) {
	res := Result{PlanID: a.id}

	// Step 1: the plan cleans the topic the caller bound.
	if a.req.ExpectedTopic != "" && a.req.ExpectedTopic != a.plan.Topic {
		return res, fmt.Errorf("%w: plan %s cleans topic %q but this boundary is bound to %q; derive the plan from this job's checkpoint",
			ErrTopicMismatch, a.id, a.plan.Topic, a.req.ExpectedTopic)
	}
	control, err := describeControlTopic(ctx, a.k, a.req.ControlTopic, a.plan.Topic)
	if err != nil {
		return res, err
	}
	a.controlID = control.ID.String()
	if a.req.ControlTopicID != "" && a.controlID != a.req.ControlTopicID {
		return res, fmt.Errorf("%w: control topic %q now has ID %s but this boundary recorded ID %s; it was deleted and recreated, "+
			"so it holds none of the boundaries recorded before. Nothing was written or deleted",
			ErrControlTopicIDChanged, a.req.ControlTopic, a.controlID, a.req.ControlTopicID)
	}
	res.ControlTopicID = a.controlID
	// Steps 2 and 3: identity and settings of the data topic.
	a.step("check action-state topic", nil)
	if err := a.checkTopic(ctx); err != nil {
		return res, err
	}

	// Step 4: the recorded history belongs to this topic and is a chain.
	a.step("read control topic", nil)
	log, err := a.readHistory(ctx)
	if err != nil {
		return res, err
	}

	// Step 5: a plan seen before is finished or resumed, never re-planned.
	op, recorded := log.Lookup(a.id)
	a.committed = recorded
	switch {
	case recorded && !op.Plan.Equal(a.plan):
		return res, fmt.Errorf("%w: plan ID %s is recorded with different contents", cleanupplan.ErrCorruptControlLog, a.id)
	case recorded && op.Status == cleanupplan.StatusApplied:
		// APPLIED is a claim about the past; the topic says whether it still
		// holds. Kafka persists a log start offset only periodically, so a
		// broker crash soon after DeleteRecords brings deleted records back.
		starts, err := a.k.StartOffsets(ctx, a.plan.Topic)
		if err != nil {
			return res, err
		}
		remain := Remaining(log.Boundary(), starts)
		if len(remain) == 0 {
			res.AlreadyApplied = true
			res.Target = log.Boundary()
			return res, nil
		}
		a.step("records below the APPLIED boundary are readable again: deleting them again", map[string]any{"partitions": len(remain)})
		res.Redeleted = true
	case recorded:
		res.Resumed = true
	default:
		// Fail fast on a backward move; commit re-checks inside its
		// transaction.
		if err := a.plan.AdvancesOrEquals(log.Boundary()); err != nil {
			return res, fmt.Errorf("control topic %q: %w", a.req.ControlTopic, err)
		}
		if err := a.commit(ctx); err != nil {
			return res, err
		}
		a.committed = true
	}

	// Step 7: delete up to the effective boundary as recorded now, never
	// up to anything merely in memory.
	log, err = a.readHistory(ctx)
	if err != nil {
		return res, err
	}
	if op, ok := log.Lookup(a.id); !ok || !op.Plan.Equal(a.plan) {
		return res, fmt.Errorf("%w: plan %s was acknowledged but is not in control topic %q on re-read; nothing was deleted",
			cleanupplan.ErrCorruptControlLog, a.id, a.req.ControlTopic)
	}
	res.Target = log.Boundary()
	if err := a.checkTopic(ctx); err != nil {
		return res, err
	}
	before, err := a.k.StartOffsets(ctx, a.plan.Topic)
	if err != nil {
		return res, err
	}
	// Only partitions that start below the target have anything to delete
	// (records elsewhere may even be gone past the boundary).
	pending := Remaining(res.Target, before)
	upTo := cleanupplan.Offsets{}
	for _, r := range pending {
		upTo[r.Partition] = r.To
	}
	a.step("delete records", map[string]any{"partitions": len(upTo)})
	if len(upTo) > 0 {
		if _, err := a.k.DeleteRecords(ctx, a.plan.Topic, upTo); err != nil {
			return res, fmt.Errorf("deleting records of %q below the COMMITTED boundary (the boundary stands; re-run apply to finish): %w", a.plan.Topic, err)
		}
	}
	after, err := a.k.StartOffsets(ctx, a.plan.Topic)
	if err != nil {
		return res, err
	}
	for _, p := range res.Target.Partitions() {
		if after[p] < res.Target[p] {
			return res, fmt.Errorf("%w: partition %d of %q starts at %d after DeleteRecords up to %d; re-run apply",
				ErrDeleteNotEffective, p, a.plan.Topic, after[p], res.Target[p])
		}
	}
	res.Deleted = pending
	if err := a.checkTopic(ctx); err != nil {
		return res, err
	}

	// Step 8: every plan still COMMITTED is now physically applied.
	if err := a.markApplied(ctx, res.Target); err != nil {
		return res, err
	}
	return res, nil
}

// commit is step 6 in a transaction. Registering as the control topic's
// transactional producer fences any concurrent applier first; the history
// is then re-read and everything re-validated, so no other applier's plan
// can land between this validation and this append. The COMMITTED record,
// once the transaction commits, is the point of no return.
func (a *applier) commit(ctx context.Context) error {
	return a.inTxn(ctx, "for plan "+a.id+" (nothing was written or deleted; re-run apply)", func(txn kafkaops.ControlTxn, log *cleanupplan.Log) (bool, error) {
		if _, ok := log.Lookup(a.id); ok {
			return false, nil // another applier recorded this very plan meanwhile: resume it
		}
		if err := a.plan.AdvancesOrEquals(log.Boundary()); err != nil {
			return false, fmt.Errorf("control topic %q: %w", a.req.ControlTopic, err)
		}
		a.step("check offsets are available", nil)
		data, err := a.checkOffsetsAvailable(ctx)
		if err != nil {
			return false, err
		}
		if err := a.checkSettings(ctx); err != nil {
			return false, err
		}
		if err := a.checkPermissions(ctx, data); err != nil {
			return false, err
		}
		a.step("append COMMITTED", nil)
		a.appending = true
		key, value := cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, a.plan)
		if err := txn.Append(ctx, key, value); err != nil {
			return false, fmt.Errorf("recording plan %s as COMMITTED in %q (nothing was deleted; re-run apply): %w", a.id, a.req.ControlTopic, err)
		}
		return true, nil
	})
}

// markApplied records APPLIED, in one transaction, for every plan still
// COMMITTED whose offsets the deletion up to target covered. A plan another
// applier committed after this one's deletion stays COMMITTED for its own
// apply to finish.
func (a *applier) markApplied(ctx context.Context, target cleanupplan.Offsets) error {
	return a.inTxn(ctx, "to record APPLIED (records are deleted; re-run apply to record it)", func(txn kafkaops.ControlTxn, log *cleanupplan.Log) (bool, error) {
		appended := false
		for _, op := range log.Operations() {
			if op.Status != cleanupplan.StatusCommitted || !covers(target, op.Plan.Offsets) {
				continue
			}
			a.step("append APPLIED", map[string]any{"applied_plan_id": op.PlanID})
			key, value := cleanupplan.EncodeRecord(cleanupplan.StatusApplied, op.Plan)
			if err := txn.Append(ctx, key, value); err != nil {
				return false, fmt.Errorf("recording plan %s as APPLIED in %q (records are deleted; re-run apply to record it): %w", op.PlanID, a.req.ControlTopic, err)
			}
			appended = true
		}
		return appended, nil
	})
}

// inTxn runs fn inside a control-topic transaction, with the history read
// after the transaction fenced every earlier applier; it commits when fn
// appended something and aborts otherwise. why completes the messages.
func (a *applier) inTxn(ctx context.Context, why string, fn func(kafkaops.ControlTxn, *cleanupplan.Log) (appended bool, err error)) error {
	txn, err := a.k.BeginControlTxn(ctx, a.req.ControlTopic)
	if err != nil {
		return fmt.Errorf("starting a transaction on control topic %q %s: %w", a.req.ControlTopic, why, err)
	}
	log, err := a.readHistory(ctx)
	if err == nil {
		err = a.checkControlTopicID(ctx)
	}
	appended := false
	if err == nil {
		appended, err = fn(txn, log)
	}
	if err != nil || !appended {
		txn.Abort(ctx)
		return err
	}
	if err := txn.Commit(ctx); err != nil {
		return fmt.Errorf("committing the transaction on control topic %q %s (if the commit landed, the next apply resumes from it): %w", a.req.ControlTopic, why, err)
	}
	return nil
}

// checkControlTopicID re-verifies, inside a transaction and before its
// appends, that the control topic is still the one the apply began with:
// appends go by name and would land in a recreated topic.
func (a *applier) checkControlTopicID(ctx context.Context) error {
	t, err := a.k.DescribeTopic(ctx, a.req.ControlTopic)
	if err != nil {
		return err
	}
	if got := t.ID.String(); got != a.controlID {
		return fmt.Errorf("%w: control topic %q had ID %s when this apply began and has ID %s now; it was deleted and recreated during the apply. "+
			"Nothing was appended to it",
			ErrControlTopicIDChanged, a.req.ControlTopic, a.controlID, got)
	}
	return nil
}

// covers reports whether every offset of o is at or below target.
func covers(target, o cleanupplan.Offsets) bool {
	for p, off := range o {
		if off > target[p] {
			return false
		}
	}
	return true
}

// checkPermissions takes the data topic as just described by the identity
// check, so only the control topic needs asking.
func (a *applier) checkPermissions(ctx context.Context, data kafkaops.Topic) error {
	control, err := a.k.DescribeTopic(ctx, a.req.ControlTopic)
	if err != nil {
		return err
	}
	return checkPermissions(data, control)
}

func (a *applier) readHistory(ctx context.Context) (*cleanupplan.Log, error) {
	log, err := readHistory(ctx, a.k, a.req.ControlTopic)
	if err != nil {
		return nil, err
	}
	if err := log.ValidateFor(a.plan.Topic, a.plan.TopicID, a.plan.Offsets); err != nil {
		return nil, fmt.Errorf("control topic %q: %w", a.req.ControlTopic, err)
	}
	return log, nil
}

// checkTopic re-verifies identity (topic ID, partition set) and settings.
func (a *applier) checkTopic(ctx context.Context) error {
	if _, err := checkIdentity(ctx, a.k, a.plan); err != nil {
		return err
	}
	return a.checkSettings(ctx)
}

// checkIdentity verifies that the plan's topic exists with the plan's topic
// ID and exactly the plan's partitions, and returns it as described.
func checkIdentity(ctx context.Context, k Kafka, plan cleanupplan.Plan) (kafkaops.Topic, error) {
	t, err := k.DescribeTopic(ctx, plan.Topic)
	if err != nil {
		if errors.Is(err, kafkaops.ErrTopicNotFound) {
			return t, fmt.Errorf("%w: action-state topic %q no longer exists (plan %s expects topic ID %s); nothing was deleted: %w",
				ErrTopicIDChanged, plan.Topic, plan.ID(), plan.TopicID, err)
		}
		return t, err
	}
	if got := t.ID.String(); got != plan.TopicID {
		return t, fmt.Errorf("%w: topic %q now has ID %s but the plan was made for ID %s; the topic was deleted and recreated, so the plan's offsets do not describe it. Nothing was deleted",
			ErrTopicIDChanged, plan.Topic, got, plan.TopicID)
	}
	want := plan.Offsets.Partitions()
	if !slices.Equal(t.Partitions, want) {
		return t, fmt.Errorf("%w: topic %q has %d partitions %s but the plan covers %d; nothing was deleted",
			ErrPartitionSetChanged, plan.Topic, len(t.Partitions), shortList(t.Partitions), len(want))
	}
	return t, nil
}

func (a *applier) checkSettings(ctx context.Context) error {
	cfg, err := a.k.TopicConfigs(ctx, a.plan.Topic)
	if err != nil {
		return err
	}
	return checkDataTopicSettings(a.plan.Topic, cfg)
}

// checkOffsetsAvailable requires start <= plan[p] <= end for every
// partition, with the topic's identity checked on both sides of the lookup
// so the offsets are known to belong to the plan's topic incarnation. It
// returns the topic as the second identity check described it.
func (a *applier) checkOffsetsAvailable(ctx context.Context) (kafkaops.Topic, error) {
	if _, err := checkIdentity(ctx, a.k, a.plan); err != nil {
		return kafkaops.Topic{}, err
	}
	starts, err := a.k.StartOffsets(ctx, a.plan.Topic)
	if err != nil {
		return kafkaops.Topic{}, err
	}
	ends, err := a.k.EndOffsets(ctx, a.plan.Topic)
	if err != nil {
		return kafkaops.Topic{}, err
	}
	t, err := checkIdentity(ctx, a.k, a.plan)
	if err != nil {
		return t, err
	}
	_, err = offsetsAvailable(a.plan, starts, ends)
	return t, err
}

// offsetsAvailable checks each plan offset against its partition: above
// the end (the high watermark) it cannot come from this topic's history,
// and the plan is refused. Below the start it can: records were deleted
// past it out of band (retention set by hand, a manual DeleteRecords);
// recording the boundary is still right, and those partitions are
// returned as gone, [plan offset, start), for the caller to warn about.
func offsetsAvailable(plan cleanupplan.Plan, starts, ends map[int32]int64) (gone []Range, err error) {
	for _, p := range plan.Offsets.Partitions() {
		off := plan.Offsets[p]
		start, okS := starts[p]
		end, okE := ends[p]
		if !okS || !okE {
			return nil, fmt.Errorf("%w: partition %d of %q was not answered when listing offsets", ErrOffsetOutOfRange, p, plan.Topic)
		}
		if off > end {
			return nil, fmt.Errorf("%w: plan %s asks for offset %d on partition %d of %q, but the partition's records end at offset %d; "+
				"the plan does not come from this topic's history. Nothing was written or deleted",
				ErrOffsetOutOfRange, plan.ID(), off, p, plan.Topic, end)
		}
		if off < start {
			gone = append(gone, Range{Partition: p, From: off, To: start})
		}
	}
	return gone, nil
}

// Remaining lists, per partition, the records below boundary that the
// topic still holds: [start, boundary) where start < boundary.
func Remaining(boundary cleanupplan.Offsets, starts map[int32]int64) []Range {
	var out []Range
	for _, p := range boundary.Partitions() {
		if s, ok := starts[p]; ok && s < boundary[p] {
			out = append(out, Range{Partition: p, From: s, To: boundary[p]})
		}
	}
	return out
}

// GonePast lists, per partition, records at or above boundary that were
// deleted without a boundary covering them: [boundary, start) where
// start > boundary. A restore from a checkpoint whose marker lies in that
// range cannot replay them.
func GonePast(boundary cleanupplan.Offsets, starts map[int32]int64) []Range {
	var out []Range
	for _, p := range boundary.Partitions() {
		if s, ok := starts[p]; ok && s > boundary[p] {
			out = append(out, Range{Partition: p, From: boundary[p], To: s})
		}
	}
	return out
}

func shortList(ps []int32) string {
	if len(ps) > 8 {
		return fmt.Sprintf("%v...", ps[:8])
	}
	return fmt.Sprint(ps)
}
