// Command soak is the driver of scripts/soak.sh (make soak): a simulated
// month of nightly fleet cleanup under faults, with invariants checked
// after every night. The script starts Kafka and the S3 emulator and
// builds what this needs; see internal/soak and RELIABILITY.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/actionstate/terraform-provider-flinkagents/internal/soak"
)

func main() {
	var c soak.Config
	var bootstrap, sasl, allowed, secretFiles, skip string
	flag.StringVar(&c.Dir, "dir", "", "work directory (kept: state, logs, schedule, summary.json)")
	flag.StringVar(&c.Root, "root", ".", "the repository")
	flag.Uint64Var(&c.Seed, "seed", 1, "seed of the faults, the fleet and its jobs")
	flag.IntVar(&c.Nights, "nights", 30, "nights to run")
	flag.IntVar(&c.Operators, "operators", 50, "operators in the fleet")
	flag.IntVar(&c.Partitions, "partitions", 3, "partitions of each action-state topic")
	flag.BoolVar(&c.Each, "each", false, "every fault kind once, spread over the nights (the short soak)")
	flag.BoolVar(&c.KeepGoing, "keep-going", false, "record violations and go on")
	flag.StringVar(&skip, "skip", "", "fault kinds to leave out, comma-separated (e.g. topic-recreated)")
	flag.BoolVar(&c.Sabotage, "sabotage", false, "on the last night, lose data around the provider: the checker must report violations")
	flag.StringVar(&c.KafkaDir, "kafka-dir", "", "scripts/kafka workdir of the running cluster")
	flag.StringVar(&bootstrap, "bootstrap", "", "PLAINTEXT bootstrap servers, comma-separated")
	flag.StringVar(&sasl, "sasl-bootstrap", "", "SASL (PLAIN) bootstrap servers the provider uses, comma-separated")
	flag.StringVar(&c.SASLUser, "sasl-user", "soak", "SASL PLAIN user")
	flag.StringVar(&secretFiles, "secret-files", "", "files holding the secrets (the SASL password first), comma-separated; none may appear in any log")
	flag.StringVar(&allowed, "allowed-secret-files", "", "files that may hold a secret, comma-separated")
	flag.StringVar(&c.S3URL, "s3", "", "the S3 emulator's endpoint")
	flag.StringVar(&c.Bucket, "bucket", "soak", "the bucket holding checkpoints and savepoints")
	flag.StringVar(&c.Jar, "jar", "", "interop/java's jar (fleet-check, tool-apply, write-plan)")
	flag.StringVar(&c.OPA, "opa", "", "the opa CLI")
	flag.StringVar(&c.Terraform, "terraform", "terraform", "the terraform CLI")
	flag.Parse()
	c.Bootstrap, c.SASLBootstrap = split(bootstrap), split(sasl)
	c.AllowedSecretFiles = split(allowed)
	for _, k := range split(skip) {
		if !slices.Contains(soak.Kinds, soak.Kind(k)) {
			fmt.Fprintf(os.Stderr, "soak: -skip: no fault kind %q (kinds: %v)\n", k, soak.Kinds)
			os.Exit(2)
		}
		c.Skip = append(c.Skip, soak.Kind(k))
	}
	for _, f := range split(secretFiles) {
		data, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "soak:", err)
			os.Exit(2)
		}
		c.Secrets = append(c.Secrets, strings.TrimSpace(string(data)))
	}
	if c.Dir == "" || c.KafkaDir == "" || len(c.Bootstrap) == 0 || len(c.SASLBootstrap) == 0 || len(c.Secrets) == 0 ||
		c.S3URL == "" || c.Jar == "" || c.OPA == "" {
		fmt.Fprintln(os.Stderr, "soak: -dir, -kafka-dir, -bootstrap, -sasl-bootstrap, -secret-files, -s3, -jar and -opa are required")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := soak.Run(ctx, c, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		if errors.Is(err, soak.ErrViolation) {
			os.Exit(3)
		}
		os.Exit(1)
	}
}

func split(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
