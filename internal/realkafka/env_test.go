//go:build realkafka

package realkafka

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// brokerEnv is the env.sh a scripts/kafka start script wrote, read by
// sourcing it in bash so its quoting rules are bash's own.
type brokerEnv map[string]string

func loadEnv(t *testing.T, layout string) brokerEnv {
	t.Helper()
	file := os.Getenv("KAFKA_ENV_FILE")
	if file == "" {
		t.Fatalf("KAFKA_ENV_FILE is not set: these tests need a real broker. Run scripts/testacc-kafka.sh " +
			"(make testacc-kafka), which starts Apache Kafka with scripts/kafka and points KAFKA_ENV_FILE at its env.sh")
	}
	out, err := exec.Command("bash", "-c", `set -e; source "$1"; env -0`, "env", file).Output()
	if err != nil {
		t.Fatalf("sourcing KAFKA_ENV_FILE=%s: %v", file, err)
	}
	env := brokerEnv{}
	for _, kv := range bytes.Split(out, []byte{0}) {
		if k, v, ok := strings.Cut(string(kv), "="); ok && strings.HasPrefix(k, "KAFKA_") {
			env[k] = v
		}
	}
	if got := env["KAFKA_LAYOUT"]; got != layout {
		t.Fatalf("KAFKA_ENV_FILE=%s describes a %q layout; this test needs %q (scripts/kafka/start-%s.sh)", file, got, layout, layout)
	}
	return env
}

func (e brokerEnv) get(t *testing.T, key string) string {
	t.Helper()
	v := e[key]
	if v == "" {
		t.Fatalf("%s is missing from KAFKA_ENV_FILE", key)
	}
	return v
}

// superClient connects over PLAINTEXT, whose principal (User:ANONYMOUS) is a
// super user on the single broker and unrestricted on the cluster.
func (e brokerEnv) superClient(t *testing.T) (*kgo.Client, *kadm.Client, *kafkaops.Client) {
	t.Helper()
	brokers := strings.Split(e.get(t, "KAFKA_BOOTSTRAP_SERVERS"), ",")
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers...), kgo.RecordPartitioner(kgo.ManualPartitioner()),
		kgo.RequiredAcks(kgo.AllISRAcks()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	ops, err := kafkaops.New(kafkaops.Config{Brokers: brokers, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ops.Close)
	return cl, kadm.NewClient(cl), ops
}

// uniqueName returns a topic name unique to this test run.
func uniqueName(prefix string) string {
	return fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano())
}

// createTopic creates a topic and waits until every partition has a
// leader, so that producing right away does not race the election.
func createTopic(t *testing.T, ops *kafkaops.Client, name string, partitions int32, rf int16, configs map[string]string) string {
	t.Helper()
	ctx := context.Background()
	if _, err := ops.CreateTopic(ctx, name, partitions, rf, configs); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		topic, err := ops.DescribeTopic(ctx, name)
		if err == nil && len(topic.Partitions) == int(partitions) && allLed(topic) {
			return topic.ID.String()
		}
		if time.Now().After(deadline) {
			t.Fatalf("topic %s not ready 30s after creation: %v %+v", name, err, topic)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func allLed(t kafkaops.Topic) bool {
	for _, l := range t.Leaders {
		if l < 0 {
			return false
		}
	}
	return true
}

// produce writes n records to every partition, valued "v-<p>-<i>" so the
// record at offset i of partition p can be recognised later.
func produce(t *testing.T, cl *kgo.Client, topic string, partitions int32, n int) {
	t.Helper()
	var recs []*kgo.Record
	for p := range partitions {
		for i := range n {
			recs = append(recs, &kgo.Record{Topic: topic, Partition: p, Key: fmt.Appendf(nil, "k-%d-%d", p, i), Value: recordValue(p, int64(i))})
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
}

func recordValue(p int32, offset int64) []byte { return fmt.Appendf(nil, "v-%d-%d", p, offset) }

// grepFile returns the lines of file that contain needle.
func grepFile(t *testing.T, file, needle string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var hits []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if strings.Contains(sc.Text(), needle) {
			hits = append(hits, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return hits
}

// scriptsDir is scripts/kafka, for kill-node.sh and restart-node.sh.
func scriptsDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("KAFKA_SCRIPTS_DIR"); d != "" {
		return d
	}
	d, err := filepath.Abs("../../scripts/kafka")
	if err != nil {
		t.Fatal(err)
	}
	return d
}
