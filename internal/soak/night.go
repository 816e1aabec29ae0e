package soak

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/actionstate/terraform-provider-flinkagents/internal/opaeval"
	"github.com/actionstate/terraform-provider-flinkagents/internal/soak/invariant"
)

// night runs night n: the jobs' day, the pipeline with the night's faults,
// healing, at most one pipeline without faults, the plan that must then be
// clean, and the invariants.
func (s *Soak) night(ctx context.Context, n int) error {
	start := time.Now()
	fmt.Fprintf(s.out, "night %d\n", n)
	t := &tonight{n: n, faults: s.sched.Night(n), did: map[int]string{}}
	ns := NightSummary{Night: n}
	if err := s.day(ctx, n); err != nil {
		return err
	}
	if err := s.beforePlan(ctx, t); err != nil {
		return err
	}
	var failed []invariant.Violation
	res, err := s.pipeline(ctx, fmt.Sprintf("night-%02d", n), t)
	if err != nil {
		return err
	}
	ns.Pipeline = res.describe()
	fmt.Fprintf(s.out, "    pipeline: %s\n", ns.Pipeline)
	if err := s.heal(ctx, t); err != nil {
		return err
	}
	// The nightly apply's settings, once its faults are over; a second
	// applier's target may have gained its first boundary from the tool
	// after the apply rendered, so it is left out.
	for _, r := range res.rendered {
		failed = append(failed, s.checkRendering(ctx, r, s.secondApplierTargets(t))...)
	}
	if err := s.remediate(ctx, t); err != nil {
		return err
	}
	settledBy := res
	if t.struck() || !res.ok {
		rec, err := s.pipeline(ctx, fmt.Sprintf("night-%02d-recovery", n), nil)
		if err != nil {
			return err
		}
		ns.Recovery = rec.describe()
		fmt.Fprintf(s.out, "    recovery pipeline (no faults): %s\n", ns.Recovery)
		for _, r := range rec.rendered {
			failed = append(failed, s.checkRendering(ctx, r, nil)...)
		}
		settledBy = rec
	}
	if !settledBy.ok {
		failed = append(failed, invariant.Violation{Invariant: "d", Detail: "the pipeline without faults failed: " + settledBy.describe()})
	}
	if err := s.compactTonight(ctx, t); err != nil {
		return err
	}
	s.recap(t, &ns)
	if s.cfg.Sabotage && n == s.cfg.Nights {
		if err := s.sabotage(ctx); err != nil {
			return err
		}
	}
	report, err := s.judge(ctx, n, &ns)
	if err != nil {
		return err
	}
	report.Violations = append(failed, report.Violations...)
	for k, v := range report.Checks {
		s.summary.Checks[k] += v
		ns.Checks += v
	}
	ns.Notes = report.Notes
	ns.Seconds = time.Since(start).Seconds()
	for _, v := range report.Violations {
		ns.Violations = append(ns.Violations, v.String())
		s.summary.Violations = append(s.summary.Violations, fmt.Sprintf("night %d: %s", n, v))
	}
	s.summary.NightsRun = append(s.summary.NightsRun, ns)
	fmt.Fprintf(s.out, "    invariants: %d checks, %d violations; night took %.0f s\n", ns.Checks, len(report.Violations), ns.Seconds)
	for _, v := range report.Violations {
		fmt.Fprintf(s.out, "    VIOLATION %s\n", v)
	}
	if len(report.Violations) > 0 && !s.cfg.KeepGoing {
		return fmt.Errorf("%w (work directory %s kept; replay with SOAK_SEED=%d)", ErrViolation, s.cfg.Dir, s.cfg.Seed)
	}
	if len(report.Violations) == 0 {
		return s.tf.compressLogs()
	}
	return nil
}

// day is the jobs' day: those that joined last night start, every job
// writes and checkpoints, and the configuration names tonight's fleet.
func (s *Soak) day(ctx context.Context, n int) error {
	if err := s.startJobs(ctx, n-1); err != nil {
		return err
	}
	for _, j := range s.jobs {
		if err := j.night(ctx, n, s.cfg.Seed, s.records, s.st, s.tmp); err != nil {
			return err
		}
	}
	return s.writeVars(n)
}

// recap counts and prints what each of the night's faults did.
func (s *Soak) recap(t *tonight, ns *NightSummary) {
	for i, f := range t.faults {
		if what, ok := t.did[i]; ok {
			s.summary.Faults[f.Kind]++
			ns.Faults = append(ns.Faults, fmt.Sprintf("%s: %s", f.Kind, what))
		} else {
			s.summary.NotFired[f.Kind]++
			ns.Faults = append(ns.Faults, fmt.Sprintf("%s: did not strike (its moment never came)", f.Kind))
		}
	}
	for _, line := range ns.Faults {
		fmt.Fprintf(s.out, "    fault %s\n", line)
	}
}

// judge runs the plan that must be clean after an apply without faults,
// reads the boundaries' status and the jobs' settings as that plan's
// refresh sees them (the state's outputs when the plan failed) and has the
// checker check every invariant.
func (s *Soak) judge(ctx context.Context, n int, ns *NightSummary) (invariant.Report, error) {
	clean, err := s.tf.exec(ctx, fmt.Sprintf("night-%02d-check-plan", n),
		[]string{"plan", "-input=false", "-no-color", "-detailed-exitcode", "-lock-timeout=5m", "-out=check.tfplan"})
	if err != nil {
		return invariant.Report{}, err
	}
	ns.PlanExit = clean.code
	label := "settings rendered in the state at night's end"
	var statuses map[string]string
	var final map[string]map[string]string
	if clean.code == 0 || clean.code == 2 {
		label = "settings rendered by the clean plan's refresh"
		file := filepath.Join(s.cfg.Dir, "logs", fmt.Sprintf("night-%02d-check-plan.json", n))
		if err := s.capture(ctx, file, s.cfg.Terraform, "show", "-json", "-no-color", "check.tfplan"); err != nil {
			return invariant.Report{}, err
		}
		statuses, final, err = readOutputs(file, "planned_values", "outputs")
	} else {
		file := filepath.Join(s.cfg.Dir, "logs", fmt.Sprintf("night-%02d-state.json", n))
		if err := s.capture(ctx, file, s.cfg.Terraform, "output", "-json", "-no-color"); err != nil {
			return invariant.Report{}, err
		}
		statuses, final, err = readOutputs(file)
	}
	if err != nil {
		return invariant.Report{}, err
	}
	end := rendering{label: label, settings: final}
	failed := s.checkRendering(ctx, end, nil)
	report, err := s.checker.Check(ctx, invariant.Night{Number: n, Jobs: s.checkedJobs(end), Settled: true,
		PlanExitCode: clean.code, Statuses: statuses})
	if err != nil {
		return report, err
	}
	report.Violations = append(failed, report.Violations...)
	if clean.code != 0 {
		report.Violations = append(report.Violations, invariant.Violation{Invariant: "d",
			Detail: "the plan's output: " + tailOf(clean.out, 30)})
	}
	return report, nil
}

// checkedJobs is every running job as the checker sees it, with the
// settings of r.
func (s *Soak) checkedJobs(r rendering) []invariant.Job {
	jobs := make([]invariant.Job, 0, len(s.jobs))
	for _, j := range s.jobs {
		if !j.running {
			continue
		}
		var sets []invariant.Settings
		if v, ok := r.settings[j.key]; ok {
			sets = append(sets, invariant.Settings{Label: r.label, Values: v})
		}
		jobs = append(jobs, j.forChecker(sets))
	}
	return jobs
}

// checkRendering checks (e) for one apply's settings, leaving out the
// operators in skip.
func (s *Soak) checkRendering(ctx context.Context, r rendering, skip []string) []invariant.Violation {
	var jobs []invariant.Job
	for _, j := range s.checkedJobs(r) {
		if !slices.Contains(skip, j.Operator) {
			jobs = append(jobs, j)
		}
	}
	rep := s.checker.CheckRendering(ctx, r.label, jobs, r.settings)
	for k, v := range rep.Checks {
		s.summary.Checks[k] += v
	}
	return rep.Violations
}

// rendering is the job settings one apply rendered, by operator.
type rendering struct {
	label    string
	settings map[string]map[string]string
}

// pipelineResult is how far a run of the pipeline got.
type pipelineResult struct {
	ok       bool
	stage    string // the stage that failed
	detail   string
	runs     []run
	rendered []rendering
}

func (r pipelineResult) describe() string {
	var parts []string
	for _, x := range r.runs {
		p := fmt.Sprintf("%s %d (%.0f s)", x.name, x.code, x.elapsed.Seconds())
		if x.killed != "" {
			p += " [" + x.killed + "]"
		}
		parts = append(parts, p)
	}
	if r.ok && r.detail != "" {
		return fmt.Sprintf("ok (%s): %s", r.detail, strings.Join(parts, ", "))
	}
	if r.ok {
		return "ok: " + strings.Join(parts, ", ")
	}
	return fmt.Sprintf("stopped at %s: %s; %s", r.stage, strings.Join(parts, ", "), r.detail)
}

// pipeline runs the guide's pipeline: plan -out, show -json, the policy
// gate, apply of the saved plan. With t, the night's faults strike in it.
func (s *Soak) pipeline(ctx context.Context, label string, t *tonight) (pipelineResult, error) {
	var res pipelineResult
	plan, err := s.tf.exec(ctx, label+"-plan", []string{"plan", "-input=false", "-no-color", "-lock-timeout=5m", "-out=tfplan"})
	if err != nil {
		return res, err
	}
	res.runs = append(res.runs, plan)
	if t != nil {
		if err := s.afterPlan(ctx, t); err != nil {
			return res, err
		}
	}
	if plan.code != 0 {
		res.stage, res.detail = "plan", tailOf(plan.out, 20)
		return res, nil
	}
	planJSON := filepath.Join(s.cfg.Dir, "logs", label+"-tfplan.json")
	if err := s.capture(ctx, planJSON, s.cfg.Terraform, "show", "-json", "-no-color", "tfplan"); err != nil {
		res.stage, res.detail = "show", err.Error()
		return res, nil
	}
	deny, err := s.gate(ctx, planJSON)
	if err != nil {
		return res, err
	}
	if approved := s.review(deny); len(approved) > 0 {
		res.detail = "approved after review: " + strings.Join(approved, ", ")
		if deny, err = s.gate(ctx, planJSON); err != nil {
			return res, err
		}
	}
	if len(deny) > 0 {
		res.stage, res.detail = "policy gate", strings.Join(deny, "; ")
		return res, nil
	}
	var triggers []trigger
	if t != nil {
		if triggers, err = s.applyTriggers(ctx, t); err != nil {
			return res, err
		}
	}
	apply, err := s.tf.exec(ctx, label+"-apply", []string{"apply", "-input=false", "-no-color", "-lock-timeout=5m", "tfplan"}, triggers...)
	if err != nil {
		return res, err
	}
	res.runs = append(res.runs, apply)
	if apply.code != 0 {
		res.stage, res.detail = "apply", tailOf(apply.out, 20)
		return res, nil
	}
	_, rendered, err := s.outputs(ctx, label+"-outputs")
	if err != nil {
		return res, err
	}
	res.ok, res.rendered = true, []rendering{{label: "settings rendered by " + label + "-apply", settings: rendered}}
	return res, nil
}

// gate evaluates examples/policies over the plan's JSON with the opa CLI,
// as the guide's conftest step does, and returns what it denies.
// The approvals are the soak's own copy of examples/policies/approvals.json,
// which review adds to.
func (s *Soak) gate(ctx context.Context, planJSON string) ([]string, error) {
	policies := filepath.Join(s.cfg.Root, "examples", "policies")
	results, err := opaeval.Deny(ctx, s.cfg.OPA, planJSON,
		filepath.Join(policies, "policy"), s.approvals.file, filepath.Join(policies, "params.json"))
	if err != nil {
		return nil, err
	}
	var deny []string
	for _, r := range results {
		for _, values := range r {
			deny = append(deny, values...)
		}
	}
	return deny, nil
}

// outputs reads the fleet's outputs from the state after an apply: each
// boundary's status and each job's rendered settings, by operator.
func (s *Soak) outputs(ctx context.Context, label string) (map[string]string, map[string]map[string]string, error) {
	file := filepath.Join(s.cfg.Dir, "logs", label+".json")
	if err := s.capture(ctx, file, s.cfg.Terraform, "output", "-json", "-no-color"); err != nil {
		return nil, nil, err
	}
	return readOutputs(file)
}

// readOutputs reads the fleet's outputs from the JSON of `terraform output
// -json`, or, with a path (planned_values, outputs), of `terraform show
// -json` of a saved plan.
func readOutputs(file string, path ...string) (map[string]string, map[string]map[string]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	for _, key := range path {
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", file, err)
		}
		data = doc[key]
	}
	var out struct {
		Boundaries struct {
			Value map[string]struct {
				Status string `json:"status"`
			} `json:"value"`
		} `json:"boundaries"`
		AgentConfig struct {
			Value map[string]map[string]string `json:"value"`
		} `json:"agent_config"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, nil, fmt.Errorf("the outputs in %s: %w", file, err)
	}
	statuses := map[string]string{}
	for k, b := range out.Boundaries.Value {
		statuses[k] = b.Status
	}
	return statuses, out.AgentConfig.Value, nil
}

// capture runs a command in the fleet's directory with terraform's
// environment, its stdout into file.
func (s *Soak) capture(ctx context.Context, file, bin string, args ...string) error {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = s.tf.dir, append(os.Environ(), s.tf.env...)
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		return fmt.Errorf("%s %s: %v: %s", filepath.Base(bin), strings.Join(args, " "), err, stderr)
	}
	return os.WriteFile(file, out, 0o644)
}

// tailOf is the last n lines of a file, for reports.
func tailOf(file string, n int) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// Summary is a run's figures, written to summary.json and quoted in
// RELIABILITY.md.
type Summary struct {
	Seed       uint64
	Nights     int
	Operators  int
	Partitions int
	Seconds    float64
	Result     string
	Faults     map[Kind]int // struck, by kind
	NotFired   map[Kind]int // scheduled, but their moment never came
	Checks     map[string]int
	Violations []string
	NightsRun  []NightSummary
}

// NightSummary is one night's outcome.
type NightSummary struct {
	Night      int
	Seconds    float64
	Faults     []string
	Pipeline   string
	Recovery   string
	PlanExit   int
	Checks     int
	Violations []string
	Notes      []string
}

func (s Summary) print(w interface{ Write([]byte) (int, error) }) {
	fmt.Fprintf(w, "\nsoak summary: seed %d, %d of %d nights, %d operators x %d partitions, %.0f s\n",
		s.Seed, len(s.NightsRun), s.Nights, s.Operators, s.Partitions, s.Seconds)
	fmt.Fprintln(w, "  faults struck, by kind:")
	for _, k := range Kinds {
		fmt.Fprintf(w, "    %-32s %3d", k, s.Faults[k])
		if s.NotFired[k] > 0 {
			fmt.Fprintf(w, "   (%d scheduled did not strike)", s.NotFired[k])
		}
		fmt.Fprintln(w)
	}
	if s.Faults[Churn] > 0 {
		fmt.Fprintf(w, "    %-32s %3d\n", Churn, s.Faults[Churn])
	}
	fmt.Fprintln(w, "  invariant checks:")
	for _, k := range slices.Sorted(maps.Keys(s.Checks)) {
		fmt.Fprintf(w, "    (%s) %d\n", k, s.Checks[k])
	}
	fmt.Fprintf(w, "  violations: %d\n", len(s.Violations))
	for _, v := range s.Violations {
		fmt.Fprintf(w, "    %s\n", v)
	}
	fmt.Fprintf(w, "  result: %s\n", s.Result)
}
