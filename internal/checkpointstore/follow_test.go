package checkpointstore

import (
	"context"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/recoveryplan"
)

// testFollow is the job on an object store: a savepoint with
// markers at 60, checkpoints at 90 and 100, then the savepoint uploaded
// again (aws s3 sync, gsutil cp), so its _metadata is the newest object.
// Following the oldest still chooses the savepoint: points are ordered by
// their markers, not by object times.
func testFollow(t *testing.T, be *backend) {
	r := newRouter(t, be)
	upload := func(key string, id, offset int64) {
		dir := t.TempDir()
		marker := []checkpoint.Marker{{SchemaVersion: 1, Topic: "orders-agent-action-state", TopicID: "q1Yw3mZ7QGu3c8m0b7o5Zg",
			Offsets: map[int32]int64{0: offset, 1: offset + 1}}}
		if err := checkpoint.WriteSavepoint(dir, checkpoint.SavepointSpec{MetadataVersion: 5, CheckpointID: id, OperatorUID: "agent",
			Markers: [][]checkpoint.Marker{marker}}); err != nil {
			t.Fatal(err)
		}
		uploadDir(t, be, dir, key)
	}
	savepoint := "follow/savepoints/savepoint-7f3a00-0123456789ab"
	upload(savepoint, 6, 60)
	upload("follow/job/chk-9", 9, 90)
	upload("follow/job/chk-10", 10, 100)
	upload(savepoint, 6, 60)

	// What following costs the store: a listing of each directory and of
	// each point in it (does it hold a _metadata?), then one read per
	// point; the listing's answer is not asked again before the read.
	before := r.Stats().Requests
	if _, _, err := recoveryplan.FromDirs(context.Background(), r, be.uri("follow/job"), be.uri("follow/savepoints"),
		recoveryplan.Follow{}, checkpoint.Selector{}); err != nil {
		t.Fatal(err)
	}
	if got := r.Stats().Requests - before; got != 2+3+3 {
		t.Errorf("following two directories of 3 points took %d store requests, want 8 (2 + 3 listings, 3 reads)", got)
	}

	for _, tc := range []struct {
		nth  int
		want string
	}{{0, be.uri(savepoint)}, {1, be.uri("follow/job/chk-10")}, {2, be.uri("follow/job/chk-9")}} {
		res, chosen, err := recoveryplan.FromDirs(context.Background(), r, be.uri("follow/job"), be.uri("follow/savepoints"),
			recoveryplan.Follow{NthNewest: tc.nth}, checkpoint.Selector{})
		if err != nil {
			t.Fatal(err)
		}
		if chosen.Point.Path != tc.want || res.Plan.SourceRecoveryPoint != tc.want || chosen.Listed != 3 {
			t.Errorf("nth_newest %d: followed %s of %d (plan from %s), want %s", tc.nth, chosen.Point.Path, chosen.Listed, res.Plan.SourceRecoveryPoint, tc.want)
		}
	}
}
