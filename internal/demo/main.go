// Command demo walks examples/quickstart through the whole cleanup story
// against an embedded broker (kfake): topics created, action-state records
// written as a job would, a savepoint taken, a plan reviewed, the boundary
// APPLIED with the deleted ranges shown, and a backward move refused at plan
// time. It needs Go and terraform, nothing else: the provider is built from
// this checkout and reached through a temporary dev_overrides CLI config, so
// no registry is contacted. Run it with `make demo`.
package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

const (
	dataTopic  = "orders-agent-action-state"
	partitions = 8
	// A job that ran a while: every partition holds this many records.
	recordsPerPartition = 60
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "\ndemo failed: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	repo, err := os.Getwd()
	if err != nil {
		return err
	}
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

	step("Building the provider and pointing Terraform at it (dev_overrides, no registry)")
	bin := filepath.Join(work, "bin")
	if err := sh(repo, nil, "go", "build", "-o", filepath.Join(bin, "terraform-provider-flinkagents"), "."); err != nil {
		return err
	}
	cliConfig := filepath.Join(work, "terraformrc")
	rc := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"registry.terraform.io/actionstate/flinkagents\" = %q\n  }\n  direct {}\n}\n", bin)
	if err := os.WriteFile(cliConfig, []byte(rc), 0o644); err != nil {
		return err
	}
	tfDir := filepath.Join(work, "quickstart")
	if err := copyDir(filepath.Join(repo, "examples", "quickstart"), tfDir); err != nil {
		return err
	}
	env := []string{"TF_CLI_CONFIG_FILE=" + cliConfig, "TF_IN_AUTOMATION=1", "TF_INPUT=0", "CHECKPOINT_DISABLE=1"}
	brokerVar := fmt.Sprintf("bootstrap_servers=[%q]", brokers[0])
	tf := func(args ...string) error { return sh(tfDir, env, "terraform", args...) }

	step("terraform apply: the action-state topic and its cleanup control topic")
	if err := tf("apply", "-auto-approve", "-no-color", "-compact-warnings", "-var", brokerVar); err != nil {
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
	if err := produce(brokers); err != nil {
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
	if err := tf("plan", "-no-color", "-compact-warnings", "-var", brokerVar, "-var", newerVar); err != nil {
		return err
	}

	step("terraform apply: COMMITTED in the control topic, DeleteRecords, verified, APPLIED")
	if err := tf("apply", "-auto-approve", "-no-color", "-compact-warnings", "-var", brokerVar, "-var", newerVar); err != nil {
		return err
	}
	starts, err := admin.StartOffsets(ctx, dataTopic)
	if err != nil {
		return err
	}
	say("start offsets now (out of band, straight from Kafka): %v", starts)

	step("terraform plan with the OLDER savepoint: a backward move is refused at plan time")
	olderVar := "checkpoint_path=file:" + older
	err = tf("plan", "-no-color", "-compact-warnings", "-var", brokerVar, "-var", olderVar)
	if err == nil {
		return fmt.Errorf("the backward move was not refused")
	}
	say("refused as expected; nothing was written or deleted")

	step("Done")
	say("The runtime, restored with kafkaActionStateCleanupControlTopic=orders-agent-cleanup-control,\n" +
		"now refuses any checkpoint older than the recorded boundary.")
	return nil
}

// produce writes records the way the runtime does: keyed action state.
func produce(brokers []string) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		return err
	}
	defer cl.Close()
	var recs []*kgo.Record
	for p := range int32(partitions) {
		for i := range recordsPerPartition {
			recs = append(recs, &kgo.Record{Topic: dataTopic, Partition: p,
				Key: fmt.Appendf(nil, "order-%d-%d", p, i), Value: fmt.Appendf(nil, `{"action":"charge","seq":%d}`, i)})
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return cl.ProduceSync(ctx, recs...).FirstErr()
}

// writeSavepoint writes a Flink 2.0 savepoint of a parallelism-4 agent
// operator whose subtasks recorded slightly different positions.
func writeSavepoint(dir, topicID string, id int64, base int64) error {
	var subtasks [][]checkpoint.Marker
	for s := range int64(4) {
		offs := map[int32]int64{}
		for p := range int32(partitions) {
			offs[p] = base + s + int64(p%3)
		}
		subtasks = append(subtasks, []checkpoint.Marker{{SchemaVersion: 1, Topic: dataTopic, TopicID: topicID, Offsets: offs}})
	}
	return checkpoint.WriteSavepoint(dir, checkpoint.SavepointSpec{
		MetadataVersion: 5, CheckpointID: id,
		OperatorUID: "action-execute-operator", OperatorName: "action-execute-operator",
		Markers: subtasks,
	})
}

func step(title string) {
	fmt.Printf("\n\033[1m==> %s\033[0m\n", title)
}

func say(format string, args ...any) {
	fmt.Printf("    "+strings.ReplaceAll(format, "\n", "\n    ")+"\n", args...)
}

// sh runs a command with its output shown, indented.
func sh(dir string, env []string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	for _, line := range strings.Split(strings.TrimRight(out.String(), "\n"), "\n") {
		if strings.Contains(line, "Unable to open CLI configuration") || strings.Contains(line, ".terraformrc") {
			continue
		}
		fmt.Println("    │ " + line)
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
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
