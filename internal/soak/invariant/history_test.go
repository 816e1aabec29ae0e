package invariant

import (
	"encoding/binary"
	"fmt"
	"maps"
	"strings"
	"testing"
)

func value(status, id string, offsets string) []byte {
	return fmt.Appendf(nil, `{"schemaVersion":1,"status":%q,"plan":{"schemaVersion":1,"planId":%q,"sourceRecoveryPoint":"s3://b/chk-%s","topic":"data","topicId":"q1Yw3mZ7QGu3c8m0b7o5Zg","offsets":{%s}}}`,
		status, id, id, offsets)
}

func rec(offset int64, status, id, offsets string) RawRecord {
	return RawRecord{Offset: offset, Key: []byte(id), Value: value(status, id, offsets)}
}

func txn(r RawRecord, pid int64) RawRecord {
	r.Transactional, r.ProducerID = true, pid
	return r
}

func marker(offset, pid int64, commit bool) RawRecord {
	key := make([]byte, 4)
	if commit {
		binary.BigEndian.PutUint16(key[2:], 1)
	}
	return RawRecord{Offset: offset, Key: key, ProducerID: pid, Transactional: true, Control: true}
}

func TestReplayHistoryResolvesTransactionsAsReadCommitted(t *testing.T) {
	h, err := ReplayHistory([]RawRecord{
		txn(rec(0, "COMMITTED", "a", `"0":3,"1":4`), 7),
		marker(1, 7, true),
		txn(rec(2, "COMMITTED", "b", `"0":9,"1":9`), 8), // fenced applier: aborted
		txn(rec(3, "APPLIED", "a", `"0":3,"1":4`), 9),
		marker(4, 8, false),
		marker(5, 9, true),
		txn(rec(6, "COMMITTED", "c", `"0":5,"1":5`), 10), // still open
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Plans) != 1 || h.Plans[0].ID != "a" || h.Plans[0].Status != "APPLIED" {
		t.Fatalf("plans %+v, want only a, APPLIED", h.Plans)
	}
	if want := map[int32]int64{0: 3, 1: 4}; !maps.Equal(h.Boundary(), want) {
		t.Fatalf("boundary %v, want %v", h.Boundary(), want)
	}
	if h.Open != 1 {
		t.Fatalf("open %d, want 1", h.Open)
	}
}

func TestReplayHistoryRefusesWhatTheRulesRefuse(t *testing.T) {
	for name, records := range map[string][]RawRecord{
		"tombstone":           {rec(0, "APPLIED", "a", `"0":1`), {Offset: 1, Key: []byte("a")}},
		"back to COMMITTED":   {rec(0, "APPLIED", "a", `"0":1`), rec(1, "COMMITTED", "a", `"0":1`)},
		"other contents":      {rec(0, "APPLIED", "a", `"0":1`), rec(1, "APPLIED", "a", `"0":2`)},
		"key is not the plan": {{Offset: 0, Key: []byte("x"), Value: value("APPLIED", "a", `"0":1`)}},
		"crossing plans":      {rec(0, "APPLIED", "a", `"0":1,"1":5`), rec(1, "APPLIED", "b", `"0":2,"1":4`)},
		"other partitions":    {rec(0, "APPLIED", "a", `"0":1`), rec(1, "APPLIED", "b", `"0":2,"1":4`)},
		"unknown status":      {rec(0, "DELETED", "a", `"0":1`)},
	} {
		if _, err := ReplayHistory(records); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestReplayHistoryAfterCompactionKeepsTheBoundary(t *testing.T) {
	// Compaction keeps each plan's last record: APPLIED without its COMMITTED.
	h, err := ReplayHistory([]RawRecord{rec(1, "APPLIED", "a", `"0":3`), rec(3, "APPLIED", "b", `"0":8`)})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[int32]int64{0: 8}; !maps.Equal(h.Boundary(), want) {
		t.Fatalf("boundary %v, want %v", h.Boundary(), want)
	}
}

func TestBackward(t *testing.T) {
	got := Backward(map[int32]int64{0: 5, 1: 5, 2: 5}, map[int32]int64{0: 6, 1: 4})
	if len(got) != 2 || !strings.Contains(got[0], "partition 1: was 5, now 4") || !strings.Contains(got[1], "partition 2") {
		t.Fatalf("Backward = %q", got)
	}
	if got := Backward(nil, map[int32]int64{0: 1}); got != nil {
		t.Fatalf("a first boundary is not a move: %q", got)
	}
}
