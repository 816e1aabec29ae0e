package soak

import (
	"reflect"
	"slices"
	"testing"
)

func TestShortScheduleStrikesEveryKindOnce(t *testing.T) {
	for seed := range uint64(50) {
		s := NewSchedule(seed, 3, 12, true)
		count := map[Kind]int{}
		for _, f := range s.Faults {
			count[f.Kind]++
		}
		for _, k := range append(slices.Clone(Kinds), Churn) {
			if count[k] != 1 {
				t.Fatalf("seed %d: %s strikes %d times, want once", seed, k, count[k])
			}
		}
		checkSchedule(t, seed, s)
	}
}

func TestLongScheduleStrikesEveryKind(t *testing.T) {
	for seed := range uint64(20) {
		s := NewSchedule(seed, 30, 50, false)
		count := map[Kind]int{}
		for _, f := range s.Faults {
			count[f.Kind]++
		}
		for _, k := range Kinds {
			if count[k] == 0 {
				t.Fatalf("seed %d: %s never strikes", seed, k)
			}
		}
		if len(s.Joins) == 0 {
			t.Fatalf("seed %d: no operator joins during the month", seed)
		}
		checkSchedule(t, seed, s)
	}
}

// checkSchedule: no two faults of one exclusive group in a night, and every
// target runs by then (it joined at least a night before).
func checkSchedule(t *testing.T, seed uint64, s Schedule) {
	t.Helper()
	joined := map[int]int{}
	for n, ops := range s.Joins {
		for _, o := range ops {
			joined[o] = n
		}
	}
	for n := 1; n <= s.Nights; n++ {
		for _, g := range exclusive {
			in := 0
			for _, f := range s.Night(n) {
				if slices.Contains(g, f.Kind) {
					in++
				}
			}
			if in > 1 {
				t.Fatalf("seed %d night %d: %d faults of %v", seed, n, in, g)
			}
		}
		for _, f := range s.Night(n) {
			if joined[f.Operator] >= n {
				t.Fatalf("seed %d night %d: %s strikes operator %d, which joins on night %d", seed, n, f.Kind, f.Operator, joined[f.Operator])
			}
		}
	}
}

func TestScheduleReplaysFromItsSeed(t *testing.T) {
	a, b := NewSchedule(42, 30, 50, false), NewSchedule(42, 30, 50, false)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("one seed drew two schedules")
	}
	if reflect.DeepEqual(a.Faults, NewSchedule(43, 30, 50, false).Faults) {
		t.Fatal("two seeds drew one schedule")
	}
}

func TestSkippedKindsLeaveTheRestOfTheDraw(t *testing.T) {
	all, some := NewSchedule(9, 3, 12, true), NewSchedule(9, 3, 12, true, TopicRecreated)
	var kept []Fault
	for _, f := range all.Faults {
		if f.Kind != TopicRecreated {
			kept = append(kept, f)
		}
	}
	if !reflect.DeepEqual(kept, some.Faults) {
		t.Fatalf("skipping a kind changed the other faults:\n%v\n%v", kept, some.Faults)
	}
}
