package cleanupplan

import (
	"testing"
)

// The runtime's rule: a restore is refused when the point's marker is below
// the boundary on any partition, or its markers name another topic, topic
// ID or partition set.
func TestRefusesRestoreOf(t *testing.T) {
	boundary := mustPlan(t, "file:/cp/job/chk-9", Offsets{0: 90, 1: 90, 2: 90})
	for _, tc := range []struct {
		name    string
		point   Plan
		refused bool
		want    RestoreRefusal
	}{
		{"equal", mustPlan(t, "file:/cp/job/chk-9-copy", Offsets{0: 90, 1: 90, 2: 90}), false, RestoreRefusal{}},
		{"above", mustPlan(t, "file:/cp/job/chk-10", Offsets{0: 100, 1: 90, 2: 95}), false, RestoreRefusal{}},
		{"below on two partitions", mustPlan(t, "file:/sp/savepoint-1", Offsets{0: 90, 1: 60, 2: 89}), true,
			RestoreRefusal{Partition: 1, Marker: 60, Boundary: 90, Reason: "partition 1: marker 60 below new boundary 90; partition 2: marker 89 below new boundary 90"}},
		{"another partition set", mustPlan(t, "file:/sp/savepoint-2", Offsets{0: 100, 1: 100}), true,
			RestoreRefusal{Partition: -1, Reason: `its markers name topic "orders-agent-action-state", topic ID q1Yw3mZ7QGu3c8m0b7o5Zg, partitions [0 1]; ` +
				`the boundary is for topic "orders-agent-action-state", topic ID q1Yw3mZ7QGu3c8m0b7o5Zg, partitions [0 1 2]`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, refused := boundary.RefusesRestoreOf(tc.point)
			if refused != tc.refused || got != tc.want {
				t.Fatalf("RefusesRestoreOf = %+v, %v; want %+v, %v", got, refused, tc.want, tc.refused)
			}
		})
	}
}
