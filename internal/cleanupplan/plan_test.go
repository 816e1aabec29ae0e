package cleanupplan

import (
	"errors"
	"strings"
	"testing"
)

func specPlan(t *testing.T) Plan {
	t.Helper()
	p, err := New("file:/var/flink/checkpoints/7f3a/chk-42", "orders-agent-action-state", "q1Yw3mZ7QGu3c8m0b7o5Zg", Offsets{0: 150, 1: 100, 2: 0})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPlanIDMatchesSpecVector(t *testing.T) {
	const want = "a5440177c24ca86c94163d0a3254bca95d7c4e4d3cc3671b267c8e68797adac4"
	if got := specPlan(t).ID(); got != want {
		t.Fatalf("plan ID = %s, want %s", got, want)
	}
}

func TestPlanFileIsJacksonDefaultPrettyPrinter(t *testing.T) {
	want := `{
  "schemaVersion" : 1,
  "planId" : "a5440177c24ca86c94163d0a3254bca95d7c4e4d3cc3671b267c8e68797adac4",
  "sourceRecoveryPoint" : "file:/var/flink/checkpoints/7f3a/chk-42",
  "topic" : "orders-agent-action-state",
  "topicId" : "q1Yw3mZ7QGu3c8m0b7o5Zg",
  "offsets" : {
    "0" : 150,
    "1" : 100,
    "2" : 0
  }
}
`
	if got := string(specPlan(t).File()); got != want {
		t.Fatalf("plan file:\n%s\nwant:\n%s", got, want)
	}
}

func TestPartitionsAreOrderedNumerically(t *testing.T) {
	offsets := Offsets{}
	for p := int32(0); p < 12; p++ {
		offsets[p] = int64(100 - p)
	}
	p, err := New("s3://bucket/chk-1", "t", "q1Yw3mZ7QGu3c8m0b7o5Zg", offsets)
	if err != nil {
		t.Fatal(err)
	}
	compact := string(p.CompactJSON())
	i2, i10 := strings.Index(compact, `"2":98`), strings.Index(compact, `"10":90`)
	if i2 < 0 || i10 < 0 || i2 > i10 {
		t.Fatalf("partition 2 must precede partition 10: %s", compact)
	}
}

func TestStringsAreEscapedLikeJackson(t *testing.T) {
	p, err := New("file:/tmp/agents/Zürich & <ops>/\"q\"\\x\t\x01\u2028/chk-7", "t", "q1Yw3mZ7QGu3c8m0b7o5Zg", Offsets{0: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := string(p.CompactJSON())
	want := `"sourceRecoveryPoint":"file:/tmp/agents/Zürich & <ops>/\"q\"\\x\t\u0001` + "\u2028" + `/chk-7"`
	if !strings.Contains(got, want) {
		t.Fatalf("got %s\nwant it to contain %s", got, want)
	}
	back, err := Parse(p.File())
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equal(p) {
		t.Fatalf("round trip changed the plan: %+v", back)
	}
}

func TestNewRefusesInvalidPlans(t *testing.T) {
	const id = "q1Yw3mZ7QGu3c8m0b7o5Zg"
	cases := map[string]struct {
		src, topic, topicID string
		offsets             Offsets
		field               string
	}{
		"blank source":    {" ", "t", id, Offsets{0: 1}, "sourceRecoveryPoint"},
		"blank topic":     {"s", "", id, Offsets{0: 1}, "topic"},
		"blank topic id":  {"s", "t", "  ", Offsets{0: 1}, "topicId"},
		"zero uuid":       {"s", "t", "AAAAAAAAAAAAAAAAAAAAAA", Offsets{0: 1}, "zero UUID"},
		"no offsets":      {"s", "t", id, Offsets{}, "offsets"},
		"negative part":   {"s", "t", id, Offsets{-1: 1}, "partition -1"},
		"negative offset": {"s", "t", id, Offsets{3: -5}, "negative offset -5"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := New(c.src, c.topic, c.topicID, c.offsets)
			if !errors.Is(err, ErrMalformedPlan) || !strings.Contains(err.Error(), c.field) {
				t.Fatalf("err = %v, want ErrMalformedPlan naming %q", err, c.field)
			}
		})
	}
}

func TestAdvancesOrEquals(t *testing.T) {
	p := specPlan(t)
	if err := p.AdvancesOrEquals(nil); err != nil {
		t.Fatalf("empty boundary: %v", err)
	}
	if err := p.AdvancesOrEquals(Offsets{0: 150, 1: 100, 2: 0}); err != nil {
		t.Fatalf("equal: %v", err)
	}
	if err := p.AdvancesOrEquals(Offsets{0: 10, 1: 10, 2: 0}); err != nil {
		t.Fatalf("advance: %v", err)
	}
	err := p.AdvancesOrEquals(Offsets{0: 151, 1: 100, 2: 5})
	var bm *BackwardMoveError
	if !errors.As(err, &bm) || !errors.Is(err, ErrBackwardMove) {
		t.Fatalf("err = %v, want BackwardMoveError", err)
	}
	if bm.Partition != 0 || bm.Boundary != 151 || bm.Requested != 150 || bm.Partitions != 2 {
		t.Fatalf("backward move details = %+v", bm)
	}
	if err := p.AdvancesOrEquals(Offsets{0: 1, 1: 1}); !errors.Is(err, ErrForeignPlan) {
		t.Fatalf("different partition set: err = %v, want ErrForeignPlan", err)
	}
}
