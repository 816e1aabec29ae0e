// Command write-savepoint writes a real Flink-format savepoint for an
// action-state topic in your Kafka, the savepoint a Flink Agents job would
// take, so the quick start and the first-cleanup guide run without a Flink
// job:
//
//	go run ./cmd/write-savepoint -topic orders-agent-action-state -produce 50 -out savepoints/first
//
// It looks the topic's ID and partitions up in Kafka (a recovery marker
// names the topic by ID, and a plan for another ID is refused), appends
// -produce records to every partition first if asked (the job's action
// state), and records each partition's end offset as the point a restore
// would replay from: a cleanup plan from the savepoint deletes every record
// written before it. The savepoint is Flink 2.0's format (_metadata
// version 5), with the agent operator's uid "action-execute-operator", as
// checkpoint.WriteSavepoint writes it (Flink's State Processor API reads
// those; scripts/check-writer-with-flink.sh checks that).
//
// Kafka is reached in plain text (-bootstrap, or KAFKA_BOOTSTRAP_SERVERS):
// this is for the local Kafka of scripts/local-kafka.sh, not a secured
// cluster.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/actionstate/terraform-provider-flinkagents/internal/jobsim"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "write-savepoint:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("write-savepoint", flag.ContinueOnError)
	bootstrap := fs.String("bootstrap", os.Getenv("KAFKA_BOOTSTRAP_SERVERS"), "Kafka bootstrap servers, comma-separated host:port, plain text (default: KAFKA_BOOTSTRAP_SERVERS)")
	topic := fs.String("topic", "", "the action-state topic (required)")
	out := fs.String("out", "", "the savepoint directory to create; it must not exist or be empty (required)")
	produce := fs.Int("produce", 0, "records to append to every partition first, as the job would")
	checkpointID := fs.Int64("checkpoint-id", 1, "the savepoint's checkpoint ID")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case *bootstrap == "":
		return errors.New("-bootstrap or KAFKA_BOOTSTRAP_SERVERS is required (scripts/local-kafka.sh start prints it)")
	case *topic == "" || *out == "":
		return errors.New("-topic and -out are required")
	case *produce < 0:
		return errors.New("-produce must not be negative")
	}
	dir, err := emptyDir(*out)
	if err != nil {
		return err
	}
	brokers := strings.Split(*bootstrap, ",")
	admin, err := kafkaops.New(kafkaops.Config{Brokers: brokers, ClientID: "flinkagents-write-savepoint"})
	if err != nil {
		return err
	}
	defer admin.Close()
	t, err := admin.DescribeTopic(ctx, *topic)
	if err != nil {
		return fmt.Errorf("looking up topic %s at %s (create it with terraform apply first): %w", *topic, *bootstrap, err)
	}
	if *produce > 0 {
		if err := jobsim.Produce(ctx, brokers, *topic, t.Partitions, *produce); err != nil {
			return err
		}
	}
	ends, err := admin.EndOffsets(ctx, *topic)
	if err != nil {
		return fmt.Errorf("reading the end offsets of %s: %w", *topic, err)
	}
	if err := jobsim.WriteSavepoint(dir, *checkpointID, *topic, t.ID.String(), []map[int32]int64{ends}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote a savepoint of %s (topic ID %s) to %s\n", *topic, t.ID, dir)
	fmt.Fprintf(stdout, "a restore from it replays from offset %s\n", describeOffsets(ends))
	fmt.Fprintf(stdout, "plan from it with:\n  checkpoint_path = %q\n", "file:"+filepath.ToSlash(dir))
	return nil
}

// emptyDir returns path made absolute, refusing a directory that holds
// anything: a savepoint is never written over another one.
func emptyDir(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	entries, err := os.ReadDir(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return abs, nil
	case err != nil:
		return "", err
	case len(entries) > 0:
		return "", fmt.Errorf("%s is not empty; name a new directory for each savepoint", abs)
	}
	return abs, nil
}

// describeOffsets renders "50 on every partition (8)" or "0=50, 1=48".
func describeOffsets(offsets map[int32]int64) string {
	parts := slices.Sorted(maps.Keys(offsets))
	lines := make([]string, len(parts))
	for i, p := range parts {
		lines[i] = fmt.Sprintf("%d=%d", p, offsets[p])
	}
	if len(parts) > 0 && !slices.ContainsFunc(parts, func(p int32) bool { return offsets[p] != offsets[parts[0]] }) {
		return fmt.Sprintf("%d on every partition (%d)", offsets[parts[0]], len(parts))
	}
	return strings.Join(lines, ", ")
}
