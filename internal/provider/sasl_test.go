package provider

import (
	"context"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
)

func TestSASLMechanismsBuild(t *testing.T) {
	tests := []struct {
		block       map[string]any
		env         map[string]string
		wantSecrets []string
	}{
		{block: map[string]any{"mechanism": "PLAIN", "username": "tf", "password": "p1"}, wantSecrets: []string{"p1"}},
		{block: map[string]any{"mechanism": "SCRAM-SHA-256", "username": "tf", "password": "p2"}, wantSecrets: []string{"p2"}},
		{block: map[string]any{"mechanism": "SCRAM-SHA-512", "username": "tf", "password": "p3"}, wantSecrets: []string{"p3"}},
		{block: map[string]any{"mechanism": "OAUTHBEARER", "token": "jwt"}, wantSecrets: []string{"jwt"}},
		{
			block: map[string]any{
				"mechanism": "AWS_MSK_IAM", "aws_access_key_id": "AKIA1", "aws_secret_access_key": "s1",
				"aws_session_token": "st1",
			},
			wantSecrets: []string{"s1", "st1"},
		},
		{
			block:       map[string]any{"mechanism": "AWS_MSK_IAM"},
			env:         map[string]string{awsAccessKeyIDEnv: "AKIA2", awsSecretAccessKeyEnv: "s2"},
			wantSecrets: []string{"s2", ""},
		},
	}
	for _, tt := range tests {
		name := tt.block["mechanism"].(string)
		t.Run(name, func(t *testing.T) {
			getenv := func(k string) string { return tt.env[k] }
			mechanism, secrets, diags := buildSASL(context.Background(), blockObject(t, "sasl", tt.block), getenv, "test")
			if diags.HasError() {
				t.Fatal(diags)
			}
			if mechanism == nil || mechanism.Name() != name {
				t.Fatalf("mechanism %v, want %s", mechanism, name)
			}
			if !slices.Equal(secrets, tt.wantSecrets) {
				t.Errorf("secrets to mask %q, want %q", secrets, tt.wantSecrets)
			}
		})
	}
}

func TestSASLAbsent(t *testing.T) {
	mechanism, secrets, diags := buildSASL(context.Background(), blockObject(t, "sasl", nil), nil, "test")
	if mechanism != nil || secrets != nil || diags.HasError() {
		t.Errorf("got %v, %v, %v; want no SASL", mechanism, secrets, diags)
	}
}

func TestSASLAWSWithoutCredentials(t *testing.T) {
	getenv := func(string) string { return "" }
	block := blockObject(t, "sasl", map[string]any{"mechanism": "AWS_MSK_IAM"})
	mechanism, _, diags := buildSASL(context.Background(), block, getenv, "test")
	if mechanism != nil {
		t.Error("got a mechanism without credentials")
	}
	assertSingleError(t, diags, "Missing AWS Credentials", awsAccessKeyIDEnv, awsSecretAccessKeyEnv)
}

// TestSASLAgainstBroker authenticates with each user/password mechanism at
// a broker, and checks a wrong password is refused. kfake closes the
// connection on a wrong password where Kafka answers
// SASL_AUTHENTICATION_FAILED, so the classification of that answer is
// tested in package diag.
func TestSASLAgainstBroker(t *testing.T) {
	users := map[string][2]string{
		"PLAIN":         {"plain-user", "plain-pw"},
		"SCRAM-SHA-256": {"scram256-user", "scram256-pw"},
		"SCRAM-SHA-512": {"scram512-user", "scram512-pw"},
	}
	opts := []kfake.Opt{kfake.EnableSASL()}
	for name, user := range users {
		opts = append(opts, kfake.Superuser(name, user[0], user[1]))
	}
	brokers := newCluster(t, opts...)
	for name, user := range users {
		connect := func(t *testing.T, password string) error {
			block := map[string]any{"mechanism": name, "username": user[0], "password": password}
			mechanism, _, diags := buildSASL(context.Background(), blockObject(t, "sasl", block), nil, "test")
			if diags.HasError() {
				t.Fatal(diags)
			}
			return ping(t, brokers, nil, mechanism)
		}
		t.Run(name, func(t *testing.T) {
			if err := connect(t, user[1]); err != nil {
				t.Fatalf("right password refused: %v", err)
			}
			if err := connect(t, "wrong"); err == nil {
				t.Fatal("wrong password accepted")
			}
		})
	}
}
