package invariant

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// broker is an in-process Kafka with a producer on it.
func broker(t *testing.T) (*Checker, *kgo.Client, *kadm.Client) {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	adm := kadm.NewClient(cl)
	checker, err := NewChecker(c.ListenAddrs(), "", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(checker.Close)
	return checker, cl, adm
}

func create(t *testing.T, adm *kadm.Client, topic string, partitions int32) string {
	t.Helper()
	resp, err := adm.CreateTopic(context.Background(), partitions, 1, nil, topic)
	if err != nil || resp.Err != nil {
		t.Fatalf("creating %s: %v %v", topic, err, resp.Err)
	}
	return javaTopicID(resp.ID)
}

// appendTxn appends one control record in a transaction of its own,
// committed or aborted.
func appendTxn(t *testing.T, seeds []string, topic string, value []byte, key string, commit bool) {
	t.Helper()
	ctx := context.Background()
	cl, err := kgo.NewClient(kgo.SeedBrokers(seeds...), kgo.TransactionalID("soak-test-"+key), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if err := cl.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	if err := cl.ProduceSync(ctx, &kgo.Record{Topic: topic, Partition: 0, Key: []byte(key), Value: value}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	if err := cl.EndTransaction(ctx, kgo.TransactionEndTry(commit)); err != nil {
		t.Fatal(err)
	}
}

func TestHistoryReadsTransactionsAndCatchesABackwardBoundary(t *testing.T) {
	c, cl, adm := broker(t)
	ctx := context.Background()
	create(t, adm, "control", 1)
	seeds := cl.OptValue(kgo.SeedBrokers).([]string)
	appendTxn(t, seeds, "control", value("COMMITTED", "a", `"0":5,"1":5`), "a", true)
	appendTxn(t, seeds, "control", value("COMMITTED", "z", `"0":99,"1":99`), "z", false) // fenced: never seen
	appendTxn(t, seeds, "control", value("APPLIED", "a", `"0":5,"1":5`), "a", true)
	j := Job{Operator: "op", ControlTopic: "control"}
	r := Report{Checks: map[string]int{}}
	h, ok := c.history(ctx, j, &r)
	if !ok || len(r.Violations) > 0 {
		t.Fatalf("history: %v", r.Violations)
	}
	if want := map[int32]int64{0: 5, 1: 5}; !maps.Equal(h.Boundary(), want) || len(h.Committed()) != 0 {
		t.Fatalf("boundary %v, committed %v; want %v, none", h.Boundary(), h.Committed(), want)
	}
	// A boundary the checker saw cannot go: recreate the control topic with a lower plan.
	if _, err := adm.DeleteTopics(ctx, "control"); err != nil {
		t.Fatal(err)
	}
	create(t, adm, "control", 1)
	appendTxn(t, seeds, "control", value("APPLIED", "c", `"0":4,"1":7`), "c", true)
	appendTxn(t, seeds, "control", value("APPLIED", "b", `"0":4,"1":6`), "b", true)
	r = Report{Checks: map[string]int{}}
	c.history(ctx, j, &r)
	if len(r.Violations) != 0 {
		t.Fatalf("a recreated control topic (a new topic ID) starts a new history: %v", r.Violations)
	}
	// Records deleted from the control topic take plan c away: backward.
	del := kadm.Offsets{}
	del.Add(kadm.Offset{Topic: "control", Partition: 0, At: 2}) // c and its marker
	if _, err := adm.DeleteRecords(ctx, del); err != nil {
		t.Fatal(err)
	}
	r = Report{Checks: map[string]int{}}
	c.history(ctx, j, &r)
	if len(r.Violations) != 1 || !strings.Contains(r.Violations[0].Detail, "partition 1: was 7, now 6") {
		t.Fatalf("plan c deleted: %v", r.Violations)
	}
	appendTxn(t, seeds, "control", nil, "c", true)
	r = Report{Checks: map[string]int{}}
	c.history(ctx, j, &r)
	if len(r.Violations) != 1 || !strings.Contains(r.Violations[0].Detail, "tombstone") {
		t.Fatalf("a tombstone: %v", r.Violations)
	}
}

func TestDataCatchesRecordsDeletedAtOrAboveAMarker(t *testing.T) {
	c, cl, adm := broker(t)
	ctx := context.Background()
	id := create(t, adm, "data", 2)
	var recs []*kgo.Record
	for p := range int32(2) {
		for n := range 10 {
			recs = append(recs, &kgo.Record{Topic: "data", Partition: p, Key: fmt.Appendf(nil, "e0-p%d-n%d", p, n)})
		}
	}
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
	j := Job{Operator: "op", Topic: "data", TopicID: id, End: map[int32]int64{0: 10, 1: 10},
		Points: []Point{{Path: "chk-1", TopicID: id, Markers: []map[int32]int64{{0: 4, 1: 6}}}}}
	check := func() Report {
		r := Report{Checks: map[string]int{}}
		if err := c.data(ctx, j, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := check(); len(r.Violations) != 0 {
		t.Fatalf("intact: %v", r.Violations)
	}
	del := kadm.Offsets{}
	del.Add(kadm.Offset{Topic: "data", Partition: 0, At: 4}) // up to the marker: allowed
	if _, err := adm.DeleteRecords(ctx, del); err != nil {
		t.Fatal(err)
	}
	if r := check(); len(r.Violations) != 0 {
		t.Fatalf("deleted below the marker: %v", r.Violations)
	}
	del = kadm.Offsets{}
	del.Add(kadm.Offset{Topic: "data", Partition: 1, At: 7}) // one past the marker
	if _, err := adm.DeleteRecords(ctx, del); err != nil {
		t.Fatal(err)
	}
	r := check()
	if len(r.Violations) != 1 || r.Violations[0].Invariant != "b" || !strings.Contains(r.Violations[0].Detail, "partition 1 from offset 6") {
		t.Fatalf("deleted above the marker: %v", r.Violations)
	}
	j.End[0] = 11 // the job wrote a record that is not there
	if r := check(); len(r.Violations) != 2 || !strings.Contains(r.Violations[0].Detail, "partition 0 ends at 10") {
		t.Fatalf("a lost record: %v", r.Violations)
	}
}
