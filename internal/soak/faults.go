package soak

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// tonight is what one night's faults left behind for healing, and what
// they did.
type tonight struct {
	n      int
	faults []Fault
	// did says, by index in faults, what each fault that struck did.
	did map[int]string
	mu  sync.Mutex
	// pending work the faults started: broker restarts, a second applier,
	// providers whose terraform was killed.
	background sync.WaitGroup
	errs       []error
	orphans    []int
	reassigned []reassignment
	recreated  []*job
}

func (t *tonight) record(i int, what string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.did[i] = strings.TrimPrefix(t.did[i]+"; "+what, "; ")
}

func (t *tonight) fail(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.errs = append(t.errs, err)
}

// struckKind reports whether a fault of kind k struck so far tonight.
func (t *tonight) struckKind(k Kind) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, f := range t.faults {
		if _, ok := t.did[i]; ok && f.Kind == k {
			return true
		}
	}
	return false
}

// struck reports whether any fault of the night struck so far.
func (t *tonight) struck() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.did) > 0
}

// beforePlan damages checkpoints, recreates topics, compacts control
// topics and sets the store's fault, as scheduled.
func (s *Soak) beforePlan(ctx context.Context, t *tonight) error {
	for i, f := range t.faults {
		j := s.jobs[f.Operator]
		switch f.Kind {
		case CheckpointCorrupt, CheckpointCut:
			what, err := s.damage(ctx, j, f)
			if err != nil {
				return err
			}
			if what != "" {
				t.record(i, what)
			}
		case TopicRecreated:
			if f.Which < 0.5 && j.running {
				if err := s.recreate(ctx, t, i, j); err != nil {
					return err
				}
			}
		case S3Slow, S3Errors, S3Silent:
			scope := j.jobID
			if f.AllJobs {
				scope = ""
			}
			s.proxy.set(f.Kind, scope, f.Rate)
		}
	}
	return nil
}

// afterPlan ends the store's fault, lets jobs churn, recreates topics
// scheduled between plan and apply and starts reassignments.
func (s *Soak) afterPlan(ctx context.Context, t *tonight) error {
	for i, f := range t.faults {
		j := s.jobs[f.Operator]
		switch f.Kind {
		case S3Slow, S3Errors, S3Silent:
			if hits := s.proxy.clear(); hits > 0 {
				t.record(i, fmt.Sprintf("%d store requests struck", hits))
			}
		case TopicRecreated:
			if f.Which >= 0.5 && j.running {
				if err := s.recreate(ctx, t, i, j); err != nil {
					return err
				}
			}
		case Reassignment:
			if !j.running && f.Partition >= 0 {
				continue
			}
			r, err := s.startReassignment(ctx, j, f.Partition)
			if err != nil {
				return err
			}
			t.reassigned = append(t.reassigned, r)
			t.record(i, r.describe())
		}
	}
	for i, f := range t.faults {
		if f.Kind != Churn {
			continue
		}
		r := rand.New(rand.NewPCG(s.cfg.Seed, uint64(t.n)<<32|7))
		var names []string
		for _, j := range s.jobs {
			if j.running && r.Float64() < 0.33 {
				if err := j.checkpoint(ctx, r, s.st, s.tmp); err != nil {
					return err
				}
				names = append(names, j.key)
			}
		}
		if len(names) > 0 {
			t.record(i, "new checkpoints (and retirements) between plan and apply: "+strings.Join(names, ", "))
		}
	}
	return nil
}

// applyTriggers are the faults that strike during the apply.
func (s *Soak) applyTriggers(ctx context.Context, t *tonight) ([]trigger, error) {
	var out []trigger
	var stoppers []int
	for i, f := range t.faults {
		j := s.jobs[f.Operator]
		tr := trigger{line: f.Line, nth: f.Nth, delay: time.Duration(f.Delay) * time.Millisecond, fired: make(chan struct{})}
		if f.Kind == TerraformKill || f.Kind == ProviderKill {
			stoppers = append(stoppers, len(out))
		}
		switch f.Kind {
		case TerraformKill:
			tr.fire = func(p *procs) string {
				providers := p.providers()
				what := kill(p.terraform, "terraform")
				if what == "" {
					return ""
				}
				t.mu.Lock()
				t.orphans = append(t.orphans, providers...)
				t.mu.Unlock()
				t.record(i, what)
				return what
			}
		case ProviderKill:
			tr.fire = func(p *procs) string {
				var what []string
				for _, pid := range p.providers() {
					if k := kill(pid, "provider"); k != "" {
						what = append(what, k)
					}
				}
				if len(what) == 0 {
					return ""
				}
				t.record(i, strings.Join(what, ", "))
				return strings.Join(what, ", ")
			}
		case ControlLeaderKill, DataLeaderKill:
			topic, part := j.control, int32(0)
			if f.Kind == DataLeaderKill {
				topic, part = j.topic, f.Partition
			}
			if !j.running && f.Kind == DataLeaderKill {
				continue
			}
			downFor := time.Duration(1000+int(7000*f.Which)) * time.Millisecond
			tr.fire = func(*procs) string {
				what, err := s.killLeader(ctx, t, topic, part, downFor)
				if err != nil {
					t.fail(err)
					return ""
				}
				t.record(i, what)
				return what
			}
		case SecondApplier:
			planFile, err := s.toolPlan(ctx, t, j)
			if err != nil {
				return nil, err
			}
			if planFile == "" {
				continue
			}
			start := s.startTool
			if f.Which >= 0.5 {
				if start, err = s.workspace(ctx, t, j, planFile); err != nil {
					return nil, err
				}
			}
			tr.fire = func(*procs) string {
				what := start(ctx, t, i, j, planFile)
				t.record(i, what)
				return what
			}
		default:
			continue
		}
		out = append(out, tr)
	}
	// A kill ends the apply: it strikes once the night's other faults of the
	// apply have, or they would never come.
	for _, i := range stoppers {
		for k := range out {
			if k != i {
				out[i].after = append(out[i].after, out[k].fired)
			}
		}
	}
	return out, nil
}

// heal undoes the night's faults: brokers back, reassignments finished,
// throttles removed, orphaned providers gone, second appliers done.
func (s *Soak) heal(ctx context.Context, t *tonight) error {
	t.mu.Lock()
	orphans := slices.Clone(t.orphans)
	t.mu.Unlock()
	for _, k := range reap(orphans, 3*time.Second) {
		if k != "" {
			fmt.Fprintf(s.out, "    healed: %s\n", k)
		}
	}
	t.background.Wait()
	if len(t.errs) > 0 {
		return fmt.Errorf("healing night %d: %w", t.n, errors.Join(t.errs...))
	}
	for _, r := range t.reassigned {
		if err := s.finishReassignment(ctx, r); err != nil {
			return err
		}
	}
	return nil
}

// killLeader SIGKILLs the broker leading topic's partition and restarts it
// after downFor, in the background.
func (s *Soak) killLeader(ctx context.Context, t *tonight, topic string, partition int32, downFor time.Duration) (string, error) {
	lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	leader, err := s.kc.leader(lctx, topic, partition)
	cancel()
	if err != nil {
		return "", err
	}
	if err := s.kc.killNode(ctx, leader); err != nil {
		return "", err
	}
	t.background.Add(1)
	go func() {
		defer t.background.Done()
		time.Sleep(downFor)
		if err := s.kc.restartNode(ctx, leader); err != nil {
			t.fail(err)
		}
	}()
	return fmt.Sprintf("SIGKILL broker %d (leader of %s partition %d), restarted after %s", leader, topic, partition, downFor), nil
}

// damage breaks one retained point of j: corrupt overwrites the start of
// its _metadata (magic number and version, so no reader takes it for a
// valid point); cut truncates it, or deletes a state file next to it.
func (s *Soak) damage(ctx context.Context, j *job, f Fault) (string, error) {
	var intact []*point
	for _, p := range j.points() {
		if p.damaged == "" {
			intact = append(intact, p)
		}
	}
	if len(intact) == 0 {
		return "", nil
	}
	p := intact[min(len(intact)-1, int(f.Which*float64(len(intact))))]
	meta := p.files[len(p.files)-1]
	data, err := s.st.get(ctx, meta)
	if err != nil {
		return "", err
	}
	r := rand.New(rand.NewPCG(s.cfg.Seed, uint64(f.Night)<<32|11))
	switch {
	case f.Kind == CheckpointCorrupt:
		for i := range min(8, len(data)) {
			data[i] ^= byte(1 + r.IntN(255))
		}
		p.damaged = "corrupt: first bytes of _metadata overwritten"
	case len(p.files) > 1 && r.Float64() < 0.5:
		if err := s.st.remove(ctx, p.files[0]); err != nil {
			return "", err
		}
		p.damaged = "cut: state file " + filepath.Base(p.files[0]) + " deleted"
		p.files = p.files[1:]
		return fmt.Sprintf("%s: %s", p.path, p.damaged), nil
	default:
		data = data[:1+r.IntN(len(data)-1)]
		p.damaged = fmt.Sprintf("cut: _metadata truncated to %d bytes", len(data))
	}
	if err := s.st.put(ctx, meta, data); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s: %s", p.path, p.damaged), nil
}

// recreate deletes j's action-state topic and creates it again out of
// band; the job dies with it (it restarts at remediation).
func (s *Soak) recreate(ctx context.Context, t *tonight, i int, j *job) error {
	id, err := s.kc.recreate(ctx, j.topic)
	if err != nil {
		return err
	}
	j.running = false
	t.recreated = append(t.recreated, j)
	t.record(i, fmt.Sprintf("%s deleted and created again (topic ID %s, was %s)", j.topic, id, j.topicID))
	return nil
}

// remediate is what a team does after a recreated action-state topic: the
// job's state is gone, so it starts anew (a new job ID and checkpoint
// directory; its old points, which name the old topic ID, are deleted),
// and the operator's control topic, whose history names the old topic,
// is recreated empty (the diagnostic's advice: a new control topic for its
// history). The job then completes its first checkpoint.
func (s *Soak) remediate(ctx context.Context, t *tonight) error {
	if t.struckKind(TerraformKill) { // terraform may have been writing its local state
		if err := restoreTruncatedState(filepath.Join(s.cfg.Dir, "fleet"), s.out); err != nil {
			return err
		}
	}
	for _, j := range t.recreated {
		for _, p := range j.points() {
			if err := retire(ctx, s.st, p); err != nil {
				return err
			}
		}
		j.checkpoints, j.savepoints, j.savepointDirSet = nil, nil, false
		if _, err := s.kc.recreate(ctx, j.control); err != nil {
			return err
		}
		d, err := s.kc.describe(ctx, j.topic)
		if err != nil {
			return err
		}
		j.epoch++
		j.jobID = hexID(rand.New(rand.NewPCG(s.cfg.Seed, uint64(t.n)<<32|uint64(j.index))))
		j.nextChk = 1
		j.start(javaTopicID(d.ID))
		s.records.PurgeTopicsFromClient(j.topic) // its metadata names the old topic ID
		r := rand.New(rand.NewPCG(s.cfg.Seed, uint64(t.n)<<32|uint64(j.index)|1<<20))
		if err := j.produce(ctx, r, s.records); err != nil {
			return err
		}
		if err := j.checkpoint(ctx, r, s.st, s.tmp); err != nil {
			return err
		}
		s.approvals.expected[j.key] = true // its next plan starts a new history: the gate holds it for review
		fmt.Fprintf(s.out, "    remediated %s: control topic recreated, job restarted as %s\n", j.key, j.jobID)
	}
	if len(t.recreated) > 0 {
		return s.writeVars(t.n)
	}
	return nil
}

// compactTonight compacts a control topic once the night's applies wrote
// to it, so that the clean plan, the check and later nights read a
// compacted history (APPLIED without its COMMITTED, gaps in the offsets).
// The target is the scheduled operator, or the next one whose control
// topic holds records.
func (s *Soak) compactTonight(ctx context.Context, t *tonight) error {
	for i, f := range t.faults {
		if f.Kind != ControlCompacted {
			continue
		}
		for k := range s.jobs {
			j := s.jobs[(f.Operator+k)%len(s.jobs)]
			if !j.running {
				continue
			}
			recs, _, _, err := s.controlRecords(ctx, j.control)
			if err != nil {
				return err
			}
			if len(recs) == 0 {
				continue
			}
			what, err := s.compact(ctx, j)
			if err != nil {
				return err
			}
			t.record(i, what)
			break
		}
	}
	return nil
}

func (s *Soak) secondApplierTargets(t *tonight) []string {
	var out []string
	for _, f := range t.faults {
		if f.Kind == SecondApplier {
			out = append(out, s.jobs[f.Operator].key)
		}
	}
	return out
}

// compact makes the broker compact j's control topic now: segments that
// roll at once, any dirty share cleanable; the last visible record is
// appended again (what a retried append of the Java tool leaves) so the
// segment holding the history rolls. It waits until records are gone,
// then puts the topic's settings back.
func (s *Soak) compact(ctx context.Context, j *job) (string, error) {
	settings := map[string]string{"segment.ms": "100", "min.cleanable.dirty.ratio": "0.01", "min.compaction.lag.ms": "0"}
	var set, unset []kadm.AlterConfig
	for k, v := range settings {
		set = append(set, kadm.AlterConfig{Op: kadm.SetConfig, Name: k, Value: kadm.StringPtr(v)})
		unset = append(unset, kadm.AlterConfig{Op: kadm.DeleteConfig, Name: k})
	}
	if err := alterTopic(ctx, s.kc.adm, set, j.control); err != nil {
		return "", err
	}
	defer func() { _ = alterTopic(context.WithoutCancel(ctx), s.kc.adm, unset, j.control) }()
	deadline := time.Now().Add(45 * time.Second)
	for appended := 0; time.Now().Before(deadline); {
		recs, start, end, err := s.controlRecords(ctx, j.control)
		if err != nil {
			return "", err
		}
		if int64(len(recs)) < end-start {
			return fmt.Sprintf("%s compacted: %d records left of offsets %d..%d", j.control, len(recs), start, end-1), nil
		}
		var last *kgo.Record
		for _, r := range recs {
			if !r.Attrs.IsControl() {
				last = r
			}
		}
		if last == nil {
			return "", fmt.Errorf("%s holds no record to compact", j.control)
		}
		if appended < 3 {
			time.Sleep(200 * time.Millisecond)
			if err := s.records.ProduceSync(ctx, &kgo.Record{Topic: j.control, Partition: 0, Key: last.Key, Value: last.Value}).FirstErr(); err != nil {
				return "", err
			}
			appended++
		}
		time.Sleep(time.Second)
	}
	return fmt.Sprintf("%s: the cleaner had not run after 45 s", j.control), nil
}

func alterTopic(ctx context.Context, adm *kadm.Client, cfg []kadm.AlterConfig, topic string) error {
	resp, err := adm.AlterTopicConfigs(ctx, cfg, topic)
	if err == nil {
		for _, r := range resp {
			if r.Err != nil {
				err = fmt.Errorf("altering %s: %v %s", topic, r.Err, r.ErrMessage)
			}
		}
	}
	return err
}

// controlRecords reads a control partition as stored (read_uncommitted,
// transaction markers included), with its log start and end.
func (s *Soak) controlRecords(ctx context.Context, topic string) ([]*kgo.Record, int64, int64, error) {
	starts, err := s.kc.adm.ListStartOffsets(ctx, topic)
	if err != nil {
		return nil, 0, 0, err
	}
	ends, err := s.kc.adm.ListEndOffsets(ctx, topic)
	if err != nil {
		return nil, 0, 0, err
	}
	so, _ := starts.Lookup(topic, 0)
	eo, _ := ends.Lookup(topic, 0)
	if eo.Offset <= so.Offset {
		return nil, so.Offset, eo.Offset, nil
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(s.cfg.Bootstrap...), kgo.KeepControlRecords(),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().At(so.Offset)}}))
	if err != nil {
		return nil, 0, 0, err
	}
	defer cl.Close()
	var out []*kgo.Record
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for rctx.Err() == nil {
		fs := cl.PollFetches(rctx)
		fs.EachRecord(func(r *kgo.Record) { out = append(out, r) })
		if len(out) > 0 && out[len(out)-1].Offset >= eo.Offset-1 {
			break
		}
	}
	return out, so.Offset, eo.Offset, nil
}

// reassignment is a throttled move of one partition's replicas: a replica
// dropped, then added back, copying the log at a crawl while the apply
// runs.
type reassignment struct {
	topic     string
	partition int32
	adding    int32
	brokers   []int32
}

func (r reassignment) describe() string {
	return fmt.Sprintf("%s partition %d: replica %d being added back at 500 B/s", r.topic, r.partition, r.adding)
}

func (s *Soak) startReassignment(ctx context.Context, j *job, partition int32) (reassignment, error) {
	topic := j.control
	if partition >= 0 {
		topic = j.topic
	} else {
		partition = 0
	}
	d, err := s.kc.describe(ctx, topic)
	if err != nil {
		return reassignment{}, err
	}
	replicas := slices.Clone(d.Partitions[partition].Replicas)
	r := reassignment{topic: topic, partition: partition, adding: replicas[len(replicas)-1], brokers: []int32{1, 2, 3}}
	keep := replicas[:len(replicas)-1]
	if err := s.reassign(ctx, topic, partition, keep); err != nil {
		return r, err
	}
	if err := s.waitReassigned(ctx, topic, partition, 30*time.Second); err != nil {
		return r, err
	}
	rate := kadm.StringPtr("500")
	throttle := []kadm.AlterConfig{{Op: kadm.SetConfig, Name: "leader.replication.throttled.rate", Value: rate},
		{Op: kadm.SetConfig, Name: "follower.replication.throttled.rate", Value: rate}}
	if _, err := s.kc.adm.AlterBrokerConfigs(ctx, throttle, r.brokers...); err != nil {
		return r, err
	}
	var leaders []string
	for _, b := range keep {
		leaders = append(leaders, fmt.Sprintf("%d:%d", partition, b))
	}
	if err := alterTopic(ctx, s.kc.adm, []kadm.AlterConfig{
		{Op: kadm.SetConfig, Name: "leader.replication.throttled.replicas", Value: kadm.StringPtr(strings.Join(leaders, ","))},
		{Op: kadm.SetConfig, Name: "follower.replication.throttled.replicas", Value: kadm.StringPtr(fmt.Sprintf("%d:%d", partition, r.adding))},
	}, topic); err != nil {
		return r, err
	}
	return r, s.reassign(ctx, topic, partition, append(keep, r.adding))
}

func (s *Soak) reassign(ctx context.Context, topic string, partition int32, replicas []int32) error {
	req := kadm.AlterPartitionAssignmentsReq{}
	req.Assign(topic, partition, replicas)
	resp, err := s.kc.adm.AlterPartitionAssignments(ctx, req)
	if err != nil {
		return err
	}
	for _, ps := range resp {
		for _, p := range ps {
			if p.Err != nil {
				return fmt.Errorf("reassigning %s partition %d to %v: %v %s", topic, partition, replicas, p.Err, p.ErrMessage)
			}
		}
	}
	return nil
}

func (s *Soak) waitReassigned(ctx context.Context, topic string, partition int32, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		set := kadm.TopicsSet{}
		set.Add(topic, partition)
		resp, err := s.kc.adm.ListPartitionReassignments(ctx, set)
		if err == nil && len(resp[topic]) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the reassignment of %s partition %d did not finish in %s (%v)", topic, partition, limit, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// finishReassignment lifts the throttles and waits for the replica to
// catch up.
func (s *Soak) finishReassignment(ctx context.Context, r reassignment) error {
	if _, err := s.kc.adm.AlterBrokerConfigs(ctx, []kadm.AlterConfig{
		{Op: kadm.DeleteConfig, Name: "leader.replication.throttled.rate"},
		{Op: kadm.DeleteConfig, Name: "follower.replication.throttled.rate"}}, r.brokers...); err != nil {
		return err
	}
	if err := alterTopic(ctx, s.kc.adm, []kadm.AlterConfig{
		{Op: kadm.DeleteConfig, Name: "leader.replication.throttled.replicas"},
		{Op: kadm.DeleteConfig, Name: "follower.replication.throttled.replicas"}}, r.topic); err != nil {
		return err
	}
	return s.waitReassigned(ctx, r.topic, r.partition, 2*time.Minute)
}

// toolPlan writes, with the Java oracle, the plan a careful operator of
// the runtime's cleanup tool would apply for j now: from its oldest
// retained point, spelled as the provider lists it or with a trailing
// slash (another plan ID, equal offsets). "" when j has no point.
func (s *Soak) toolPlan(ctx context.Context, t *tonight, j *job) (string, error) {
	p := j.oldest()
	if !j.running || p == nil {
		return "", nil
	}
	source := p.path
	if rand.New(rand.NewPCG(s.cfg.Seed, uint64(t.n)<<32|13)).Float64() < 0.5 {
		source += "/"
	}
	var offsets []string
	plan := p.plan()
	for _, part := range slices.Sorted(maps.Keys(plan)) {
		offsets = append(offsets, fmt.Sprintf("%d=%d", part, plan[part]))
	}
	file := filepath.Join(s.cfg.Dir, "logs", fmt.Sprintf("night-%02d-tool-plan-%s.json", t.n, j.key))
	_ = os.Remove(file)
	out, err := exec.CommandContext(ctx, "java", "-jar", s.cfg.Jar, "write-plan", "--source", source, "--topic", j.topic,
		"--topic-id", p.topicID, "--offsets", strings.Join(offsets, ","), "--out", file).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("write-plan for the second applier: %v: %s", err, out)
	}
	return file, nil
}

// startTool runs the runtime's cleanup tool's apply (the interop CLI's
// tool-apply) on j's control topic, in the background.
func (s *Soak) startTool(ctx context.Context, t *tonight, i int, j *job, planFile string) string {
	log := strings.TrimSuffix(planFile, ".json") + ".log"
	t.background.Add(1)
	go func() {
		defer t.background.Done()
		out, err := exec.CommandContext(ctx, "java", "-jar", s.cfg.Jar, "tool-apply", "--bootstrap", strings.Join(s.cfg.Bootstrap, ","),
			"--topic", j.control, "--plan", planFile, "--timeout-ms", "30000").CombinedOutput()
		_ = os.WriteFile(log, out, 0o644)
		result := strings.TrimSpace(string(out))
		if err != nil {
			result = "refused: " + result // a refusal is the tool failing closed, not the soak failing
		}
		t.record(i, "tool-apply: "+result)
	}()
	return "second applier (the runtime's tool, unfenced) started on " + j.control + " with " + strconv.Quote(filepath.Base(planFile))
}

// workspace prepares the other second applier: another Terraform workspace
// whose flinkagents_cleanup_boundary applies the same plan through the same
// control topic (transactional, so fenced, unlike the tool). It is
// initialized now; its apply starts when the fault strikes.
func (s *Soak) workspace(ctx context.Context, t *tonight, j *job, planFile string) (func(context.Context, *tonight, int, *job, string) string, error) {
	dir := filepath.Join(s.cfg.Dir, fmt.Sprintf("workspace-2-night-%02d", t.n))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	plan, err := os.ReadFile(planFile)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "plan.json"), plan, 0o644); err != nil {
		return nil, err
	}
	quoted := make([]string, len(s.cfg.SASLBootstrap))
	for i, b := range s.cfg.SASLBootstrap {
		quoted[i] = strconv.Quote(b)
	}
	mainTF := fmt.Sprintf(`terraform {
  required_providers {
    flinkagents = { source = "actionstate/flinkagents" }
  }
}

provider "flinkagents" {
  bootstrap_servers = [%s]
  timeout           = "15s"
}

# Another team's workspace with the same operator's boundary.
resource "flinkagents_cleanup_boundary" "second" {
  control_topic      = %q
  action_state_topic = %q
  plan_json          = file("${path.module}/plan.json")
}
`, strings.Join(quoted, ", "), j.control, j.topic)
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(mainTF), 0o644); err != nil {
		return nil, err
	}
	second := &terraform{bin: s.tf.bin, dir: dir, logs: s.tf.logs, env: s.tf.env, seq: 900 + t.n*10}
	if r, err := second.exec(ctx, fmt.Sprintf("night-%02d-workspace-2-init", t.n), []string{"init", "-input=false", "-no-color"}); err != nil || r.code != 0 {
		return nil, fmt.Errorf("terraform init of the second workspace: %v (%s)", err, r.out)
	}
	return func(ctx context.Context, t *tonight, i int, j *job, _ string) string {
		t.background.Add(1)
		go func() {
			defer t.background.Done()
			r, err := second.exec(ctx, fmt.Sprintf("night-%02d-workspace-2-apply", t.n), []string{"apply", "-input=false", "-no-color", "-auto-approve"})
			switch {
			case err != nil:
				t.fail(err)
			case r.code == 0:
				t.record(i, fmt.Sprintf("the second workspace applied (%.0f s)", r.elapsed.Seconds()))
			default:
				// Refused or fenced: the other applier failing closed.
				t.record(i, fmt.Sprintf("the second workspace's apply exited %d: %s", r.code, firstError(r.out)))
			}
		}()
		return "second applier (another Terraform workspace, fenced) started on " + j.control
	}, nil
}

// firstError is the first "Error:" line of a command's output.
func firstError(file string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return err.Error()
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "Error: ") {
			return strings.TrimPrefix(line, "Error: ")
		}
	}
	return "(no error line)"
}
