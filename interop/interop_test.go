//go:build interop

package interop_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// java runs the interop CLI and returns stdout; a non-zero exit fails.
func java(t *testing.T, args ...string) []byte {
	t.Helper()
	jar := os.Getenv("FLINKAGENTS_INTEROP_JAR")
	if jar == "" {
		t.Fatal("FLINKAGENTS_INTEROP_JAR is not set: run `make test` (it builds interop/java) or `make interop-jar` and point the variable at interop/java/target/flinkagents-interop.jar")
	}
	if _, err := os.Stat(jar); err != nil {
		t.Fatalf("interop jar: %v (run `make interop-jar`)", err)
	}
	cmd := exec.Command("java", append([]string{"-jar", jar}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("java %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

// vectors cover numeric partition order past 10, non-ASCII, characters
// Go's encoder would escape, control characters, and extreme offsets.
func vectors(t *testing.T) []cleanupplan.Plan {
	t.Helper()
	many := cleanupplan.Offsets{}
	for p := int32(0); p < 70; p++ {
		many[p] = int64(p) * 1_000_003
	}
	specs := []struct {
		src, topic, id string
		offs           cleanupplan.Offsets
	}{
		{"file:/var/flink/checkpoints/7f3a/chk-42", "orders-agent-action-state", "q1Yw3mZ7QGu3c8m0b7o5Zg", cleanupplan.Offsets{0: 150, 1: 100, 2: 0}},
		{"s3://bucket/jobs/a/chk-7", "t", "q1Yw3mZ7QGu3c8m0b7o5Zg", many},
		{"file:/data/Zürich & <ops> \"quoted\" \\back/日本語/😀/chk-1", "agents.ä-topic", "-_-_AAAAAAAAAAAAAAAAAA", cleanupplan.Offsets{10: 1, 2: 9223372036854775807, 1: 0}},
		{"file:/tmp/ctl\t\x01\x1f\u2028\u00a0/chk-3", "x", "zzzzzzzzzzzzzzzzzzzzzw", cleanupplan.Offsets{2147483647: 5}},
	}
	var out []cleanupplan.Plan
	for _, s := range specs {
		p, err := cleanupplan.New(s.src, s.topic, s.id, s.offs)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func TestJacksonReprintsOurPlanFilesAndRecords(t *testing.T) {
	dir := t.TempDir()
	for i, p := range vectors(t) {
		file := filepath.Join(dir, fmt.Sprintf("plan-%d.json", i))
		if err := os.WriteFile(file, p.File(), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := java(t, "reprint-plan", file); !bytes.Equal(got, p.File()) {
			t.Errorf("vector %d: Jackson prints\n%q\nwe print\n%q", i, got, p.File())
		}
		for _, st := range []cleanupplan.Status{cleanupplan.StatusCommitted, cleanupplan.StatusApplied} {
			_, value := cleanupplan.EncodeRecord(st, p)
			rec := filepath.Join(dir, fmt.Sprintf("record-%d-%s.json", i, st))
			if err := os.WriteFile(rec, value, 0o644); err != nil {
				t.Fatal(err)
			}
			if got := java(t, "reprint-record", rec); !bytes.Equal(got, value) {
				t.Errorf("vector %d %s: Jackson prints\n%q\nwe print\n%q", i, st, got, value)
			}
		}
	}
}

func TestJavaComputesTheSamePlanIDAndWritesFilesWeParse(t *testing.T) {
	dir := t.TempDir()
	for i, p := range vectors(t) {
		args := []string{"plan-id", p.SourceRecoveryPoint, p.Topic, p.TopicID}
		var pairs []string
		for _, part := range p.Offsets.Partitions() {
			args = append(args, fmt.Sprintf("%d=%d", part, p.Offsets[part]))
			pairs = append(pairs, fmt.Sprintf("%d=%d", part, p.Offsets[part]))
		}
		if got := strings.TrimSpace(string(java(t, args...))); got != p.ID() {
			t.Errorf("vector %d: Java plan ID %s, ours %s", i, got, p.ID())
		}
		if strings.ContainsAny(p.SourceRecoveryPoint, "\t\x01") {
			continue // write-plan takes the source on the command line; control characters are covered above
		}
		file := filepath.Join(dir, fmt.Sprintf("java-%d.json", i))
		java(t, "write-plan", "--source", p.SourceRecoveryPoint, "--topic", p.Topic, "--topic-id", p.TopicID, "--offsets", strings.Join(pairs, ","), "--out", file)
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := cleanupplan.Parse(data)
		if err != nil {
			t.Fatalf("vector %d: we refuse the Java tool's file: %v", i, err)
		}
		if !parsed.Equal(p) || !bytes.Equal(parsed.File(), data) {
			t.Errorf("vector %d: Java file and ours differ:\n%s\n%s", i, data, parsed.File())
		}
	}
}

// kafkaEnv is an action-state topic and a control topic on kfake, or on
// the external broker named by KAFKA_BOOTSTRAP_SERVERS (CI's real Kafka).
func kafkaEnv(t *testing.T) (*kafkaops.Client, string, string, cleanupplan.Plan) {
	t.Helper()
	brokers := os.Getenv("KAFKA_BOOTSTRAP_SERVERS")
	if brokers == "" {
		c, err := kfake.NewCluster(kfake.NumBrokers(1))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		brokers = strings.Join(c.ListenAddrs(), ",")
	}
	// The listener's TLS and SASL settings, as the acceptance suite reads them.
	k, err := kafkaops.New(acctest.AdminConfig(t, strings.Split(brokers, ",")))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	suffix := fmt.Sprint(time.Now().UnixNano())
	data, control := "interop-action-state-"+suffix, "interop-control-"+suffix
	ctx := context.Background()
	id, err := k.CreateTopic(ctx, data, 3, 1, cleanup.DataTopicSettings)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := k.CreateTopic(ctx, control, 1, 1, map[string]string{"cleanup.policy": "compact"}); err != nil {
		t.Fatal(err)
	}
	p, err := cleanupplan.New("file:/checkpoints/interop/chk-1", data, id.Topic.ID.String(), cleanupplan.Offsets{0: 0, 1: 0, 2: 0})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("INTEROP_BOOTSTRAP", brokers)
	return k, brokers, control, p
}

// javaKafka runs a Kafka command of the interop CLI on the listener the
// suite targets: FLINKAGENTS_ACC_JAVA_SECURITY_FILE holds the Java client
// properties (SASL/SSL) for the secured ones.
func javaKafka(t *testing.T, args ...string) []byte {
	t.Helper()
	if f := os.Getenv("FLINKAGENTS_ACC_JAVA_SECURITY_FILE"); f != "" {
		args = append(args, "--security-file", f)
	}
	return java(t, args...)
}

func TestJavaClientReadsOurControlRecords(t *testing.T) {
	k, brokers, control, p := kafkaEnv(t)
	if _, err := cleanup.Apply(context.Background(), k, cleanup.Request{Plan: p, ControlTopic: control}); err != nil {
		t.Fatal(err)
	}
	got := string(javaKafka(t, "read-control", "--bootstrap", brokers, "--topic", control))
	want := p.ID() + " APPLIED\nboundary 0=0,1=0,2=0\n"
	if got != want {
		t.Fatalf("Java reads\n%s\nwant\n%s", got, want)
	}
}

func TestWeResumeACommittedRecordWrittenByJava(t *testing.T) {
	k, brokers, control, p := kafkaEnv(t)
	file := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(file, p.File(), 0o644); err != nil {
		t.Fatal(err)
	}
	javaKafka(t, "write-committed", "--bootstrap", brokers, "--topic", control, "--plan", file)
	res, err := cleanup.Apply(context.Background(), k, cleanup.Request{Plan: p, ControlTopic: control})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Resumed {
		t.Fatalf("expected to resume the Java tool's COMMITTED record: %+v", res)
	}
	if got := string(javaKafka(t, "read-control", "--bootstrap", brokers, "--topic", control)); !strings.HasPrefix(got, p.ID()+" APPLIED\n") {
		t.Fatalf("after resume Java reads %s", got)
	}
}
