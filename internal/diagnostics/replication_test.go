package diagnostics

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// TestReplicationDiagnostics: each names the topic, the partitions (with
// their counts where they differ) and the factor state records.
func TestReplicationDiagnostics(t *testing.T) {
	for _, tt := range []struct {
		name, summary string
		severity      diag.Severity
		want          []string
		d             diag.Diagnostic
	}{
		{"uneven", "Topic Partitions Have Different Replication Factors", diag.SeverityWarning,
			[]string{`"orders"`, "partition 0: 3, partition 1: 1", "replication_factor = 1"},
			ReplicationUneven("action-state topic", "orders", 1, map[int32]int{1: 1, 0: 3})},
		{"in progress", "Replica Reassignment Still Under Way", diag.SeverityWarning,
			[]string{`"orders"`, "partitions 0, 1", "replication_factor = 1", "next apply"},
			ReplicationInProgress("action-state topic", "orders", 1, []int32{0, 1})},
		{"unlisted", "Replicas Out Of Sync", diag.SeverityWarning,
			[]string{`"orders"`, "partition 2", "DESCRIBE on the cluster", "replication_factor = 2"},
			ReplicationUnlisted("action-state topic", "orders", 2, []int32{2})},
		{"above brokers", "Replication Factor Above Broker Count", diag.SeverityError,
			[]string{`"orders"`, "replication_factor = 4", "3 live broker(s) (IDs [1 2 3])", "at most 3"},
			ReplicationFactorAboveBrokers("action-state topic", "orders", 4, []int32{1, 2, 3})},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.d.Summary() != tt.summary || tt.d.Severity() != tt.severity {
				t.Errorf("got %v %q, want %v %q", tt.d.Severity(), tt.d.Summary(), tt.severity, tt.summary)
			}
			for _, w := range tt.want {
				if !strings.Contains(tt.d.Detail(), w) {
					t.Errorf("detail lacks %q:\n%s", w, tt.d.Detail())
				}
			}
		})
	}
}
