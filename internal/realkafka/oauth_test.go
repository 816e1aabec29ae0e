//go:build realkafka

package realkafka

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/oauth"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/saslauth/saslauthtest"
)

// oauthTokenLifetime is short so that one apply outlives several tokens;
// the OAUTH listener allows no clock skew and demands re-authentication
// every KAFKA_OAUTH_REAUTH_MS (10 s), so an expired token cannot go
// unnoticed.
const oauthTokenLifetime = 15 * time.Second

// oauthTokenServer is a token endpoint whose JWTs the single broker's
// OAUTH listener accepts: signed with the key start-single.sh generated,
// for the audience, issuer and subject it configured.
func oauthTokenServer(t *testing.T, env brokerEnv, clientSecret string) *saslauthtest.TokenServer {
	t.Helper()
	keyPEM, err := os.ReadFile(env.get(t, "KAFKA_OAUTH_SIGNING_KEY_PEM"))
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(keyPEM)
	if block == nil {
		t.Fatal("KAFKA_OAUTH_SIGNING_KEY_PEM holds no PEM block")
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return saslauthtest.NewTokenServer(t, saslauthtest.TokenConfig{
		ClientID: "flinkagents-terraform", ClientSecret: clientSecret, Lifetime: oauthTokenLifetime,
		Key: key.(*rsa.PrivateKey), KeyID: env.get(t, "KAFKA_OAUTH_KEY_ID"), Issuer: env.get(t, "KAFKA_OAUTH_ISSUER"),
		Audience: env.get(t, "KAFKA_OAUTH_AUDIENCE"), Subject: env.get(t, "KAFKA_OAUTH_SUBJECT"),
	})
}

func randomSecret(prefix string) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// traceLog sends Terraform's and the provider's trace logs to one file for
// the rest of the test (see TestSecuritySecretsStayOutOfLogs for why three
// variables).
func traceLog(t *testing.T) string {
	t.Helper()
	logFile := filepath.Join(t.TempDir(), "trace.log")
	t.Setenv("TF_LOG", "trace")
	t.Setenv("TF_LOG_PATH", logFile)
	t.Setenv("TF_ACC_LOG_PATH", logFile)
	return logFile
}

// TestSecurityOAuthClientCredentials authenticates with OAUTHBEARER tokens
// the provider fetches itself (client credentials grant) from a token
// endpoint this test serves, on a listener that validates them against
// the JWKS start-single.sh wrote. The apply outlives several 15-second
// tokens: it succeeds only if new tokens reach the broker on
// re-authentication and new connections.
func TestSecurityOAuthClientCredentials(t *testing.T) {
	env := loadEnv(t, "single")
	clientSecret := randomSecret("oauth-client-secret-")
	tokens := oauthTokenServer(t, env, clientSecret)
	logFile := traceLog(t)
	t.Setenv("TF_VAR_client_secret", clientSecret)
	expired := tokens.JWT(-time.Minute, "kafka")
	t.Setenv("TF_VAR_expired_token", expired)

	vars := "variable \"client_secret\" {\n  sensitive = true\n}\nvariable \"expired_token\" {\n  sensitive = true\n}\n"
	addr := env.get(t, "KAFKA_BOOTSTRAP_OAUTH")
	tlsHCL := tlsBlock(env.get(t, "KAFKA_CA_PEM"))
	clientCredentials := func(secret string) string {
		return vars + provider(addr, tlsHCL+fmt.Sprintf("  sasl {\n    mechanism = \"OAUTHBEARER\"\n    token_url = %q\n"+
			"    client_id = \"flinkagents-terraform\"\n    client_secret = %s\n    scopes = [\"kafka\"]\n  }\n", tokens.URL, secret))
	}
	staticToken := vars + provider(addr, tlsHCL+"  sasl {\n    mechanism = \"OAUTHBEARER\"\n    token = var.expired_token\n  }\n")

	// Three control topics, each created after the previous one and a
	// pause longer than the re-authentication interval: the provider
	// instance of the apply lives for two token lifetimes and must present
	// a fresh token each time the broker asks.
	pause := 12 * time.Second
	names := []string{uniqueName("oauth-a"), uniqueName("oauth-b"), uniqueName("oauth-c")}
	var long strings.Builder
	long.WriteString(clientCredentials("var.client_secret"))
	for i, name := range names {
		dependsOn := ""
		if i > 0 {
			dependsOn = fmt.Sprintf("  depends_on = [terraform_data.pause_%d]\n", i-1)
		}
		fmt.Fprintf(&long, "resource \"flinkagents_cleanup_control_topic\" \"t%d\" {\n  name = %q\n  deletion_protection = false\n%s}\n",
			i, name, dependsOn)
		if i < len(names)-1 {
			fmt.Fprintf(&long, "resource \"terraform_data\" \"pause_%d\" {\n  depends_on = [flinkagents_cleanup_control_topic.t%d]\n"+
				"  provisioner \"local-exec\" {\n    command = \"sleep %d\"\n  }\n}\n", i, i, int(pause.Seconds()))
		}
	}

	var applyStart time.Time
	var tokensBefore int
	var applyTook time.Duration
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config:      strings.Replace(clientCredentials("var.client_secret"), "var.client_secret", `"wrong-secret"`, 1) + boundaryRead(names[0]),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)OAuth Token Request Failed.*invalid_client`),
			},
			{
				// A fixed token is never renewed: once expired, the broker
				// refuses it and the diagnostic says what to do instead.
				Config:      staticToken + boundaryRead(names[0]),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)OAuth Token Rejected.*sasl.token_url`),
			},
			{
				PreConfig: func() { applyStart, tokensBefore = time.Now(), len(tokens.Issued()) },
				Config:    long.String(),
				Check: func(*terraform.State) error {
					applyTook = time.Since(applyStart)
					for _, name := range names {
						if err := topicExists(env, t, name)(nil); err != nil {
							return err
						}
					}
					return nil
				},
			},
		},
	})
	if t.Failed() {
		keepLog(t, logFile)
		return
	}

	issued := tokens.Issued()
	reauths := len(grepFile(t, logFile, "sasl expiry limit reached, reauthenticating"))
	t.Logf("token lifetime %s, broker re-authentication every %s ms; plan+apply step took %s; "+
		"%d tokens issued during it (%d over the whole test); %d in-place re-authentications logged by franz-go",
		oauthTokenLifetime, env.get(t, "KAFKA_OAUTH_REAUTH_MS"), applyTook.Round(100*time.Millisecond),
		len(issued)-tokensBefore, len(issued), reauths)
	if applyTook <= oauthTokenLifetime {
		t.Errorf("the apply took %s, not longer than one token's lifetime (%s): it proves nothing", applyTook, oauthTokenLifetime)
	}
	if len(issued)-tokensBefore < 3 {
		t.Errorf("%d tokens issued while the apply outlived %s tokens; want a plan's and at least two for the apply",
			len(issued)-tokensBefore, oauthTokenLifetime)
	}
	if reauths == 0 {
		t.Error("no re-authentication in the log: the broker should have demanded one during each pause")
	}
	secrets := map[string]string{"client secret": clientSecret, "expired static token": expired}
	for i, tok := range issued {
		secrets[fmt.Sprintf("issued token %d", i+1)] = tok.Token
	}
	for what, secret := range secrets {
		if hits := grepFile(t, logFile, secret); len(hits) > 0 {
			t.Errorf("the %s appears in the trace log (%d line(s)), first: %.300s", what, len(hits), hits[0])
		}
	}
	if t.Failed() {
		keepLog(t, logFile)
	}
}

// keepLog copies a test's trace log where it survives the test.
func keepLog(t *testing.T, logFile string) {
	t.Helper()
	keep := filepath.Join(os.TempDir(), fmt.Sprintf("flinkagents-%s-%d.log", strings.ReplaceAll(t.Name(), "/", "-"), time.Now().Unix()))
	if b, err := os.ReadFile(logFile); err == nil && os.WriteFile(keep, b, 0o600) == nil {
		t.Logf("trace log kept as %s", keep)
	}
}

// TestSecurityOAuthListenerRequiresAToken checks the OAUTH listener checks
// signatures, so the apply above cannot pass on a listener that lets
// anyone in.
func TestSecurityOAuthListenerRequiresAToken(t *testing.T) {
	env := loadEnv(t, "single")
	tokens := oauthTokenServer(t, env, "s")
	other, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	// Right claims, wrong signer.
	forged := saslauthtest.SignRS256(other, env.get(t, "KAFKA_OAUTH_KEY_ID"), map[string]any{
		"iss": env.get(t, "KAFKA_OAUTH_ISSUER"), "aud": env.get(t, "KAFKA_OAUTH_AUDIENCE"),
		"sub": env.get(t, "KAFKA_OAUTH_SUBJECT"), "iat": time.Now().Unix(), "exp": time.Now().Add(time.Minute).Unix(),
	})
	good := tokens.JWT(time.Minute, "kafka")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for name, tc := range map[string]struct {
		token string
		ok    bool
	}{"forged signature": {forged, false}, "signed by the broker's key": {good, true}} {
		err := pingOAuth(ctx, t, env, tc.token)
		if (err == nil) != tc.ok {
			t.Errorf("%s: ping error %v, want success %t", name, err, tc.ok)
		}
	}
}

// pingOAuth makes one metadata round trip on the OAUTH listener with a
// fixed token.
func pingOAuth(ctx context.Context, t *testing.T, env brokerEnv, token string) error {
	t.Helper()
	ca, err := os.ReadFile(env.get(t, "KAFKA_CA_PEM"))
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(ca)
	cl, err := kgo.NewClient(kgo.SeedBrokers(env.get(t, "KAFKA_BOOTSTRAP_OAUTH")),
		kgo.DialTLSConfig(&tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}),
		kgo.SASL(oauth.Auth{Token: token}.AsMechanism()), kgo.RetryTimeout(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	return cl.Ping(ctx)
}
