package provider

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
	"github.com/twmb/franz-go/pkg/kgo"
)

func TestKgoLoggerIsStructuredAndMasksSecrets(t *testing.T) {
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	logger := newKgoLogger(ctx, []string{"hunter2", ""})

	if got := logger.Level(); got != kgo.LogLevelDebug {
		t.Errorf("Level() = %v under a trace root logger, want debug", got)
	}
	logger.Log(kgo.LogLevelError, "sasl failed for password hunter2",
		"broker", int32(1), "err", errors.New("user tf password hunter2 rejected"), "password", "anything")
	logger.Log(kgo.LogLevelInfo, "connection opened", "addr", "127.0.0.1:9092")
	logger.Log(kgo.LogLevelDebug, "wrote request", "odd")

	if strings.Contains(out.String(), "hunter2") || strings.Contains(out.String(), "anything") {
		t.Fatalf("secret reached the log:\n%s", out.String())
	}
	entries, err := tflogtest.MultilineJSONDecode(&out)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 {
		t.Fatalf("got %d log entries, want 3:\n%v", len(entries), entries)
	}
	want := []struct{ level, field, value string }{
		{"error", "err", "user tf password *** rejected"},
		{"debug", "addr", "127.0.0.1:9092"},
		{"trace", "odd", "(missing value)"},
	}
	for i, w := range want {
		e := entries[i]
		if e["@level"] != w.level || e["@module"] != "provider.kafka" || e[w.field] != w.value {
			t.Errorf("entry %d = %v; want level %s, module provider.kafka, %s=%q", i, e, w.level, w.field, w.value)
		}
	}
	if entries[0]["password"] != "***" || entries[0]["broker"] != float64(1) {
		t.Errorf("entry 0 fields = %v; want password masked and broker kept as a number", entries[0])
	}
}
