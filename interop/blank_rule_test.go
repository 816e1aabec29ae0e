//go:build interop

package interop_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// TestBlankRuleAgreesWithJava: the runtime refuses a plan whose
// sourceRecoveryPoint, topic or topicId is blank by trim().isEmpty(); a
// plan it would refuse must never be accepted here (it would reach the
// control topic and break every restore), and one it accepts must not be
// refused. Plan files are written by hand, with the spec's plan ID, so
// that values we refuse can still be offered to Java.
func TestBlankRuleAgreesWithJava(t *testing.T) {
	dir := t.TempDir()
	values := []string{"\u0001", "\u001f\u0001 ", "   ", "\t\n", "\u00a0", "\u2003", "\u0085", "file:/a\u0001b/chk-1", " x "}
	for i, v := range values {
		for field := range 3 {
			src, topic, id := "file:/chk-1", "orders", "q1Yw3mZ7QGu3c8m0b7o5Zg"
			switch field {
			case 0:
				src = v
			case 1:
				topic = v
			case 2:
				if len(strings.TrimSpace(v)) > 0 {
					continue // a topic ID has a fixed alphabet; only blankness is compared
				}
				id = v
			}
			file := filepath.Join(dir, fmt.Sprintf("plan-%d-%d.json", i, field))
			if err := os.WriteFile(file, handWrittenPlan(src, topic, id), 0o644); err != nil {
				t.Fatal(err)
			}
			_, goErr := cleanupplan.Parse(handWrittenPlan(src, topic, id))
			javaOK := javaAccepts(t, "reprint-plan", file)
			if (goErr == nil) != javaOK {
				t.Errorf("value %q in field %d: Java accepts=%v, Go error=%v", v, field, javaOK, goErr)
			}
		}
	}
}

// handWrittenPlan is a plan file in the Java tool's layout with the spec's
// plan ID, whatever the values.
func handWrittenPlan(src, topic, id string) []byte {
	sum := sha256.Sum256([]byte("1\n" + src + "\n" + topic + "\n" + id + "\n0=5\n"))
	return fmt.Appendf(nil, "{\n  \"schemaVersion\" : 1,\n  \"planId\" : %q,\n  \"sourceRecoveryPoint\" : %s,\n  \"topic\" : %s,\n  \"topicId\" : %s,\n  \"offsets\" : {\n    \"0\" : 5\n  }\n}\n",
		hex.EncodeToString(sum[:]), jsonString(src), jsonString(topic), jsonString(id))
}

// jsonString escapes every control character as \uXXXX, as Jackson does.
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// javaAccepts runs the interop CLI and reports whether it exited 0; exit 1
// is a refusal, anything else fails the test.
func javaAccepts(t *testing.T, args ...string) bool {
	t.Helper()
	jar := os.Getenv("FLINKAGENTS_INTEROP_JAR")
	if jar == "" {
		t.Fatal("FLINKAGENTS_INTEROP_JAR is not set: run `make test` (it builds interop/java)")
	}
	out, err := exec.Command("java", append([]string{"-jar", jar}, args...)...).CombinedOutput()
	if err == nil {
		return true
	}
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 1 {
		return false
	}
	t.Fatalf("java %s: %v\n%s", strings.Join(args, " "), err, out)
	return false
}
