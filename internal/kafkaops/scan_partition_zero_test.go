package kafkaops_test

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// TestScanPartitionZeroBudget: a scan reads its head budget from the log
// start, then jumps to the tail, and says it skipped the middle; a record
// in the middle is not seen, one in the tail is.
func TestScanPartitionZeroBudget(t *testing.T) {
	ctx := context.Background()
	k, appendRecord := newControlTopic(t, "scanned")
	big := bytes.Repeat([]byte("s"), 32<<10)
	for i := range 200 {
		value := big
		if i == 100 {
			value = []byte("middle")
		}
		if _, err := appendRecord([]byte("k"), value); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := appendRecord([]byte("k"), []byte("tail")); err != nil {
		t.Fatal(err)
	}
	topic, err := k.DescribeTopic(ctx, "scanned")
	if err != nil {
		t.Fatal(err)
	}
	budget := kafkaops.ScanBudget{HeadBytes: 1 << 20, TailOffsets: 20}
	for _, tc := range []struct {
		want     string
		found    bool
		complete bool
	}{
		{"tail", true, true},
		{"middle", false, false},
		{"absent", false, false},
	} {
		scans, failed, err := k.ScanPartitionZero(ctx, []kafkaops.Topic{topic}, func(r kafkaops.Record) bool { return string(r.Value) == tc.want }, budget)
		if err != nil || len(failed) != 0 {
			t.Fatalf("%s: %v %v", tc.want, err, failed)
		}
		s := scans["scanned"]
		if (s.Match != nil) != tc.found || s.Complete != tc.complete || s.Empty() {
			t.Errorf("looking for %q: match %v, complete %v, %d records read; want found %v, complete %v", tc.want, s.Match != nil, s.Complete, s.Records, tc.found, tc.complete)
		}
	}
	// A budget above the log reads it whole.
	scans, _, err := k.ScanPartitionZero(ctx, []kafkaops.Topic{topic}, func(r kafkaops.Record) bool { return string(r.Value) == "middle" }, kafkaops.ScanBudget{HeadBytes: 64 << 20})
	if s := scans["scanned"]; err != nil || s.Match == nil || s.Match.Offset != 100 || !s.Complete {
		t.Errorf("a whole read: %+v, %v", s, err)
	}
}

// TestScanPartitionZeroWithoutLeader: a partition no broker leads cannot be
// read, and the scan says so instead of calling it empty.
func TestScanPartitionZeroWithoutLeader(t *testing.T) {
	ctx := context.Background()
	k, _ := newControlTopic(t, "offline")
	topic, err := k.DescribeTopic(ctx, "offline")
	if err != nil {
		t.Fatal(err)
	}
	topic.Leaders = map[int32]int32{0: -1}
	scans, failed, err := k.ScanPartitionZero(ctx, []kafkaops.Topic{topic}, func(kafkaops.Record) bool { return true }, kafkaops.ScanBudget{HeadBytes: 1 << 20})
	if err != nil || !errors.Is(failed["offline"], kafkaops.ErrNoLeader) {
		t.Fatalf("scans %v, failed %v, err %v", scans, failed, err)
	}
}
