//go:build interop

package interop_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// The rules where the runtime's newest cleanup code is stricter than the
// provider used to be, each checked on one broker by both sides: the Java
// oracle (interop/java, the runtime's rules and messages) and the
// provider's core. Both must refuse, and nothing may be written or deleted.

// runtimeRulesEnv is a data topic of two partitions holding ten records
// each and a control topic, on the suite's broker.
type runtimeRulesEnv struct {
	*acctest.Env
	data, control, topicID string
}

func newRuntimeRulesEnv(t *testing.T, controlPolicy string) runtimeRulesEnv {
	t.Helper()
	e := acctest.New(t)
	r := runtimeRulesEnv{Env: e, data: e.Name("rules-data"), control: e.Name("rules-control")}
	r.topicID = e.CreateTopic(r.data, 2, cleanup.DataTopicSettings)
	e.CreateTopic(r.control, 1, map[string]string{cleanup.ConfigCleanupPolicy: controlPolicy})
	e.Produce(r.data, 2, 10)
	return r
}

func (r runtimeRulesEnv) plan(t *testing.T, source string, offset int64) cleanupplan.Plan {
	t.Helper()
	p, err := cleanupplan.New(source, r.data, r.topicID, cleanupplan.Offsets{0: offset, 1: offset})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// refusedByBoth runs the preview and the apply of plan and requires both to
// fail with want, leaving the topics as they were; it returns the apply's
// error text.
func (r runtimeRulesEnv) refusedByBoth(t *testing.T, plan cleanupplan.Plan, want error) string {
	t.Helper()
	ctx := context.Background()
	starts := r.StartOffsets(r.data)
	ends, err := r.Admin.EndOffsets(ctx, r.control)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cleanup.PreviewApply(ctx, r.Admin, plan, r.control); !errors.Is(err, want) {
		t.Fatalf("preview: err = %v, want %v", err, want)
	}
	_, err = cleanup.Apply(ctx, r.Admin, cleanup.Request{Plan: plan, ControlTopic: r.control})
	if !errors.Is(err, want) {
		t.Fatalf("apply: err = %v, want %v", err, want)
	}
	after, aerr := r.Admin.EndOffsets(ctx, r.control)
	if s := r.StartOffsets(r.data); s[0] != starts[0] || s[1] != starts[1] || aerr != nil || after[0] != ends[0] {
		t.Fatalf("a refused apply changed something: start offsets %v -> %v, control end %d -> %d (%v)", starts, s, ends[0], after[0], aerr)
	}
	return err.Error()
}

func planFile(t *testing.T, p cleanupplan.Plan) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(f, p.File(), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// A control record with content after its JSON object: Java's reader
// (FAIL_ON_TRAILING_TOKENS) refuses the history, and so do we, naming the
// record's offset.
func TestTrailingControlRecordContentIsRefusedByBoth(t *testing.T) {
	r := newRuntimeRulesEnv(t, "compact")
	first := r.plan(t, "file:/checkpoints/rules/chk-1", 2)
	k, v := cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, first)
	value := filepath.Join(t.TempDir(), "value")
	if err := os.WriteFile(value, append(v, "garbage"...), 0o644); err != nil {
		t.Fatal(err)
	}
	brokers := strings.Join(r.Brokers, ",")
	javaKafka(t, "write-raw", "--bootstrap", brokers, "--topic", r.control, "--key", string(k), "--value-file", value)
	if out, err := javaExit(t, "read-control", "--bootstrap", brokers, "--topic", r.control, "--timeout-ms", "20000"); err == nil ||
		!strings.Contains(out, "control record at offset 0") {
		t.Fatalf("the Java reader accepted a record with trailing content: %v\n%s", err, out)
	}
	msg := r.refusedByBoth(t, r.plan(t, "file:/checkpoints/rules/chk-2", 5), cleanupplan.ErrUnreadableRecord)
	if !strings.Contains(msg, "offset 0") || !strings.Contains(msg, "after the JSON object") {
		t.Fatalf("err = %s, want the record's offset and the trailing content named", msg)
	}
}

// A plan offset below its partition's log start (records deleted out of
// band): the runtime's commit check refuses it with its message, and our
// preview and apply refuse it with the same words.
func TestOffsetBelowTheLogStartIsRefusedByBoth(t *testing.T) {
	r := newRuntimeRulesEnv(t, "compact")
	if _, err := r.Admin.DeleteRecords(context.Background(), r.data, kafkaops.TopicID{}, map[int32]int64{0: 8}); err != nil {
		t.Fatal(err)
	}
	plan := r.plan(t, "file:/checkpoints/rules/chk-1", 5)
	out, err := javaExit(t, "check-offsets", "--bootstrap", strings.Join(r.Brokers, ","), "--plan", planFile(t, plan), "--timeout-ms", "20000")
	want := "Cannot commit Kafka cleanup boundary for " + r.data + "-0 at offset 5 because the available range is [8, 10]"
	if err == nil || !strings.Contains(out, want) {
		t.Fatalf("Java's commit check: %v\n%s\nwant %q", err, out, want)
	}
	if msg := r.refusedByBoth(t, plan, cleanup.ErrOffsetOutOfRange); !strings.Contains(msg, want) {
		t.Fatalf("err = %s, want the runtime's message %q", msg, want)
	}
	// At the start itself both accept it.
	at := r.plan(t, "file:/checkpoints/rules/chk-2", 8)
	if out, err := javaExit(t, "check-offsets", "--bootstrap", strings.Join(r.Brokers, ","), "--plan", planFile(t, at), "--timeout-ms", "20000"); err != nil {
		t.Fatalf("Java refused offsets at the start: %v\n%s", err, out)
	}
	if _, err := cleanup.PreviewApply(context.Background(), r.Admin, at, r.control); err != nil {
		t.Fatalf("preview of offsets at the start: %v", err)
	}
}

// A control topic whose cleanup.policy is "compact" only as a trimmed set:
// the runtime compares the string exactly and refuses it; so do we.
func TestControlTopicPolicyIsComparedExactlyByBoth(t *testing.T) {
	for _, policy := range []string{" compact", "compact,compact"} {
		t.Run(policy, func(t *testing.T) {
			r := newRuntimeRulesEnv(t, "compact")
			if err := r.Admin.AlterTopicConfigs(context.Background(), r.control, map[string]string{cleanup.ConfigCleanupPolicy: policy}, nil); err != nil {
				t.Skipf("the broker refuses cleanup.policy=%q (%v): nothing to compare", policy, err)
			}
			if got := r.TopicConfig(r.control, cleanup.ConfigCleanupPolicy); got != policy {
				t.Skipf("the broker stores cleanup.policy=%q as %q: nothing to compare", policy, got)
			}
			out, err := javaExit(t, "read-control", "--bootstrap", strings.Join(r.Brokers, ","), "--topic", r.control, "--timeout-ms", "20000")
			if want := "must use cleanup.policy=compact without delete retention"; err == nil || !strings.Contains(out, want) {
				t.Fatalf("Java's control topic check: %v\n%s\nwant %q", err, out, want)
			}
			if msg := r.refusedByBoth(t, r.plan(t, "file:/checkpoints/rules/chk-1", 5), cleanup.ErrControlTopicMisconfigured); !strings.Contains(msg, `cleanup.policy="`+policy+`"`) {
				t.Fatalf("err = %s, want the configured value named", msg)
			}
		})
	}
}
