package cleanup

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/fanout"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// Two fleets share one operator: two workspaces (or CI jobs) each apply
// their fleet's boundaries side by side through their own provider
// client, with the batched requests of a fleet (one producer per apply,
// shared DeleteRecords and control-log reads), and race on the shared
// entry's control topic. The fencing is per control topic, so batching
// must not weaken it: in every round exactly one of two crossing plans is
// recorded and its records deleted, the other fleet is refused for that
// entry only (fenced while committing, or a backward move when it read the
// winner's record first), every other entry of both fleets advances,
// and nothing readable is ever deleted past what the history records.
func TestTwoFleetsRaceOnOneEntry(t *testing.T) {
	f := newFleetEnvAnyBroker(t, 9, 3) // 0: shared; 1-4: fleet A only; 5-8: fleet B only
	ctx := context.Background()
	second := f.newClient()
	fleets := []struct {
		kafka   *kafkaops.Client
		members []int
	}{{f.kafka, []int{0, 1, 2, 3, 4}}, {second, []int{0, 5, 6, 7, 8}}}
	const rounds = 6
	f.produce(2 * (rounds + 1))
	wins := [2]int{}
	for round := range rounds {
		base := int64(2 * (round + 1))
		// The shared entry's plans cross: A's is ahead on partition 0, B's
		// on partition 1, so neither advances the other.
		planFor := func(fleet, op int) cleanupplan.Plan {
			offs := cleanupplan.Offsets{0: base, 1: base, 2: base}
			if op == 0 {
				offs[int32(fleet)] = base + 1
			}
			p, err := cleanupplan.New(fmt.Sprintf("file:/checkpoints/fleet-%d/chk-%d", fleet, round), f.datas[op], f.ids[op], offs)
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		errs := [2][]error{}
		fanout.Each(2, 2, func(fl int) {
			members := fleets[fl].members
			errs[fl] = make([]error, len(members))
			fanout.Each(len(members), 64, func(j int) {
				op := members[j]
				_, errs[fl][j] = Apply(ctx, fleets[fl].kafka, Request{Plan: planFor(fl, op), ControlTopic: f.controls[op]})
			})
		})
		won := -1
		for fl := range fleets {
			for j, op := range fleets[fl].members {
				err := errs[fl][j]
				switch {
				case op != 0 && err != nil:
					t.Fatalf("round %d: fleet %d, operator %d (not shared) failed: %v", round, fl, op, err)
				case op == 0 && err == nil:
					if won >= 0 {
						t.Fatalf("round %d: both fleets recorded crossing plans for the shared operator", round)
					}
					won = fl
				case op == 0 && !errors.Is(err, cleanupplan.ErrBackwardMove) && !errors.Is(err, kafkaops.ErrFenced):
					t.Fatalf("round %d: fleet %d refused for the shared operator with %v, want a backward move or fenced", round, fl, err)
				}
			}
		}
		if won < 0 {
			t.Fatalf("round %d: neither fleet advanced the shared operator: %v / %v", round, errs[0][0], errs[1][0])
		}
		wins[won]++
		log, err := History(ctx, f.kafka, f.controls[0])
		if err != nil {
			t.Fatalf("round %d: the shared control topic's history is no longer readable: %v", round, err)
		}
		starts, err := f.kafka.StartOffsets(ctx, f.datas[0])
		if err != nil {
			t.Fatal(err)
		}
		want := planFor(won, 0).Offsets
		for p, s := range starts {
			if b := log.Boundary()[p]; s != b || s != want[p] {
				t.Fatalf("round %d: shared partition %d starts at %d, history boundary %d, winner's plan %d", round, p, s, b, want[p])
			}
		}
		for _, op := range []int{1, 5} {
			if s, err := f.kafka.StartOffsets(ctx, f.datas[op]); err != nil || s[0] != base {
				t.Fatalf("round %d: operator %d starts at %v (%v), want %d", round, op, s, err, base)
			}
		}
	}
	t.Logf("the shared operator's race was won by fleet A %d times, fleet B %d times", wins[0], wins[1])
}
