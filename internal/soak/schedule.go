package soak

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
)

// Kind is a kind of fault.
type Kind string

// The faults the soak injects (RELIABILITY.md describes each).
const (
	TerraformKill     Kind = "terraform-sigkill"
	ProviderKill      Kind = "provider-sigkill"
	ControlLeaderKill Kind = "broker-kill-control-leader"
	DataLeaderKill    Kind = "broker-kill-data-leader"
	Reassignment      Kind = "reassignment-in-progress"
	S3Slow            Kind = "s3-slow"
	S3Errors          Kind = "s3-5xx"
	S3Silent          Kind = "s3-silent"
	CheckpointCorrupt Kind = "checkpoint-corrupt"
	CheckpointCut     Kind = "checkpoint-cut"
	TopicRecreated    Kind = "topic-recreated"
	SecondApplier     Kind = "second-applier"
	ControlCompacted  Kind = "control-compacted"
	// Churn is no fault: jobs complete and retire checkpoints between the
	// plan and the apply, as Flink does at any moment.
	Churn Kind = "checkpoint-churn-mid-pipeline"
)

// Kinds lists every fault kind, in the order reports use.
var Kinds = []Kind{TerraformKill, ProviderKill, ControlLeaderKill, DataLeaderKill, Reassignment, S3Slow, S3Errors,
	S3Silent, CheckpointCorrupt, CheckpointCut, TopicRecreated, SecondApplier, ControlCompacted}

// exclusive groups kinds of which a night holds at most one: two kills of
// one apply, two brokers down at once (min.insync.replicas=2 of 3), two
// modes of the one store proxy.
var exclusive = [][]Kind{{TerraformKill, ProviderKill}, {ControlLeaderKill, DataLeaderKill}, {S3Slow, S3Errors, S3Silent}}

// Fault is one scheduled fault.
type Fault struct {
	Night    int
	Kind     Kind
	Operator int // index of the target operator
	// Partition is the target data partition (data leader kill,
	// reassignment of a data partition; -1: the control partition).
	Partition int32
	// Trigger says when, during the apply, a fault of the apply strikes:
	// on the Nth provider log line containing Line, Delay milliseconds
	// later; or, with Line empty, Delay milliseconds after the apply
	// starts.
	Line  string
	Nth   int
	Delay int
	// Scope of a store fault: a job's checkpoints ("" all of the store),
	// Rate the share of requests it hits; Which picks the checkpoint a
	// checkpoint fault damages (0 oldest .. 1 newest) and, for a recreated
	// topic, whether it strikes between plan and apply.
	AllJobs bool
	Rate    float64
	Which   float64
}

// applyLines are the provider's INFO lines at the steps of an apply
// (internal/cleanup's progress, logged by the boundary resources): a kill
// on "append COMMITTED" lands inside the control transaction.
var applyLines = []string{"cleanup: read control topic", "cleanup: check offsets are available",
	"cleanup: append COMMITTED", "cleanup: delete records", "cleanup: append APPLIED"}

// Schedule is every night's faults, drawn from the seed.
type Schedule struct {
	Seed   uint64
	Nights int
	Faults []Fault
	// Joins holds, by night, the operators that join the fleet then.
	Joins map[int][]int
	// Skipped are the kinds left out of this run (SOAK_SKIP).
	Skipped []Kind
}

// NewSchedule draws the faults of a run. With each set, every kind strikes
// once, spread over the nights (the short soak); otherwise every kind
// strikes at least once and each night draws more at random. Kinds in skip
// never strike (the draw is otherwise the same).
func NewSchedule(seed uint64, nights, operators int, each bool, skip ...Kind) Schedule {
	r := rand.New(rand.NewPCG(seed, 1))
	s := Schedule{Seed: seed, Nights: nights, Joins: map[int][]int{}, Skipped: skip}
	byNight := make([][]Kind, nights+1)
	place := func(k Kind, night int) bool {
		for _, g := range exclusive {
			if slices.Contains(g, k) && slices.ContainsFunc(byNight[night], func(o Kind) bool { return slices.Contains(g, o) }) {
				return false
			}
		}
		byNight[night] = append(byNight[night], k)
		return true
	}
	kinds := slices.Clone(Kinds)
	r.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
	// Every kind once: the least loaded night that can take it.
	for _, k := range kinds {
		order := r.Perm(nights)
		slices.SortStableFunc(order, func(a, b int) int { return len(byNight[a+1]) - len(byNight[b+1]) })
		for _, n := range order {
			if place(k, n+1) {
				break
			}
		}
	}
	if !each {
		for n := 1; n <= nights; n++ {
			if r.Float64() < 0.3 {
				continue // a quiet night keeps only what was placed above
			}
			for range r.IntN(3) {
				place(Kinds[r.IntN(len(Kinds))], n)
			}
			if r.Float64() < 0.2 {
				place(Churn, n)
			}
		}
		// A tenth of the fleet joins later, as teams add operators.
		for i := operators - 1; i >= operators-operators/10 && i > 0 && nights > 3; i-- {
			n := 2 + r.IntN(nights-2)
			s.Joins[n] = append(s.Joins[n], i)
		}
	} else {
		place(Churn, 1+r.IntN(nights))
		if operators > 1 && nights > 1 {
			s.Joins[2] = []int{operators - 1}
		}
	}
	joined := map[int]int{}
	for n, ops := range s.Joins {
		for _, o := range ops {
			joined[o] = n
		}
	}
	for n := 1; n <= nights; n++ {
		// A fault strikes an operator whose job runs by then: it joined
		// at least a night before.
		var running []int
		for o := range operators {
			if joined[o] < n {
				running = append(running, o)
			}
		}
		for _, k := range byNight[n] {
			if f := drawFault(r, n, k, running, each); !slices.Contains(skip, k) {
				s.Faults = append(s.Faults, f)
			}
		}
	}
	return s
}

// drawFault draws a fault's target and moment. The short soak (each)
// strikes early in the apply, on the first entries' first steps, so that
// every fault strikes even in a small fleet's short apply.
func drawFault(r *rand.Rand, night int, k Kind, running []int, each bool) Fault {
	operators := len(running)
	f := Fault{Night: night, Kind: k, Operator: running[r.IntN(operators)], Partition: -1, Nth: 1, Which: r.Float64()}
	switch k {
	case TerraformKill, ProviderKill, ControlLeaderKill, DataLeaderKill, SecondApplier:
		switch {
		case each:
			f.Line = applyLines[r.IntN(3)]
			f.Delay = r.IntN(100)
		case r.Float64() < 0.8:
			f.Line = applyLines[r.IntN(len(applyLines))]
			f.Nth = 1 + r.IntN(max(1, operators/4))
			f.Delay = r.IntN(300)
		default:
			f.Delay = 500 + r.IntN(6000)
		}
		if k == DataLeaderKill {
			f.Partition = 0
		}
	case Reassignment:
		if r.Float64() < 0.7 {
			f.Partition = 0
		}
	case S3Slow, S3Errors, S3Silent:
		f.AllJobs = r.Float64() < 0.3
		f.Rate = 0.3 + 0.7*r.Float64()
		if k == S3Silent && f.AllJobs {
			f.Rate = 0.1 + 0.2*r.Float64() // a store silent to every job stalls the whole plan: hit a share
		}
	}
	return f
}

// Night returns the faults of night n.
func (s Schedule) Night(n int) []Fault {
	var out []Fault
	for _, f := range s.Faults {
		if f.Night == n {
			out = append(out, f)
		}
	}
	return out
}

// Print writes the schedule in the form the soak's log and RELIABILITY.md
// show: one line per fault.
func (s Schedule) Print(w io.Writer, operatorName func(int) string) {
	fmt.Fprintf(w, "schedule (seed %d, %d nights, %d faults):\n", s.Seed, s.Nights, len(s.Faults))
	if len(s.Skipped) > 0 {
		fmt.Fprintf(w, "  left out of this run: %v\n", s.Skipped)
	}
	for n := 1; n <= s.Nights; n++ {
		if ops := s.Joins[n]; len(ops) > 0 {
			names := make([]string, len(ops))
			for i, o := range ops {
				names[i] = operatorName(o)
			}
			fmt.Fprintf(w, "  night %2d  operators join: %s\n", n, strings.Join(names, ", "))
		}
		for _, f := range s.Night(n) {
			fmt.Fprintf(w, "  night %2d  %s\n", n, f.describe(operatorName))
		}
	}
}

func (f Fault) describe(operatorName func(int) string) string {
	target := operatorName(f.Operator)
	switch f.Kind {
	case S3Slow, S3Errors, S3Silent:
		if f.AllJobs {
			target = "every job"
		}
		return fmt.Sprintf("%-30s %s, %.0f%% of requests, during the plan", f.Kind, target, 100*f.Rate)
	case CheckpointCorrupt, CheckpointCut:
		return fmt.Sprintf("%-30s %s, retained point at %.0f%% from the oldest", f.Kind, target, 100*f.Which)
	case TopicRecreated:
		when := "before the plan"
		if f.Which >= 0.5 {
			when = "between plan and apply"
		}
		return fmt.Sprintf("%-30s %s, %s", f.Kind, target, when)
	case Reassignment:
		what := "control partition"
		if f.Partition >= 0 {
			what = fmt.Sprintf("data partition %d", f.Partition)
		}
		return fmt.Sprintf("%-30s %s %s, throttled, during the apply", f.Kind, target, what)
	case ControlCompacted:
		return fmt.Sprintf("%-30s %s", f.Kind, target)
	case SecondApplier:
		who := "the runtime's tool (unfenced)"
		if f.Which >= 0.5 {
			who = "another Terraform workspace"
		}
		return fmt.Sprintf("%-30s %s, %s, %s", f.Kind, target, who, f.moment())
	case Churn:
		return fmt.Sprintf("%-30s a third of the jobs", f.Kind)
	}
	return fmt.Sprintf("%-30s %s, %s", f.Kind, target, f.moment())
}

func (f Fault) moment() string {
	if f.Line != "" {
		return fmt.Sprintf("%d ms after provider line #%d %q", f.Delay, f.Nth, f.Line)
	}
	return fmt.Sprintf("%d ms after the apply starts", f.Delay)
}
