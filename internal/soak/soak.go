// Package soak runs the scheduled-cleanup pipeline of the "Scheduled
// cleanup" guide night after night over a fleet on a 3-node Kafka cluster
// and the S3 emulator, injects faults at moments drawn from a seed, and
// after every night has internal/soak/invariant check that nothing was
// lost. scripts/soak.sh starts the cluster, the store and this driver
// (internal/soak/cmd/soak); RELIABILITY.md reports the runs.
package soak

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/actionstate/terraform-provider-flinkagents/internal/soak/invariant"
)

// Config is a run's setup; scripts/soak.sh fills it.
type Config struct {
	Dir        string // work directory: everything a replay needs stays here
	Root       string // the repository (examples/modules, examples/policies, scripts/kafka)
	Seed       uint64
	Nights     int
	Operators  int
	Partitions int
	// Each: every fault kind once, spread over the nights (the short soak).
	Each bool
	// KeepGoing records violations and goes on instead of stopping.
	KeepGoing bool
	// Skip are fault kinds left out of the run.
	Skip []Kind
	// Sabotage loses data around the provider on the last night (see
	// sabotage): the run must end with violations.
	Sabotage bool

	KafkaDir      string   // scripts/kafka workdir of the cluster
	Bootstrap     []string // PLAINTEXT: the harness, the checker, the jobs
	SASLBootstrap []string // SASL PLAIN: the provider
	SASLUser      string
	Secrets       []string // the SASL password first; every one is grepped for in every log
	// AllowedSecretFiles may hold a secret (the brokers' server.properties).
	AllowedSecretFiles []string
	S3URL, Bucket      string
	Jar, OPA           string
	Terraform          string
}

// Soak is one run.
type Soak struct {
	cfg       Config
	out       io.Writer
	sched     Schedule
	jobs      []*job
	st        store
	proxy     *faultProxy
	kc        cluster
	records   *kgo.Client
	tf        *terraform
	checker   *invariant.Checker
	approvals *approvals
	tmp       string
	summary   Summary
}

// ErrViolation reports that an invariant broke; the work directory keeps
// what a replay needs.
var ErrViolation = errors.New("invariant violated")

// Run runs the soak and writes summary.json into the work directory.
func Run(ctx context.Context, cfg Config, out io.Writer) error {
	s := &Soak{cfg: cfg, out: out, st: store{endpoint: cfg.S3URL, bucket: cfg.Bucket}, tmp: filepath.Join(cfg.Dir, "tmp")}
	s.sched = NewSchedule(cfg.Seed, cfg.Nights, cfg.Operators, cfg.Each, cfg.Skip...)
	s.sched.Print(out, operatorName)
	s.summary = Summary{Seed: cfg.Seed, Nights: cfg.Nights, Operators: cfg.Operators, Partitions: cfg.Partitions,
		Checks: map[string]int{}, Faults: map[Kind]int{}, NotFired: map[Kind]int{}}
	start := time.Now()
	err := s.run(ctx)
	s.summary.Seconds = time.Since(start).Seconds()
	s.summary.Result = "pass"
	if err != nil {
		s.summary.Result = err.Error()
	}
	if data, merr := json.MarshalIndent(s.summary, "", "  "); merr == nil {
		_ = os.WriteFile(filepath.Join(cfg.Dir, "summary.json"), data, 0o644)
	}
	s.summary.print(out)
	return err
}

func (s *Soak) run(ctx context.Context) error {
	for _, d := range []string{s.tmp, filepath.Join(s.cfg.Dir, "logs")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	var err error
	// Metadata fresh on every request (franz-go answers metadata requests
	// from a cache for 5 s by default): topics are recreated under their
	// names, and a stale answer names the old topic ID.
	fresh := kgo.MetadataMinAge(10 * time.Millisecond)
	if s.records, err = kgo.NewClient(kgo.SeedBrokers(s.cfg.Bootstrap...), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.ProducerLinger(5*time.Millisecond), kgo.UnknownTopicRetries(-1), fresh); err != nil {
		return err
	}
	defer s.records.Close()
	s.kc = cluster{cl: s.records, adm: kadm.NewClient(s.records), dir: s.cfg.KafkaDir, scripts: filepath.Join(s.cfg.Root, "scripts", "kafka")}
	if s.proxy, err = startFaultProxy(s.cfg.S3URL, s.cfg.Seed); err != nil {
		return err
	}
	defer s.proxy.close()
	if s.checker, err = invariant.NewChecker(s.cfg.Bootstrap, s.cfg.Jar, filepath.Join(s.cfg.Dir, "logs"),
		&invariant.SecretScan{Roots: []string{s.cfg.Dir}, Secrets: s.cfg.Secrets, Allowed: s.allowedSecretPaths()}); err != nil {
		return err
	}
	defer s.checker.Close()
	for i := range s.cfg.Operators {
		s.jobs = append(s.jobs, newJob(i, int32(s.cfg.Partitions), s.cfg.Seed))
	}
	for n, ops := range s.sched.Joins {
		for _, i := range ops {
			s.jobs[i].joins = n
		}
	}
	if s.approvals, err = newApprovals(filepath.Join(s.cfg.Root, "examples", "policies", "approvals.json"),
		filepath.Join(s.cfg.Dir, "approvals.json")); err != nil {
		return err
	}
	if err := s.setup(ctx); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	for n := 1; n <= s.cfg.Nights; n++ {
		if err := s.night(ctx, n); err != nil {
			return fmt.Errorf("night %d: %w", n, err)
		}
	}
	if len(s.summary.Violations) > 0 {
		return fmt.Errorf("%w: %d violations (kept going)", ErrViolation, len(s.summary.Violations))
	}
	return nil
}

// allowedSecretPaths: the files that must hold a secret, and what is data
// rather than logs (Kafka's log directories, the object store's file).
func (s *Soak) allowedSecretPaths() []string {
	allowed := slices.Clone(s.cfg.AllowedSecretFiles)
	nodes, _ := filepath.Glob(filepath.Join(s.cfg.KafkaDir, "node-*", "data"))
	return append(allowed, nodes...)
}

// setup copies the fleet's configuration into the work directory, runs
// terraform init and the rollout (every operator's topics, no boundary),
// and starts the jobs.
func (s *Soak) setup(ctx context.Context) error {
	fleet := filepath.Join(s.cfg.Dir, "fleet")
	if err := os.CopyFS(filepath.Join(fleet, "modules"), os.DirFS(filepath.Join(s.cfg.Root, "examples", "modules"))); err != nil {
		return err
	}
	mainTF, err := os.ReadFile(filepath.Join(s.cfg.Root, "scripts", "soak", "fleet", "main.tf"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(fleet, "main.tf"), mainTF, 0o644); err != nil {
		return err
	}
	s.tf = &terraform{bin: s.cfg.Terraform, dir: fleet, logs: filepath.Join(s.cfg.Dir, "logs"), env: []string{
		"TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1",
		"KAFKA_SASL_MECHANISM=PLAIN", "KAFKA_SASL_USERNAME=" + s.cfg.SASLUser, "KAFKA_SASL_PASSWORD=" + s.cfg.Secrets[0],
	}}
	if err := s.writeVars(0); err != nil {
		return err
	}
	fmt.Fprintln(s.out, "night 0: terraform init and the rollout")
	for _, args := range [][]string{{"init", "-input=false", "-no-color"}, {"apply", "-input=false", "-no-color", "-auto-approve"}} {
		r, err := s.tf.exec(ctx, "rollout-"+args[0], args)
		if err != nil {
			return err
		}
		if r.code != 0 {
			return fmt.Errorf("terraform %s exited %d (%s)", args[0], r.code, r.out)
		}
	}
	return s.startJobs(ctx, 0)
}

// startJobs starts every job whose topics the last apply created.
func (s *Soak) startJobs(ctx context.Context, n int) error {
	for _, j := range s.jobs {
		if j.running || j.joins > n || j.epoch > 0 {
			continue
		}
		d, err := s.kc.describe(ctx, j.topic)
		if err != nil {
			return fmt.Errorf("%s: %w", j.key, err)
		}
		j.start(javaTopicID(d.ID))
	}
	return nil
}

// writeVars writes the fleet's variables for night n: every operator that
// has joined, each following its job's directories through the proxy.
func (s *Soak) writeVars(n int) error {
	ops := map[string]map[string]string{}
	for _, j := range s.jobs {
		if j.joins > n {
			continue
		}
		o := map[string]string{"checkpoint_dir": j.checkpointDir(s.st)}
		if j.savepointDirSet {
			o["savepoint_dir"] = j.savepointDir(s.st)
		}
		ops[j.key] = o
	}
	vars := map[string]any{
		"bootstrap_servers":     s.cfg.SASLBootstrap,
		"job_bootstrap_servers": s.cfg.Bootstrap,
		"partitions":            s.cfg.Partitions,
		"checkpoint_storage":    map[string]any{"s3_endpoint": s.proxy.addr, "s3_region": "us-east-1", "s3_path_style": true},
		"operators":             ops,
	}
	data, err := json.MarshalIndent(vars, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(s.cfg.Dir, "fleet", "soak.auto.tfvars.json"), data, 0o644)
}
