package cleanup

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// The runtime's rules as its newest cleanup code applies them, each where
// the provider used to be more lenient (spec/conformance.md lists them).

// refusedBoth runs the preview and the apply of plan and requires both to
// fail with want, with nothing written to the control topic and nothing
// deleted; it returns the apply's error.
func refusedBoth(t *testing.T, e *env, plan cleanupplan.Plan, control string, want error) error {
	t.Helper()
	ctx := context.Background()
	starts, ctlEnd := e.startOffsets(), e.controlEnd()
	if _, err := PreviewApply(ctx, e.kafka, plan, control); !errors.Is(err, want) {
		t.Fatalf("preview: err = %v, want %v", err, want)
	}
	spy := newSpy(e)
	_, err := Apply(ctx, spy, Request{Plan: plan, ControlTopic: control})
	if !errors.Is(err, want) {
		t.Fatalf("apply: err = %v, want %v", err, want)
	}
	spy.check()
	if spy.deletes != 0 || !maps.Equal(e.startOffsets(), starts) {
		t.Fatalf("a refused apply deleted records: start offsets %v -> %v", starts, e.startOffsets())
	}
	if after := e.controlEnd(); after != ctlEnd {
		t.Fatalf("a refused apply wrote to the control topic (end %d -> %d)", ctlEnd, after)
	}
	return err
}

// A control record with content after its JSON object is refused, as the
// runtime's reader (FAIL_ON_TRAILING_TOKENS) refuses it: an existing control
// topic holding one fails closed, naming the record's offset and what its
// object records; nothing is written or deleted.
func TestControlRecordWithTrailingContentFailsClosed(t *testing.T) {
	e := newEnv(t, 3, 10)
	ctx := context.Background()
	first := e.plan("chk-1", func(int32) int64 { return 2 })
	k, v := cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, first)
	_, err := e.appendControl(ctx, controlTopic, k, v)
	must(t, err)
	k, v = cleanupplan.EncodeRecord(cleanupplan.StatusApplied, first)
	_, err = e.appendControl(ctx, controlTopic, k, append(v, "garbage"...))
	must(t, err)

	err = refusedBoth(t, e, e.plan("chk-2", func(int32) int64 { return 5 }), controlTopic, cleanupplan.ErrUnreadableRecord)
	rec, _ := errors.AsType[*cleanupplan.RecordError](err)
	trailing, _ := errors.AsType[*cleanupplan.TrailingContentError](err)
	if rec == nil || rec.Offset != 1 || trailing == nil || trailing.Offset != len(v) || trailing.Record == nil ||
		trailing.Record.PlanID != first.ID() || trailing.Record.Status != cleanupplan.StatusApplied {
		t.Fatalf("err = %v: want the record at offset 1 named, with APPLIED %s before %d bytes of trailing content", err, first.ID(), len("garbage"))
	}
	// Re-applying the plan the record names stops there too: the runtime
	// cannot read this history, so no boundary in it can be trusted.
	_ = refusedBoth(t, e, first, controlTopic, cleanupplan.ErrUnreadableRecord)
	if _, err := Inspect(ctx, e.kafka, controlTopic); !errors.Is(err, cleanupplan.ErrUnreadableRecord) {
		t.Fatalf("inspect: err = %v", err)
	}
}

// A plan offset below its partition's log start is refused before
// anything is written, with the runtime's message: records the plan's
// recovery point needs were deleted out of band. So is one above the end.
func TestPlanOffsetOutsideTheAvailableRangeIsRefused(t *testing.T) {
	e := newEnv(t, 2, 10)
	must(t, deleteRecords(e, map[int32]int64{0: 8, 1: 3}))
	err := refusedBoth(t, e, e.plan("chk-1", func(int32) int64 { return 5 }), controlTopic, ErrOffsetOutOfRange)
	want := "Cannot commit Kafka cleanup boundary for " + dataTopic + "-0 at offset 5 because the available range is [8, 10]"
	ue, _ := errors.AsType[*UnavailableOffsetError](err)
	if ue == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "newer checkpoint") {
		t.Fatalf("err = %v, want the runtime's message %q and what to do", err, want)
	}
	err = refusedBoth(t, e, e.plan("chk-2", func(p int32) int64 { return 10 + int64(p) }), controlTopic, ErrOffsetOutOfRange)
	if want := "for " + dataTopic + "-1 at offset 11 because the available range is [3, 10]"; !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

// What the available-range rule must not refuse: offsets below the start
// because the protocol itself deleted up to a recorded boundary. A plan
// equal to the boundary (a savepoint at the same position), the re-apply
// of an APPLIED plan after a further plan deleted past it, and the resume
// of a COMMITTED plan all go through; a plan equal to the boundary after
// records above it were deleted out of band does not.
func TestAvailableRangeAllowsWhatTheProtocolDeleted(t *testing.T) {
	e := newEnv(t, 2, 10)
	ctx := context.Background()
	apply := func(p cleanupplan.Plan) Result {
		t.Helper()
		if _, err := PreviewApply(ctx, e.kafka, p, controlTopic); err != nil {
			t.Fatalf("preview of %s: %v", p.SourceRecoveryPoint, err)
		}
		res, err := Apply(ctx, e.kafka, Request{Plan: p, ControlTopic: controlTopic})
		if err != nil {
			t.Fatalf("apply of %s: %v", p.SourceRecoveryPoint, err)
		}
		return res
	}
	first := e.plan("chk-1", func(int32) int64 { return 4 })
	apply(first)
	same := e.plan("savepoint-1", func(int32) int64 { return 4 })
	if res := apply(same); len(res.Deleted) != 0 {
		t.Fatalf("a plan equal to the boundary deleted %v", res.Deleted)
	}
	further := e.plan("chk-2", func(int32) int64 { return 7 })
	apply(further)
	if res := apply(first); !res.AlreadyApplied {
		t.Fatalf("re-apply of an APPLIED plan below the start: %+v", res)
	}
	// A COMMITTED plan whose deletion another apply already did.
	resumed := e.plan("chk-3", func(int32) int64 { return 9 })
	k, v := cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, resumed)
	_, err := e.appendControl(ctx, controlTopic, k, v)
	must(t, err)
	must(t, deleteRecords(e, map[int32]int64{0: 9, 1: 9}))
	if res := apply(resumed); !res.Resumed {
		t.Fatalf("resume of a COMMITTED plan below the start: %+v", res)
	}
	// Out of band past the boundary: a new plan at the boundary would
	// record a recovery point that can no longer be restored.
	must(t, deleteRecords(e, map[int32]int64{1: 10}))
	_ = refusedBoth(t, e, e.plan("savepoint-2", func(int32) int64 { return 9 }), controlTopic, ErrOffsetOutOfRange)
}

// The control topic's cleanup.policy must be exactly "compact", as the
// runtime compares it: spaces or a repeated entry pass a set comparison
// but make the runtime refuse every restore.
func TestControlTopicPolicyMustBeExactlyCompact(t *testing.T) {
	for _, policy := range []string{" compact", "compact ", "compact,compact", "compact, compact"} {
		t.Run(policy, func(t *testing.T) {
			e := newEnv(t, 2, 10)
			ctx := context.Background()
			must(t, e.kafka.AlterTopicConfigs(ctx, controlTopic, map[string]string{ConfigCleanupPolicy: policy}, nil))
			err := refusedBoth(t, e, e.plan("chk-1", func(int32) int64 { return 5 }), controlTopic, ErrControlTopicMisconfigured)
			if !strings.Contains(err.Error(), `cleanup.policy="`+policy+`"`) || !strings.Contains(err.Error(), "exactly") {
				t.Fatalf("err = %v, want the configured value named", err)
			}
			if _, err := History(ctx, e.kafka, controlTopic); !errors.Is(err, ErrControlTopicMisconfigured) {
				t.Fatalf("reading the history: err = %v", err)
			}
		})
	}
	if !PolicySatisfies(ControlTopicPolicy, "compact") || PolicySatisfies(ControlTopicPolicy, "compact,delete") ||
		!PolicySatisfies(DataTopicSettings[ConfigCleanupPolicy], " delete,compact") {
		t.Fatal("PolicySatisfies")
	}
}

func deleteRecords(e *env, to map[int32]int64) error {
	_, err := e.kafka.DeleteRecords(context.Background(), e.data, kafkaops.TopicID{}, to) // out of band: no identity check
	return err
}

// driftAfter answers the data topic's configs truthfully n times, then as
// if someone set cleanup.policy back to "compact": the runtime checks the
// settings at the start, before the COMMITTED append, and before and after
// DeleteRecords, and so must an apply.
type driftAfter struct {
	Kafka
	topic string
	n     int
}

func (d *driftAfter) TopicConfigs(ctx context.Context, name string) (map[string]kafkaops.ConfigValue, error) {
	cfg, err := d.Kafka.TopicConfigs(ctx, name)
	if err != nil || name != d.topic {
		return cfg, err
	}
	if d.n--; d.n < 0 {
		cfg = maps.Clone(cfg)
		cfg[ConfigCleanupPolicy] = kafkaops.ConfigValue{Value: "compact"}
	}
	return cfg, nil
}

func TestDataTopicSettingsAreCheckedWhereTheRuntimeChecksThem(t *testing.T) {
	for _, c := range []struct {
		name            string
		truthful        int
		committed       bool
		deleted, marked bool
	}{
		{"at the start", 0, false, false, false},
		{"before the COMMITTED append", 1, false, false, false},
		{"before DeleteRecords", 2, true, false, false},
		{"after DeleteRecords", 3, true, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, 2, 10)
			ctx := context.Background()
			plan := e.plan("chk-1", func(int32) int64 { return 5 })
			_, err := Apply(ctx, &driftAfter{Kafka: e.kafka, topic: dataTopic, n: c.truthful}, Request{Plan: plan, ControlTopic: controlTopic})
			if !errors.Is(err, ErrDataTopicSettings) {
				t.Fatalf("err = %v, want %v", err, ErrDataTopicSettings)
			}
			op, recorded := e.history().Lookup(plan.ID())
			if recorded != c.committed || (recorded && (op.Status == cleanupplan.StatusApplied) != c.marked) {
				t.Fatalf("recorded %v (%+v), want recorded %v, APPLIED %v", recorded, op, c.committed, c.marked)
			}
			if s := e.startOffsets(); (s[0] == 5) != c.deleted {
				t.Fatalf("start offsets %v, want deleted %v", s, c.deleted)
			}
		})
	}
}

// deleteIgnored answers DeleteRecords as done without deleting anything,
// as a broker that lost the request after answering could.
type deleteIgnored struct{ Kafka }

func (deleteIgnored) DeleteRecords(_ context.Context, _ string, _ kafkaops.TopicID, upTo map[int32]int64) (map[int32]int64, error) {
	return upTo, nil
}

// After DeleteRecords every partition must start at or above the target,
// or the plan stays COMMITTED ("Kafka cleanup for %s requested offset %s
// but beginning offset is %s"); the next apply finishes it.
func TestDeletionIsVerifiedBeforeApplied(t *testing.T) {
	e := newEnv(t, 2, 10)
	ctx := context.Background()
	plan := e.plan("chk-1", func(int32) int64 { return 5 })
	_, err := Apply(ctx, deleteIgnored{e.kafka}, Request{Plan: plan, ControlTopic: controlTopic})
	if !errors.Is(err, ErrDeleteNotEffective) || !strings.Contains(err.Error(), "starts at 0 after DeleteRecords up to 5") {
		t.Fatalf("err = %v, want %v", err, ErrDeleteNotEffective)
	}
	if op, ok := e.history().Lookup(plan.ID()); !ok || op.Status != cleanupplan.StatusCommitted {
		t.Fatalf("recorded %+v (%v), want COMMITTED", op, ok)
	}
	if res, err := Apply(ctx, e.kafka, Request{Plan: plan, ControlTopic: controlTopic}); err != nil || !res.Resumed {
		t.Fatalf("second apply: %+v %v", res, err)
	}
}
