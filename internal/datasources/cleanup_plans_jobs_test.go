package datasources

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
)

// More jobs than are read at once, of three kinds: a complete point, a
// point cut short (skipped), a directory without a point yet. Whatever
// order the reads finish in, the outcomes and their diagnostics come in key
// order, and every diagnostic names its job (and a skipped one its point).
func TestFollowJobsInKeyOrderNamingEachJob(t *testing.T) {
	root := t.TempDir()
	m := cleanupPlansModel{Jobs: map[string]cleanupPlansJobModel{}, OnUnreadable: types.StringValue(onUnreadableSkip)}
	const n = 3*jobsReadAtOnce + 1
	for i := range n {
		key, dir := fmt.Sprintf("job-%02d", i), filepath.Join(root, fmt.Sprintf("dir-%02d", i))
		m.Jobs[key] = cleanupPlansJobModel{CheckpointDir: types.StringValue(dir)}
		switch i % 3 {
		case 0:
			writeTestPoint(t, filepath.Join(dir, "chk-1"), false)
		case 1:
			writeTestPoint(t, filepath.Join(dir, "chk-1"), true)
		case 2:
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	store, diags := newCheckpointStore(context.Background(), types.ObjectNull(nil), 0)
	if diags.HasError() {
		t.Fatal(diags)
	}
	defer store.Close()
	out := m.followJobs(context.Background(), store)
	if len(out) != n {
		t.Fatalf("%d outcomes, want %d", len(out), n)
	}
	for i, job := range out {
		key := fmt.Sprintf("job-%02d", i)
		if job.key != key || job.ok != (i%3 == 0) || len(job.diags) != map[bool]int{true: 0, false: 1}[i%3 == 0] {
			t.Fatalf("outcome %d: key %s ok %v diags %v", i, job.key, job.ok, job.diags)
		}
		for _, d := range job.diags {
			if d.Severity() != diag.SeverityWarning || !strings.HasPrefix(d.Summary(), fmt.Sprintf("Job %q: ", key)) {
				t.Errorf("%s: %v %q", key, d.Severity(), d.Summary())
			}
			if point := filepath.Join(root, fmt.Sprintf("dir-%02d", i), "chk-1"); i%3 == 1 && !strings.Contains(d.Detail(), point) {
				t.Errorf("%s: the warning does not name %s:\n%s", key, point, d.Detail())
			}
		}
	}

	m.OnUnreadable = types.StringNull() // fail
	for i, job := range m.followJobs(context.Background(), store) {
		if cutShort := i%3 == 1; job.diags.HasError() != cutShort {
			t.Errorf("%s: error %v, want %v: %v", job.key, job.diags.HasError(), cutShort, job.diags)
		}
	}
}

// writeTestPoint completes a recovery point at dir holding one marker, its
// _metadata cut one byte short when cut.
func writeTestPoint(t *testing.T, dir string, cut bool) {
	t.Helper()
	marker := checkpoint.Marker{SchemaVersion: 1, Topic: "orders-action-state", TopicID: "q1Yw3mZ7QGu3c8m0b7o5Zg", Offsets: map[int32]int64{0: 5}}
	if err := checkpoint.WriteSavepoint(dir, checkpoint.SavepointSpec{MetadataVersion: 5, CheckpointID: 1, OperatorUID: "agent-op", Markers: [][]checkpoint.Marker{{marker}}}); err != nil {
		t.Fatal(err)
	}
	if !cut {
		return
	}
	meta := filepath.Join(dir, "_metadata")
	b, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(meta, b[:len(b)-1], 0o644); err != nil {
		t.Fatal(err)
	}
}
