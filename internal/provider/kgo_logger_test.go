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
	logger := newKgoLogger(ctx, newSecretSet("hunter2", ""))

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

// TestKgoLoggerMasksSecretsObtainedLater covers credentials fetched while
// the provider runs (OAuth tokens, AWS session credentials): they join the
// set after the logger exists and must be masked from then on, in messages,
// in any field, and under the field names of the new credential kinds.
func TestKgoLoggerMasksSecretsObtainedLater(t *testing.T) {
	var out bytes.Buffer
	secrets := newSecretSet("static-pw")
	logger := newKgoLogger(tflogtest.RootLogger(context.Background(), &out), secrets)
	secrets.add("eyJ-oauth-access-token", "aws-session-token-XYZ", "")

	logger.Log(kgo.LogLevelError, "reauth with eyJ-oauth-access-token failed",
		"err", errors.New("signature by aws-session-token-XYZ"), "client_secret", "cs-1", "key_passphrase", "kp-1",
		"secret_access_key", "sak-1", "static", "static-pw")
	for _, secret := range []string{"eyJ-oauth-access-token", "aws-session-token-XYZ", "cs-1", "kp-1", "sak-1", "static-pw"} {
		if strings.Contains(out.String(), secret) {
			t.Errorf("%q reached the log:\n%s", secret, out.String())
		}
	}
	if !strings.Contains(out.String(), "reauth with *** failed") {
		t.Errorf("message not logged with the token masked:\n%s", out.String())
	}
}
