package cleanup

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// Each refusal is typed, names what is wrong, and leaves the control topic
// and the data topic untouched.
func TestApplyRefusals(t *testing.T) {
	ctx := context.Background()
	fiveEach := func(int32) int64 { return 5 }
	cases := []struct {
		name    string
		arrange func(e *env) Request
		want    error
		mention string
	}{
		{"expected topic differs", func(e *env) Request {
			return Request{Plan: e.plan("c", fiveEach), ControlTopic: controlTopic, ExpectedTopic: "payments-action-state"}
		}, ErrTopicMismatch, `"payments-action-state"`},
		{"topic recreated", func(e *env) Request {
			plan := e.plan("c", fiveEach)
			must(t, deleteTopic(ctx, e.kafka, dataTopic))
			_, err := e.kafka.CreateTopic(ctx, dataTopic, e.parts, 1, DataTopicSettings)
			must(t, err)
			return Request{Plan: plan, ControlTopic: controlTopic}
		}, ErrTopicIDChanged, "deleted and recreated"},
		{"topic deleted", func(e *env) Request {
			plan := e.plan("c", fiveEach)
			must(t, deleteTopic(ctx, e.kafka, dataTopic))
			return Request{Plan: plan, ControlTopic: controlTopic}
		}, ErrActionStateTopicGone, "does not exist"},
		{"partition set changed", func(e *env) Request {
			plan, err := cleanupplan.New("c", dataTopic, e.topicID, cleanupplan.Offsets{0: 1, 1: 1})
			must(t, err)
			return Request{Plan: plan, ControlTopic: controlTopic}
		}, ErrPartitionSetChanged, "3 partitions"},
		{"policy compact only", func(e *env) Request {
			must(t, e.kafka.AlterTopicConfigs(ctx, dataTopic, map[string]string{ConfigCleanupPolicy: "compact"}, nil))
			return Request{Plan: e.plan("c", fiveEach), ControlTopic: controlTopic}
		}, ErrDataTopicSettings, `cleanup.policy="compact"`},
		{"finite retention", func(e *env) Request {
			must(t, e.kafka.AlterTopicConfigs(ctx, dataTopic, map[string]string{ConfigRetentionMs: "604800000"}, nil))
			return Request{Plan: e.plan("c", fiveEach), ControlTopic: controlTopic}
		}, ErrDataTopicSettings, "retention.ms"},
		{"offset above end", func(e *env) Request {
			return Request{Plan: e.plan("c", func(p int32) int64 { return 10 + int64(p) }), ControlTopic: controlTopic}
		}, ErrOffsetOutOfRange, "partition 1"},
		{"tombstone in control topic", func(e *env) Request {
			_, err := e.appendControl(ctx, controlTopic, []byte("x"), nil)
			must(t, err)
			return Request{Plan: e.plan("c", fiveEach), ControlTopic: controlTopic}
		}, cleanupplan.ErrTombstone, "offset 0"},
		{"malformed control record", func(e *env) Request {
			_, err := e.appendControl(ctx, controlTopic, []byte("x"), []byte(`{"schemaVersion":1}`))
			must(t, err)
			return Request{Plan: e.plan("c", fiveEach), ControlTopic: controlTopic}
		}, cleanupplan.ErrMalformedPlan, "status is missing"},
		{"foreign plan in control topic", func(e *env) Request {
			other, err := cleanupplan.New("c", "payments-action-state", e.topicID, cleanupplan.Offsets{0: 1, 1: 1, 2: 1})
			must(t, err)
			k, v := cleanupplan.EncodeRecord(cleanupplan.StatusApplied, other)
			_, err = e.appendControl(ctx, controlTopic, k, v)
			must(t, err)
			return Request{Plan: e.plan("c", fiveEach), ControlTopic: controlTopic}
		}, cleanupplan.ErrForeignPlan, "payments-action-state"},
		{"incomparable plans in control topic", func(e *env) Request {
			for _, offs := range []cleanupplan.Offsets{{0: 1, 1: 5, 2: 1}, {0: 5, 1: 1, 2: 1}} {
				p, err := cleanupplan.New("c", dataTopic, e.topicID, offs)
				must(t, err)
				k, v := cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, p)
				_, err = e.appendControl(ctx, controlTopic, k, v)
				must(t, err)
			}
			return Request{Plan: e.plan("c", fiveEach), ControlTopic: controlTopic}
		}, cleanupplan.ErrIncomparablePlans, "ambiguous"},
		{"control topic missing", func(e *env) Request {
			return Request{Plan: e.plan("c", fiveEach), ControlTopic: "no-such-control"}
		}, ErrControlTopicMisconfigured, "does not exist"},
		{"control topic is the data topic", func(e *env) Request {
			return Request{Plan: e.plan("c", fiveEach), ControlTopic: dataTopic}
		}, ErrControlTopicMisconfigured, "action-state topic itself"},
		{"control topic with two partitions", func(e *env) Request {
			_, err := e.kafka.CreateTopic(ctx, "ctl-2", 2, 1, map[string]string{ConfigCleanupPolicy: "compact"})
			must(t, err)
			return Request{Plan: e.plan("c", fiveEach), ControlTopic: "ctl-2"}
		}, ErrControlTopicMisconfigured, "2 partitions"},
		{"control topic with delete policy", func(e *env) Request {
			_, err := e.kafka.CreateTopic(ctx, "ctl-del", 1, 1, map[string]string{ConfigCleanupPolicy: "compact,delete"})
			must(t, err)
			return Request{Plan: e.plan("c", fiveEach), ControlTopic: "ctl-del"}
		}, ErrControlTopicMisconfigured, "exactly \"compact\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, 3, 10)
			req := c.arrange(e)
			ctlEnd := func() int64 {
				ends, err := e.kafka.EndOffsets(ctx, req.ControlTopic)
				if err != nil {
					return -1
				}
				return ends[0]
			}
			before := ctlEnd()
			spy := newSpy(e)
			_, err := Apply(ctx, spy, req)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
			if !strings.Contains(err.Error(), c.mention) {
				t.Fatalf("err = %v, want it to mention %s", err, c.mention)
			}
			if spy.deletes != 0 {
				t.Fatal("a refused apply called DeleteRecords")
			}
			if after := ctlEnd(); after != before {
				t.Fatalf("a refused apply wrote to the control topic (%d -> %d)", before, after)
			}
		})
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// deleteTopic deletes name whatever its ID, as an operator's
// kafka-topics.sh --delete does behind the apply's back.
func deleteTopic(ctx context.Context, kafka *kafkaops.Client, name string) error {
	t, err := kafka.DescribeTopic(ctx, name)
	if err != nil {
		return err
	}
	return kafka.DeleteTopic(ctx, name, t.ID)
}

// A plan missing a partition is refused as such, at plan time (the
// preview reads the history first) and at apply (the topic is checked
// first), not as a control topic belonging to another topic.
func TestPlanMissingAPartitionIsRefusedAsSuch(t *testing.T) {
	e := newEnv(t, 2, 20)
	ctx := context.Background()
	if _, err := Apply(ctx, e.kafka, Request{Plan: e.plan("chk-1", func(int32) int64 { return 2 }), ControlTopic: e.control}); err != nil {
		t.Fatal(err)
	}
	short, err := cleanupplan.New("chk-2", e.data, e.topicID, cleanupplan.Offsets{0: 5})
	must(t, err)
	_, previewErr := PreviewApply(ctx, e.kafka, short, e.control)
	_, applyErr := Apply(ctx, e.kafka, Request{Plan: short, ControlTopic: e.control})
	for name, err := range map[string]error{"preview": previewErr, "apply": applyErr} {
		if !errors.Is(err, cleanupplan.ErrPlanMissesPartitions) || errors.Is(err, cleanupplan.ErrForeignPlan) || !strings.Contains(err.Error(), "misses partition [1]") {
			t.Errorf("%s: %v; want ErrPlanMissesPartitions naming partition 1", name, err)
		}
	}
}
