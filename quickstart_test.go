package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// The README's quick start, run as written from a clone, start to destroy,
// with one substitution: the Kafka it starts (scripts/local-kafka.sh, real
// Apache Kafka from Maven jars) is the test's kfake broker. Terraform's
// questions are answered "yes", as the reader would. HOME is private (the
// quick start installs the provider and writes its directory there).
func TestAccReadmeQuickStart(t *testing.T) {
	e := acctest.NewInProcess(t)
	repo, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	script := quickStart(t, string(readme), e.Brokers[0])
	home, private := privateHome(t)
	var env []string
	for _, kv := range private {
		if !strings.HasPrefix(kv, "TF_INPUT=") {
			env = append(env, kv)
		}
	}

	cmd := exec.Command("bash", "-e", "-x", "-c", script)
	cmd.Dir, cmd.Env = repo, env
	cmd.Stdin = &yesForever{}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	// Terraform colours its output whatever it writes to.
	plain := regexp.MustCompile("\x1b\\[[0-9;]*m").ReplaceAll(out.Bytes(), nil)
	if err != nil {
		t.Fatalf("the quick start failed: %v\n%s", err, plain)
	}
	for _, want := range []string{`records_to_delete\s+= 200\b`, `Apply complete! Resources: 1 added`, `Destroy complete! Resources: 3 destroyed`} {
		if !regexp.MustCompile(want).Match(plain) {
			t.Errorf("the quick start's output has no %q:\n%s", want, plain)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "flinkagents-quickstart", "savepoints", "first", "_metadata")); err != nil {
		t.Errorf("no savepoint where the quick start wrote it: %v", err)
	}
	for _, name := range []string{"orders-agent-action-state", "orders-agent-cleanup-control"} {
		if _, err := e.Admin.DescribeTopic(context.Background(), name); !errors.Is(err, kafkaops.ErrTopicNotFound) {
			t.Errorf("after the quick start's destroy, topic %s: %v, want not found", name, err)
		}
	}
}

// quickStart is the shell block under the README's "Quick start" heading,
// with the local Kafka's start replaced by an export of brokers and its
// stop by nothing.
func quickStart(t *testing.T, readme, brokers string) string {
	t.Helper()
	_, section, ok := strings.Cut(readme, "\n## Quick start\n")
	_, block, ok2 := strings.Cut(section, "\n```sh\n")
	block, _, ok3 := strings.Cut(block, "\n```\n")
	if !ok || !ok2 || !ok3 {
		t.Fatal("README.md has no ```sh block under a \"## Quick start\" heading")
	}
	start := regexp.MustCompile(`(?m)^eval "\$\(scripts/local-kafka\.sh start\)".*$`)
	stop := regexp.MustCompile(`scripts/local-kafka\.sh stop`)
	if len(start.FindAllString(block, -1)) != 1 || len(stop.FindAllString(block, -1)) != 1 {
		t.Fatalf("the quick start should start the local Kafka with eval \"$(scripts/local-kafka.sh start)\" and stop it once each:\n%s", block)
	}
	block = start.ReplaceAllLiteralString(block, "export KAFKA_BOOTSTRAP_SERVERS="+brokers)
	return stop.ReplaceAllLiteralString(block, "true")
}

// yesForever answers every question: each terraform reads standard input
// in chunks of its own, so a finite answer list would run out.
type yesForever struct{ at int }

func (y *yesForever) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "yes\n"[y.at%4]
		y.at++
	}
	return len(p), nil
}
