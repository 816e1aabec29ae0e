//go:build interop

package agentfleet_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/emulators"
)

// TestAccScheduledCleanupPipeline runs the scheduled-cleanup guide's nightly
// pipeline (plan -detailed-exitcode, show -json, the policy gate, apply) for
// seven nights over a fleet of 20 operators, each following its job's
// checkpoint directory through agent-fleet, while the jobs write records
// and Flink completes and retires checkpoints:
//
//	1  every job completes its first checkpoints: every boundary is recorded
//	2  the checkpoints churn: every boundary advances
//	3  one job's oldest point is cut short: it is skipped, the others advance
//	4  an operator joins (no checkpoint yet) and another leaves
//	5  the newcomer's first boundary is refused by its control topic: it is
//	   held, the others advance, and its job is not told to enforce it
//	6  the refusal is gone: the newcomer gets its boundary
//	7  nothing new arrives: nothing is planned, nothing warns
//
// Each night it checks the exact set of boundaries that change, the plan's
// exit code, the warnings (none on a healthy night), the gate, that the plan
// right after the apply is empty and reports nothing changed outside
// Terraform, that each boundary sits exactly at its job's oldest retained
// point, and, through the runtime's restore check (the interop CLI), that
// every retained point of every job can still be restored under the job
// settings the module renders.
func TestAccScheduledCleanupPipeline(t *testing.T) {
	e := acctest.NewInProcess(t)
	p := newPipeline(t, e, 20)

	// The rollout: topics first; jobs start and have no checkpoint yet.
	p.night(t, nightWant{exit: 2, changed: p.keys(), warnings: p.noPointYet(p.keys()...), skipGate: "creates the fleet's topics"})

	p.jobsRun(t, p.keys()...)
	p.night(t, nightWant{exit: 2, changed: p.keys()})

	p.jobsRun(t, p.keys()...)
	p.night(t, nightWant{exit: 2, changed: p.keys()})

	p.jobsRun(t, p.keys()...)
	p.cut(t, "op-03")
	p.night(t, nightWant{exit: 2, changed: without(p.keys(), "op-03"), warnings: []string{`Job "op-03": Skipped:`}})

	p.jobsRun(t, p.keys()...)
	p.leave("op-19")
	p.join("op-20")
	p.night(t, nightWant{exit: 2, changed: append(without(p.keys(), "op-20"), "op-19", "op-20"),
		warnings: append(p.noPointYet("op-20"), "Cleanup Boundaries Are Permanent"), applyWarnings: []string{"Cleanup Boundaries Are Permanent"},
		denied: []string{`[no-destroy] module.fleet.flinkagents_action_state_topics.this["op-19"].action_state_topic`, `[no-destroy] module.fleet.flinkagents_action_state_topics.this["op-19"].control_topic`}})

	p.jobsRun(t, p.keys()...)
	p.refuseWrites(t, p.control("op-20"))
	p.night(t, nightWant{exit: 2, changed: p.keys(), applyWarnings: []string{`Boundary "op-20" Held:`}, pendingAfter: []string{"op-20"}})

	p.refuseWrites(t, "")
	p.jobsRun(t, p.keys()...)
	p.night(t, nightWant{exit: 2, changed: p.keys()})

	p.night(t, nightWant{exit: 0})
}

// nightWant is what one night of the pipeline must show.
type nightWant struct {
	exit     int      // of terraform plan -detailed-exitcode
	changed  []string // the operators whose boundary entry the plan changes
	warnings []string // the start of each warning's summary in the plan, in any order
	// applyWarnings: the same for the apply.
	applyWarnings []string
	denied        []string // what the gate denies (a person approves it)
	skipGate      string   // why the gate is not run this night
	// pendingAfter: operators whose boundary the apply left to do, so the
	// plan right after it is not empty for them.
	pendingAfter []string
}

// pipeline is the fleet: its working directory, its jobs and what they
// checkpointed.
type pipeline struct {
	e      *acctest.Env
	w      *acctest.Workdir
	prefix string
	root   string // the jobs' checkpoint directories
	ops    map[string]*job
	// refusing names the control topic whose writes the broker refuses.
	refusing atomic.Value
	jar      string
	// cutPoints are the points cut short, by path.
	cutPoints map[string]bool
	nights    int
}

// job is one Flink job: the checkpoints it retains, with the markers each
// holds, as Flink keeps the newest two.
type job struct {
	next     int64
	retained []point
}

type point struct {
	path    string
	markers map[int32]int64
}

const (
	pipelineParts = 2
	perNight      = 5 // records per partition a job writes per checkpoint
	inFlight      = 3 // records above a checkpoint's markers, not yet processed
)

func newPipeline(t *testing.T, e *acctest.Env, n int) *pipeline {
	jar := os.Getenv("FLINKAGENTS_INTEROP_JAR")
	if jar == "" {
		t.Fatal("FLINKAGENTS_INTEROP_JAR is not set: run `make interop-jar` and point it at interop/java/target/flinkagents-interop.jar (make test does)")
	}
	p := &pipeline{e: e, w: e.Workdir(), prefix: e.Name("nightly"), root: t.TempDir(), ops: map[string]*job{}, jar: jar, cutPoints: map[string]bool{}}
	p.refusing.Store(refusal{})
	for i := range n {
		p.join(fmt.Sprintf("op-%02d", i))
	}
	// The broker refuses every write to one control topic while told to,
	// as it does a principal without WRITE on it.
	e.Cluster.ControlKey(int16(kmsg.Produce), func(kreq kmsg.Request) (kmsg.Response, error, bool) {
		e.Cluster.KeepControl()
		req := kreq.(*kmsg.ProduceRequest)
		victim := p.refusing.Load().(refusal)
		if victim.name == "" || !slices.ContainsFunc(req.Topics, func(t kmsg.ProduceRequestTopic) bool { return t.Topic == victim.name || t.TopicID == victim.id }) {
			return nil, nil, false
		}
		resp := req.ResponseKind().(*kmsg.ProduceResponse)
		for _, rt := range req.Topics {
			topic := kmsg.NewProduceResponseTopic()
			topic.Topic = rt.Topic
			for _, rp := range rt.Partitions {
				part := kmsg.NewProduceResponseTopicPartition()
				part.Partition, part.ErrorCode = rp.Partition, kerr.TopicAuthorizationFailed.Code
				topic.Partitions = append(topic.Partitions, part)
			}
			topic.TopicID = rt.TopicID
			resp.Topics = append(resp.Topics, topic)
		}
		return resp, nil, true
	})
	p.writeConfig()
	p.w.Terraform("init")
	t.Cleanup(func() { p.w.Terraform("destroy", "-auto-approve") })
	return p
}

func (p *pipeline) keys() []string { return slices.Sorted(maps.Keys(p.ops)) }

func (p *pipeline) topic(op, kind string) string { return fmt.Sprintf("%s-%s-%s", p.prefix, op, kind) }
func (p *pipeline) control(op string) string     { return p.topic(op, "cleanup-control") }
func (p *pipeline) dir(op string) string         { return filepath.Join(p.root, op) }

// join adds an operator whose job has not checkpointed yet.
func (p *pipeline) join(op string) {
	p.ops[op] = &job{next: 1}
	_ = os.MkdirAll(p.dir(op), 0o755)
	p.writeConfig()
}

// leave removes an operator from the fleet (its job was retired).
func (p *pipeline) leave(op string) {
	delete(p.ops, op)
	p.writeConfig()
}

// refusal names the topic whose writes the broker refuses (Produce names
// a topic by name, or from version 13 by ID).
type refusal struct {
	name string
	id   [16]byte
}

// refuseWrites makes the broker refuse every write to control ("": none).
func (p *pipeline) refuseWrites(t *testing.T, control string) {
	t.Helper()
	r := refusal{name: control}
	if control != "" {
		d, err := p.e.Admin.DescribeTopic(context.Background(), control)
		if err != nil {
			t.Fatal(err)
		}
		r.id = [16]byte(d.ID)
	}
	p.refusing.Store(r)
}

func (p *pipeline) writeConfig() {
	var ops strings.Builder
	for _, op := range p.keys() {
		fmt.Fprintf(&ops, "    %q = { checkpoint_dir = %q }\n", op, "file:"+p.dir(op))
	}
	p.w.Write("main.tf", fmt.Sprintf(`
%s
module "fleet" {
  source = %q

  prefix              = %q
  partitions          = %d
  deletion_protection = false
  operators = {
%s  }
}

output "settings" {
  value = { for k, c in module.fleet.agent_config : k => c.settings }
}
`, p.e.CLIProvider(), p.w.ModuleSource("."), p.prefix, pipelineParts, ops.String()))
}

// jobsRun is a day of the jobs: each writes records and completes two
// checkpoints, whose markers trail its log by a few records, and Flink
// retires all but the newest two (state.checkpoints.num-retained 2), so
// the oldest retained point moves every day.
func (p *pipeline) jobsRun(t *testing.T, ops ...string) {
	t.Helper()
	for _, op := range ops {
		for range 2 {
			p.checkpoint(t, op)
		}
	}
}

// checkpoint writes records to op's topic and completes a checkpoint.
func (p *pipeline) checkpoint(t *testing.T, op string) {
	t.Helper()
	j := p.ops[op]
	data := p.topic(op, "action-state")
	p.e.Produce(data, pipelineParts, perNight)
	d, err := p.e.Admin.DescribeTopic(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	ends, err := p.e.Admin.EndOffsets(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	markers := map[int32]int64{}
	for part, end := range ends {
		markers[part] = end - inFlight
	}
	pt := point{path: filepath.Join(p.dir(op), fmt.Sprintf("chk-%d", j.next)), markers: markers}
	spec := checkpoint.SavepointSpec{MetadataVersion: 5, CheckpointID: j.next, OperatorUID: "action-execute-operator",
		Markers: [][]checkpoint.Marker{{{SchemaVersion: 1, Topic: data, TopicID: d.ID.String(), Offsets: markers}}}}
	if err := checkpoint.WriteSavepoint(pt.path, spec); err != nil {
		t.Fatal(err)
	}
	j.next++
	j.retained = append(j.retained, pt)
	for len(j.retained) > 2 {
		if err := os.RemoveAll(j.retained[0].path); err != nil {
			t.Fatal(err)
		}
		j.retained = j.retained[1:]
	}
}

// cut shortens the _metadata of op's oldest retained point by a byte, as
// a partial copy would.
func (p *pipeline) cut(t *testing.T, op string) {
	t.Helper()
	p.cutPoints[p.ops[op].retained[0].path] = true
	file := filepath.Join(p.ops[op].retained[0].path, "_metadata")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b[:len(b)-1], 0o644); err != nil {
		t.Fatal(err)
	}
}

// noPointYet is the warning of each job that has not checkpointed yet.
func (p *pipeline) noPointYet(ops ...string) []string {
	var w []string
	for _, op := range ops {
		w = append(w, fmt.Sprintf("Job %q: No Recovery Point To Follow Yet", op))
	}
	return w
}

var warningLine = regexp.MustCompile(`(?m)^Warning: (.*)$`)

// warningsOf lists the summaries of the warnings in a command's output.
func warningsOf(out string) []string {
	var warned []string
	for _, m := range warningLine.FindAllStringSubmatch(out, -1) {
		warned = append(warned, m[1])
	}
	return warned
}

// night runs the pipeline once and checks it as want says.
func (p *pipeline) night(t *testing.T, want nightWant) {
	t.Helper()
	p.nights++
	t.Logf("night %d", p.nights)
	out, code := p.terraform(t, "plan", "-detailed-exitcode", "-out=tfplan")
	if code != want.exit {
		t.Fatalf("plan -detailed-exitcode exited %d, want %d:\n%s", code, want.exit, out)
	}
	if warned := warningsOf(out); !matchAll(warned, want.warnings) {
		t.Errorf("warnings %q, want one starting with each of %q:\n%s", warned, want.warnings, out)
	}
	shown := p.w.Terraform("show", "-json", "tfplan")
	if changed := changedEntries(t, shown); !reflect.DeepEqual(changed, sorted(want.changed)) {
		t.Errorf("the plan changes the boundaries of %q, want %q", changed, sorted(want.changed))
	}
	if want.skipGate == "" {
		if denied := p.gate(t, shown); !matchAll(denied, want.denied) {
			t.Errorf("the gate denied %q, want %q", denied, want.denied)
		}
	}
	if code == 0 {
		return
	}
	applied, _ := p.terraform(t, "apply", "tfplan")
	if got := warningsOf(applied); !matchAll(got, want.applyWarnings) {
		t.Errorf("apply warnings %q, want one starting with each of %q:\n%s", got, want.applyWarnings, applied)
	}

	after, code := p.terraform(t, "plan", "-detailed-exitcode", "-out=tfplan")
	if strings.Contains(after, "changed outside of Terraform") {
		t.Errorf("the plan right after the apply reports changes outside Terraform:\n%s", after)
	}
	wantAfter := 0
	if len(want.pendingAfter) > 0 {
		wantAfter = 2
	}
	if code != wantAfter {
		t.Errorf("the plan right after the apply exited %d, want %d:\n%s", code, wantAfter, after)
	}
	if code == 2 {
		if changed := changedEntries(t, p.w.Terraform("show", "-json", "tfplan")); !reflect.DeepEqual(changed, sorted(want.pendingAfter)) {
			t.Errorf("right after the apply the plan changes the boundaries of %q, want %q", changed, sorted(want.pendingAfter))
		}
	}
	p.checkBoundaries(t, want.pendingAfter)
	p.checkRestores(t)
}

// terraform runs one command and returns its output and exit code.
func (p *pipeline) terraform(t *testing.T, args ...string) (string, int) {
	t.Helper()
	start := time.Now()
	defer func() { t.Logf("terraform %s: %.1fs", args[0], time.Since(start).Seconds()) }()
	out, err := p.w.TerraformErr(args...)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), 0
	case errors.As(err, &exit):
		return string(out), exit.ExitCode()
	}
	t.Fatalf("terraform %s: %v", strings.Join(args, " "), err)
	return "", 0
}

// checkBoundaries: every job that has checkpointed and is not pending had
// its records deleted exactly up to its oldest retained point, except a
// job whose oldest point could not be read (its boundary stays lower).
func (p *pipeline) checkBoundaries(t *testing.T, pending []string) {
	t.Helper()
	for _, op := range p.keys() {
		j := p.ops[op]
		if len(j.retained) == 0 || slices.Contains(pending, op) {
			continue
		}
		starts := p.e.StartOffsets(p.topic(op, "action-state"))
		oldest := j.retained[0].markers
		for part, start := range starts {
			if start > oldest[part] {
				t.Errorf("%s partition %d starts at %d, above its oldest retained point's marker %d", op, part, start, oldest[part])
			}
			if start < oldest[part] && !p.skipped(op) {
				t.Errorf("%s partition %d starts at %d, below its oldest retained point's marker %d: not cleaned", op, part, start, oldest[part])
			}
		}
	}
}

// skipped: op's oldest retained point is the one cut short.
func (p *pipeline) skipped(op string) bool { return p.cutPoints[p.ops[op].retained[0].path] }

// checkRestores runs the runtime's restore check for every retained point
// of every job under the settings the module renders for it now, and a
// start without a marker for every job whose configuration names its
// control topic (refused: its boundary is committed).
func (p *pipeline) checkRestores(t *testing.T) {
	t.Helper()
	var settings map[string]map[string]string
	p.w.Output("settings", &settings)
	type check struct {
		Name          string            `json:"name"`
		Settings      map[string]string `json:"settings"`
		MarkerTopic   string            `json:"markerTopic,omitempty"`
		MarkerTopicID string            `json:"markerTopicId,omitempty"`
		Marker        map[string]int64  `json:"marker"`
	}
	checks := []check{}
	for _, op := range p.keys() {
		data := p.topic(op, "action-state")
		d, err := p.e.Admin.DescribeTopic(context.Background(), data)
		if err != nil {
			t.Fatal(err)
		}
		for i, pt := range p.ops[op].retained {
			m := map[string]int64{}
			for part, off := range pt.markers {
				m[fmt.Sprint(part)] = off
			}
			checks = append(checks, check{Name: fmt.Sprintf("%s/%d", op, i), Settings: settings[op], MarkerTopic: data, MarkerTopicID: d.ID.String(), Marker: m})
		}
		if _, named := settings[op]["kafkaActionStateCleanupControlTopic"]; named {
			checks = append(checks, check{Name: op + "/no-marker", Settings: settings[op]})
		}
	}
	file := filepath.Join(t.TempDir(), "checks.json")
	b, err := json.Marshal(checks)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	defer func() { t.Logf("restore checks: %d in %.1fs", len(checks), time.Since(start).Seconds()) }()
	out, err := exec.Command("java", "-jar", p.jar, "restore-check-batch", "--bootstrap", strings.Join(p.e.Brokers, ","),
		"--checks", file, "--timeout-ms", "20000").CombinedOutput()
	if err != nil {
		t.Fatalf("restore-check-batch: %v\n%s", err, out)
	}
	verdicts := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if name, verdict, ok := strings.Cut(line, " "); ok {
			verdicts[name] = verdict
		}
	}
	for _, c := range checks {
		v := verdicts[c.Name]
		switch {
		case strings.HasSuffix(c.Name, "/no-marker"):
			if !strings.Contains(v, "without a recovery marker") {
				t.Errorf("%s: a start without a marker under the rendered settings: %q, want the runtime's refusal", c.Name, v)
			}
		case v != "accepted":
			t.Errorf("retained point %s (markers %v) cannot be restored under the rendered settings: %q", c.Name, c.Marker, v)
		}
	}
}

// gate is the guide's policy gate: the deny rules of examples/policies over
// the saved plan.
func (p *pipeline) gate(t *testing.T, shown []byte) []string {
	t.Helper()
	policies, err := filepath.Glob("../../policies/policy/*.rego")
	if err != nil || len(policies) == 0 {
		t.Fatalf("no policies in examples/policies/policy: %v", err)
	}
	input := filepath.Join(t.TempDir(), "tfplan.json")
	if err := os.WriteFile(input, shown, 0o600); err != nil {
		t.Fatal(err)
	}
	return emulators.OPADeny(t, input, append([]string{"../../policies/params.json", "../../policies/approvals.json"}, policies...)...)
}

// changedEntries lists the operators whose boundary entry a saved plan
// (terraform show -json) changes, adds or removes.
func changedEntries(t *testing.T, shown []byte) []string {
	t.Helper()
	var plan struct {
		ResourceChanges []struct {
			Type   string `json:"type"`
			Change struct {
				Before, After *struct {
					Boundaries map[string]any `json:"boundaries"`
				}
				AfterUnknown map[string]any `json:"after_unknown"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal(shown, &plan); err != nil {
		t.Fatal(err)
	}
	changed := []string{}
	for _, rc := range plan.ResourceChanges {
		if rc.Type != "flinkagents_cleanup_boundaries" {
			continue
		}
		var before, after map[string]any
		if rc.Change.Before != nil {
			before = rc.Change.Before.Boundaries
		}
		if rc.Change.After != nil {
			after = rc.Change.After.Boundaries
		}
		unknown, _ := rc.Change.AfterUnknown["boundaries"].(map[string]any)
		for _, k := range sorted(append(slices.Collect(maps.Keys(before)), slices.Collect(maps.Keys(after))...)) {
			if !reflect.DeepEqual(before[k], after[k]) || hasUnknown(unknown[k]) {
				changed = append(changed, k)
			}
		}
	}
	return slices.Compact(changed)
}

func hasUnknown(v any) bool {
	switch u := v.(type) {
	case bool:
		return u
	case map[string]any:
		for _, x := range u {
			if hasUnknown(x) {
				return true
			}
		}
	}
	return false
}

// matchAll: got and want pair up one to one, each got starting with its want.
func matchAll(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	left := slices.Clone(got)
	for _, w := range want {
		i := slices.IndexFunc(left, func(g string) bool { return strings.HasPrefix(g, w) })
		if i < 0 {
			return false
		}
		left = slices.Delete(left, i, i+1)
	}
	return true
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	if out == nil {
		out = []string{}
	}
	return slices.Compact(out)
}

func without(s []string, drop string) []string {
	return slices.DeleteFunc(slices.Clone(s), func(x string) bool { return x == drop })
}
