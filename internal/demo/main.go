// Command demo walks examples/quickstart through the whole cleanup story
// against an embedded broker (kfake): topics created, action-state records
// written as a job would, a savepoint taken, a plan reviewed, the boundary
// APPLIED with the deleted ranges shown, and a backward move refused at plan
// time. It needs Go and terraform, nothing else: the provider is built from
// this checkout and installed into a private plugin directory as `make
// install` does, named by a temporary CLI configuration's filesystem_mirror,
// so no registry is contacted. Run it with `make demo`.
package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/actionstate/terraform-provider-flinkagents/internal/jobsim"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

const (
	dataTopic  = "orders-agent-action-state"
	partitions = 4
	// A job that ran a while: every partition holds this many records.
	recordsPerPartition = 60
)

func main() {
	repo, err := os.Getwd()
	if err == nil {
		err = run(repo)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "\ndemo failed: %v\n", err)
		os.Exit(1)
	}
}

// run is the demo from a checkout of the repository at repo.
func run(repo string) error {
	work, err := os.MkdirTemp("", "flinkagents-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	step("Starting an embedded Kafka broker (kfake) on 127.0.0.1")
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.ListenFn(loopback))
	if err != nil {
		return err
	}
	defer cluster.Close()
	brokers := cluster.ListenAddrs()
	say("broker at %s", strings.Join(brokers, ","))

	step("Installing the provider as make install does, into a private plugin directory (no registry)")
	plugins := filepath.Join(work, "plugins")
	if err := sh(repo, nil, keepLines("installed "), "scripts/install.sh", plugins); err != nil {
		return err
	}
	cliConfig := filepath.Join(work, "terraformrc")
	rc := fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path    = %q\n    include = [\"registry.terraform.io/actionstate/flinkagents\"]\n  }\n}\n", plugins)
	if err := os.WriteFile(cliConfig, []byte(rc), 0o644); err != nil {
		return err
	}
	tfDir := filepath.Join(work, "quickstart")
	if err := copyDir(filepath.Join(repo, "examples", "quickstart"), tfDir); err != nil {
		return err
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + cliConfig, "TF_IN_AUTOMATION=1", "TF_INPUT=0", "CHECKPOINT_DISABLE=1", "TF_PLUGIN_CACHE_DIR="}
	brokerVar := fmt.Sprintf("bootstrap_servers=[%q]", brokers[0])
	tf := func(show func([]string) []string, args ...string) error {
		if !terminal {
			args = append(args[:1:1], append([]string{"-no-color"}, args[1:]...)...)
		}
		return sh(tfDir, env, show, "terraform", args...)
	}
	if err := tf(keepLines("- Installed"), "init"); err != nil {
		return err
	}

	step("terraform apply: the action-state topic and its cleanup control topic")
	if err := tf(keepLines("flinkagents_", "Apply complete"), "apply", "-auto-approve", "-var", brokerVar); err != nil {
		return err
	}

	admin, err := kafkaops.New(kafkaops.Config{Brokers: brokers})
	if err != nil {
		return err
	}
	defer admin.Close()
	ctx := context.Background()
	topic, err := admin.DescribeTopic(ctx, dataTopic)
	if err != nil {
		return err
	}

	step(fmt.Sprintf("The job runs: writing %d action-state records to each of %d partitions", recordsPerPartition, partitions))
	produceCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := jobsim.Produce(produceCtx, brokers, dataTopic, topic.Partitions, recordsPerPartition); err != nil {
		return err
	}
	say("topic %s (topic ID %s) now holds offsets 0..%d on every partition", dataTopic, topic.ID, recordsPerPartition)

	step("The job takes savepoints: each subtask records where a restore must replay from")
	older := filepath.Join(work, "savepoints", "savepoint-3f9a1c-0a1b2c3d4e5f")
	newer := filepath.Join(work, "savepoints", "savepoint-3f9a1c-5f6e7d8c9b0a")
	if err := writeSavepoint(older, topic.ID.String(), 11, 20); err != nil {
		return err
	}
	if err := writeSavepoint(newer, topic.ID.String(), 12, 35); err != nil {
		return err
	}
	say("older savepoint: %s\nnewer savepoint: %s", older, newer)

	step("terraform plan: cleanup up to the newer savepoint (review what would be deleted)")
	newerVar := "checkpoint_path=file:" + newer
	if err := tf(planView, "plan", "-out=tfplan", "-var", brokerVar, "-var", newerVar); err != nil {
		return err
	}

	step("terraform apply of that plan: COMMITTED in the control topic, DeleteRecords, verified, APPLIED")
	if err := tf(keepLines("flinkagents_", "Apply complete"), "apply", "tfplan"); err != nil {
		return err
	}
	starts, err := admin.StartOffsets(ctx, dataTopic)
	if err != nil {
		return err
	}
	say("start offsets now (out of band, straight from Kafka): %v", starts)

	step("terraform plan with the OLDER savepoint: a backward move is refused at plan time")
	olderVar := "checkpoint_path=file:" + older
	err = tf(planView, "plan", "-var", brokerVar, "-var", olderVar)
	if err == nil {
		return fmt.Errorf("the backward move was not refused")
	}
	say("refused as expected; nothing was written or deleted")

	step("Done")
	say("The runtime, restored with kafkaActionStateCleanupControlTopic=orders-agent-cleanup-control,\n" +
		"now refuses any checkpoint older than the recorded boundary.")
	return nil
}

// writeSavepoint writes a savepoint of a parallelism-4 agent operator whose
// subtasks recorded slightly different positions.
func writeSavepoint(dir, topicID string, id int64, base int64) error {
	var subtasks []map[int32]int64
	for s := range int64(4) {
		offs := map[int32]int64{}
		for p := range int32(partitions) {
			offs[p] = base + s + int64(p%3)
		}
		subtasks = append(subtasks, offs)
	}
	return jobsim.WriteSavepoint(dir, id, dataTopic, topicID, subtasks)
}

// terminal: standard output is a terminal, so headings are bold and
// Terraform colours its output; piped, both are plain text.
var terminal = func() bool {
	fi, err := os.Stdout.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}()

func step(title string) {
	if terminal {
		fmt.Printf("\n\033[1m==> %s\033[0m\n", title)
		return
	}
	fmt.Printf("\n==> %s\n", title)
}

func say(format string, args ...any) {
	fmt.Printf("    "+strings.ReplaceAll(format, "\n", "\n    ")+"\n", args...)
}

// keepLines shows only the lines that start with one of prefixes, once
// trimmed.
func keepLines(prefixes ...string) func([]string) []string {
	return func(lines []string) []string {
		var kept []string
		for _, l := range lines {
			if slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(plain(l), p) }) {
				kept = append(kept, l)
			}
		}
		return kept
	}
}

// planView is a plan as a reviewer reads it: the changes and diagnostics,
// without the refresh progress, the legend of symbols, the outputs (they
// repeat the resource's attributes) or runs of blank lines.
func planView(lines []string) []string {
	var kept []string
	for _, l := range lines {
		t := plain(l)
		switch {
		case strings.HasPrefix(t, "Changes to Outputs:"):
			return trimTrailingBlanks(kept)
		case strings.Contains(t, ": Refreshing state..."), strings.HasSuffix(t, ": Reading..."), strings.Contains(t, ": Read complete after"),
			strings.HasPrefix(t, "Terraform used the selected providers"), strings.HasPrefix(t, "plan. Resource actions are indicated"),
			strings.HasPrefix(t, "Terraform will perform the following actions"),
			t == "+ create", t == "" && (len(kept) == 0 || plain(kept[len(kept)-1]) == ""):
			continue
		}
		kept = append(kept, l)
	}
	return trimTrailingBlanks(kept)
}

func trimTrailingBlanks(lines []string) []string {
	for len(lines) > 0 && plain(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// plain is a line of Terraform's output without its colour codes and
// surrounding space, for matching.
func plain(line string) string {
	return strings.TrimSpace(colourCode.ReplaceAllString(line, ""))
}

var colourCode = regexp.MustCompile("\x1b\\[[0-9;]*m")

// sh runs a command and shows its output, indented: what show keeps (nil:
// all of it), or when the command fails what planView keeps of its standard
// output. A failure's error carries the command's standard error, where
// Terraform writes its diagnostics, so the demo ends on why a step failed
// rather than only its exit status.
func sh(dir string, env []string, show func([]string) []string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(environ(os.Environ()), env...)
	var all, stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.MultiWriter(&all, &stdout), io.MultiWriter(&all, &stderr)
	err := cmd.Run()
	lines := strings.Split(strings.TrimSpace(all.String()), "\n")
	switch {
	case err != nil:
		lines = planView(strings.Split(strings.TrimSpace(stdout.String()), "\n"))
	case show != nil:
		lines = show(lines)
	}
	for _, line := range lines {
		fmt.Println("    │ " + line)
	}
	if err != nil {
		why := strings.TrimSpace(colourCode.ReplaceAllString(stderr.String(), ""))
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, why)
	}
	return nil
}

func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".terraform") {
				return filepath.SkipDir
			}
			return os.MkdirAll(target, 0o755)
		}
		if strings.HasPrefix(d.Name(), "terraform.tfstate") || strings.HasPrefix(d.Name(), ".terraform") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}
