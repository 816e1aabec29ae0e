package provider

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/actionstate/terraform-provider-flinkagents/internal/saslauth/saslauthtest"
)

// newTokenServer serves tokens for client "terraform" with secret
// "right-secret", valid for an hour.
func newTokenServer(t *testing.T) *saslauthtest.TokenServer {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return saslauthtest.NewTokenServer(t, saslauthtest.TokenConfig{
		ClientID: "terraform", ClientSecret: "right-secret", Lifetime: time.Hour, Key: key,
		KeyID: "k", Issuer: "https://issuer.test", Audience: "kafka", Subject: "terraform",
	})
}

// saslFrom resolves a sasl block (nil: absent) with env as the whole
// environment and builds its mechanism, as Configure does.
func saslFrom(t *testing.T, block map[string]any, env map[string]string) (*saslSetup, diag.Diagnostics) {
	t.Helper()
	ctx := context.Background()
	getenv := func(k string) string { return env[k] }
	settings, diags := resolveSASL(ctx, blockObject(t, "sasl", block), getenv)
	if diags.HasError() {
		return nil, diags
	}
	setup, more := buildSASL(ctx, settings, saslBuild{version: "test", timeout: 5 * time.Second,
		brokers: []string{"b-1.c.x.c2.kafka.eu-west-1.amazonaws.com:9098"}})
	return setup, append(diags, more...)
}

func TestSASLMechanismsBuild(t *testing.T) {
	awsDir := saslauthtest.IsolateAWS(t)
	tests := []struct {
		name          string
		block         map[string]any
		env           map[string]string
		wantMechanism string
		wantSecrets   []string
		wantIdentity  string
	}{
		{name: "PLAIN", block: map[string]any{"mechanism": "PLAIN", "username": "tf", "password": "p1"},
			wantMechanism: "PLAIN", wantSecrets: []string{"p1"}, wantIdentity: `as user "tf"`},
		{name: "SCRAM-SHA-256", block: map[string]any{"mechanism": "SCRAM-SHA-256", "username": "tf", "password": "p2"},
			wantMechanism: "SCRAM-SHA-256", wantSecrets: []string{"p2"}, wantIdentity: `as user "tf"`},
		{name: "SCRAM-SHA-512", block: map[string]any{"mechanism": "SCRAM-SHA-512", "username": "tf", "password": "p3"},
			wantMechanism: "SCRAM-SHA-512", wantSecrets: []string{"p3"}, wantIdentity: `as user "tf"`},
		{name: "OAUTHBEARER with a fixed token", block: map[string]any{"mechanism": "OAUTHBEARER", "token": "jwt"},
			wantMechanism: "OAUTHBEARER", wantSecrets: []string{"jwt"}},
		{
			name: "OAUTHBEARER with client credentials",
			block: map[string]any{"mechanism": "OAUTHBEARER", "token_url": "https://idp.example.com/token",
				"client_id": "terraform", "client_secret": "cs", "scopes": []string{"kafka"}},
			wantMechanism: "OAUTHBEARER", wantSecrets: []string{"cs"},
			wantIdentity: `as OAuth client "terraform" of https://idp.example.com/token`,
		},
		{
			name: "AWS_MSK_IAM with static keys and a role",
			block: map[string]any{
				"mechanism": "AWS_MSK_IAM", "aws_access_key_id": "AKIA1", "aws_secret_access_key": "s1",
				"aws_session_token": "st1", "aws_role_arn": "arn:aws:iam::1:role/r",
			},
			wantMechanism: "AWS_MSK_IAM", wantSecrets: []string{"s1", "st1"},
			wantIdentity: "with credentials from role arn:aws:iam::1:role/r assumed with the static access key AKIA1",
		},
		{
			name: "AWS_MSK_IAM from the default chain", block: map[string]any{"mechanism": "AWS_MSK_IAM", "aws_profile": "ops"},
			wantMechanism: "AWS_MSK_IAM", wantSecrets: []string{"", ""},
			wantIdentity: `with credentials from the AWS default credential chain with profile "ops"`,
		},
	}
	// The profile must exist for the configuration to load.
	if err := os.WriteFile(filepath.Join(awsDir, "config"), []byte("[profile ops]\nregion = eu-west-1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			setup, diags := saslFrom(t, tt.block, tt.env)
			if diags.HasError() {
				t.Fatal(diags)
			}
			if setup == nil || setup.mechanism.Name() != tt.wantMechanism {
				t.Fatalf("mechanism %v, want %s", setup, tt.wantMechanism)
			}
			if !slices.Equal(setup.secrets, tt.wantSecrets) {
				t.Errorf("secrets to mask %q, want %q", setup.secrets, tt.wantSecrets)
			}
			if setup.identity != tt.wantIdentity {
				t.Errorf("identity %q, want %q", setup.identity, tt.wantIdentity)
			}
		})
	}
}

func TestSASLAbsent(t *testing.T) {
	setup, diags := saslFrom(t, nil, nil)
	if setup != nil || diags.HasError() {
		t.Errorf("got %v, %v; want no SASL", setup, diags)
	}
}

// TestSASLConfigureTimeRules covers what a mechanism needs, checked once
// the environment had its say.
func TestSASLConfigureTimeRules(t *testing.T) {
	tests := []struct {
		name     string
		block    map[string]any
		env      map[string]string
		summary  string
		path     string
		mentions []string
	}{
		{
			name: "sasl block without mechanism", block: map[string]any{"username": "tf"},
			summary: "Missing SASL Attribute", path: "sasl.mechanism", mentions: []string{saslMechanismEnv},
		},
		{
			name: "SCRAM without password", block: map[string]any{"mechanism": "SCRAM-SHA-512", "username": "tf"},
			summary: "Missing SASL Attribute", path: "sasl.password", mentions: []string{saslPasswordEnv},
		},
		{
			name: "OAUTHBEARER with neither token nor token_url", block: map[string]any{"mechanism": "OAUTHBEARER"},
			summary: "Missing SASL Attribute", path: "sasl.token_url", mentions: []string{"sasl.token", saslTokenURLEnv},
		},
		{
			name:    "token_url without client secret",
			block:   map[string]any{"mechanism": "OAUTHBEARER", "token_url": "https://idp/token", "client_id": "c"},
			summary: "Missing SASL Attribute", path: "sasl.client_secret", mentions: []string{saslPasswordEnv},
		},
		{
			name: "scopes without token_url", block: map[string]any{"mechanism": "OAUTHBEARER", "token": "t", "scopes": []string{"s"}},
			summary: "SASL Attribute Not Used", path: "sasl.scopes",
		},
		{
			name: "attribute of another mechanism than the environment's", block: map[string]any{"token": "t"},
			env:     map[string]string{saslMechanismEnv: "SCRAM-SHA-256", saslUsernameEnv: "u", saslPasswordEnv: "p"},
			summary: "SASL Attribute Not Used By Mechanism", path: "sasl.token", mentions: []string{saslMechanismEnv},
		},
		{
			name: "unknown mechanism in the environment", env: map[string]string{saslMechanismEnv: "GSSAPI"},
			summary: "Invalid " + saslMechanismEnv, mentions: []string{`"GSSAPI"`, "scram-sha512"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := saslFrom(t, tt.block, tt.env)
			assertSingleError(t, diags, tt.summary, tt.mentions...)
			if got := attributePath(diags[0]); got != tt.path {
				t.Errorf("diagnostic at %q, want %q", got, tt.path)
			}
		})
	}
}

func TestRegionOfBrokers(t *testing.T) {
	for host, want := range map[string]string{
		"b-1.orders.abc123.c2.kafka.eu-west-1.amazonaws.com:9098":               "eu-west-1",
		"boot-abc.c1.kafka-serverless.us-east-1.amazonaws.com:9098":             "us-east-1",
		"vpce-0a1b-x.kafka.us-gov-west-1.vpce.amazonaws.com:9098":               "us-gov-west-1",
		"B-2.Orders.ABC123.C2.Kafka.AP-SOUTHEAST-2.AmazonAWS.com:9098":          "ap-southeast-2",
		"kafka.internal.example.com:9093":                                       "",
		"127.0.0.1:9092":                                                        "",
		"b-1.orders.abc123.c2.kafka-serverless-not.eu-west-1.amazonaws.com:909": "",
	} {
		if got := regionOfBrokers([]string{host}); got != want {
			t.Errorf("regionOfBrokers(%s) = %q, want %q", host, got, want)
		}
	}
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
			setup, diags := saslFrom(t, block, nil)
			if diags.HasError() {
				t.Fatal(diags)
			}
			return ping(t, brokers, nil, setup.mechanism)
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

// TestOAuthClientCredentialsThroughConfigure builds the client the way a
// resource gets it, with a token endpoint that refuses the client and one
// that accepts it: the refusal is reported at first use as a token
// endpoint failure (not a Kafka error), and the accepted client's token is
// fetched then, once, and masked.
func TestOAuthClientCredentialsThroughConfigure(t *testing.T) {
	server := newTokenServer(t)
	config := func(secret string) map[string]any {
		return map[string]any{
			"bootstrap_servers": []string{closedAddress(t)},
			"sasl": map[string]any{"mechanism": "OAUTHBEARER", "token_url": server.URL, "client_id": "terraform",
				"client_secret": secret},
		}
	}

	clients, diags := configure(t, nil, config("wrong-secret"))
	if diags.HasError() {
		t.Fatalf("Configure: %v", diags)
	}
	_, diags = clients.KafkaClient(context.Background(), "reading topic \"orders\"")
	assertSingleError(t, diags, "OAuth Token Request Failed", "invalid_client", "sasl.client_id", server.URL,
		`as OAuth client "terraform"`)
	if strings.Contains(diags[0].Detail(), "wrong-secret") {
		t.Errorf("the diagnostic shows the client secret:\n%s", diags[0].Detail())
	}

	clients, diags = configure(t, nil, config("right-secret"))
	if diags.HasError() {
		t.Fatalf("Configure: %v", diags)
	}
	if _, diags = clients.KafkaClient(context.Background(), "reading topic \"orders\""); diags.HasError() {
		t.Fatalf("KafkaClient: %v", diags)
	}
	if n := len(server.Issued()); n != 1 {
		t.Errorf("%d tokens fetched when the client was built, want 1", n)
	}
}
