//go:build realkafka

package realkafka

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/saslauth/saslauthtest"
)

// provider renders the provider block for one listener.
func provider(servers, body string) string {
	return fmt.Sprintf("provider \"flinkagents\" {\n  bootstrap_servers = [%q]\n  timeout = \"15s\"\n%s\n}\n", servers, body)
}

func tlsBlock(ca string, certKey ...string) string {
	b := fmt.Sprintf("  tls {\n    ca_pem = %q\n", ca)
	if len(certKey) == 2 {
		b += fmt.Sprintf("    cert_pem = %q\n    key_pem = %q\n", certKey[0], certKey[1])
	}
	return b + "  }\n"
}

func saslBlock(mechanism, user, password string) string {
	return fmt.Sprintf("  sasl {\n    mechanism = %q\n    username = %q\n    password = %q\n  }\n", mechanism, user, password)
}

// controlTopic is a resource that needs a working, authorised connection:
// creating it is a CreateTopics, reading it Metadata and DescribeConfigs.
func controlTopic(resourceName, topic string) string {
	return fmt.Sprintf("resource \"flinkagents_cleanup_control_topic\" %q {\n  name = %q\n  deletion_protection = false\n}\n", resourceName, topic)
}

// boundaryRead is a data source that only reads: it fails at plan time when
// the connection does, so negative cases need no apply.
func boundaryRead(topic string) string {
	return fmt.Sprintf("data \"flinkagents_cleanup_boundary\" \"b\" {\n  control_topic = %q\n}\n", topic)
}

// topicExists checks out of band that Terraform's apply really created it.
func topicExists(env brokerEnv, t *testing.T, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		_, _, ops := env.superClient(t)
		if _, err := ops.DescribeTopic(context.Background(), name); err != nil {
			return fmt.Errorf("after apply: %w", err)
		}
		return nil
	}
}

// foreignCA writes a CA certificate that signed nothing the broker holds.
func foreignCA(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "someone else's CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "foreign-ca.pem")
	if err := os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestSecurityTLSServerVerification(t *testing.T) {
	env := loadEnv(t, "single")
	addr := env.get(t, "KAFKA_BOOTSTRAP_SASL_SSL")
	sasl := saslBlock("SCRAM-SHA-512", env.get(t, "KAFKA_SCRAM_USER"), env.get(t, "KAFKA_SCRAM_PASSWORD"))
	name := uniqueName("tls-verify")
	foreign := provider(addr, tlsBlock(foreignCA(t))+sasl) + boundaryRead(name)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			// The broker's chain does not lead to this CA. Negative steps come
			// first so the post-test destroy runs with the working config.
			{Config: foreign, PlanOnly: true, ExpectError: regexp.MustCompile(`Broker Certificate Not Trusted`)},
			{
				Config: provider(addr, tlsBlock(env.get(t, "KAFKA_CA_PEM"))+sasl) + controlTopic("c", name),
				Check:  topicExists(env, t, name),
			},
		},
	})
	t.Run("diagnostic names the broker", func(t *testing.T) {
		expectPlanError(t, foreign, `(?s)Broker Certificate Not Trusted.*`+regexp.QuoteMeta(addr))
	})
}

// expectPlanError plans config (reading data sources only) and requires
// an error matching pattern.
func expectPlanError(t *testing.T, config, pattern string) {
	t.Helper()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps:                    []resource.TestStep{{Config: config, PlanOnly: true, ExpectError: regexp.MustCompile(pattern)}},
	})
}

func TestSecurityMutualTLS(t *testing.T) {
	env := loadEnv(t, "single")
	addr := env.get(t, "KAFKA_BOOTSTRAP_SSL")
	ca := env.get(t, "KAFKA_CA_PEM")
	name := uniqueName("mtls")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				// ssl.client.auth=required: no certificate, no connection.
				Config:      provider(addr, tlsBlock(ca)) + boundaryRead(name),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`Client Certificate Rejected`),
			},
			{
				Config: provider(addr, tlsBlock(ca, env.get(t, "KAFKA_CLIENT_CERT_PEM"), env.get(t, "KAFKA_CLIENT_KEY_PEM"))) + controlTopic("c", name),
				Check:  topicExists(env, t, name),
			},
		},
	})
}

func TestSecuritySASL(t *testing.T) {
	env := loadEnv(t, "single")
	addr := env.get(t, "KAFKA_BOOTSTRAP_SASL_SSL")
	tls := tlsBlock(env.get(t, "KAFKA_CA_PEM"))
	for _, tc := range []struct{ mechanism, user, password string }{
		{"PLAIN", env.get(t, "KAFKA_SASL_PLAIN_USER"), env.get(t, "KAFKA_SASL_PLAIN_PASSWORD")},
		{"SCRAM-SHA-256", env.get(t, "KAFKA_SCRAM_USER"), env.get(t, "KAFKA_SCRAM_PASSWORD")},
		{"SCRAM-SHA-512", env.get(t, "KAFKA_SCRAM_USER"), env.get(t, "KAFKA_SCRAM_PASSWORD")},
	} {
		t.Run(tc.mechanism, func(t *testing.T) {
			name := uniqueName("sasl-" + strings.ToLower(tc.mechanism))
			wrong := provider(addr, tls+saslBlock(tc.mechanism, tc.user, "wrong-"+tc.password)) + boundaryRead(name)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.Factories,
				Steps: []resource.TestStep{
					{Config: wrong, PlanOnly: true, ExpectError: regexp.MustCompile(`Kafka Authentication Failed`)},
					{
						Config: provider(addr, tls+saslBlock(tc.mechanism, tc.user, tc.password)) + controlTopic("c", name),
						Check:  topicExists(env, t, name),
					},
				},
			})
			// An operator with several credentials needs to know which
			// one the broker refused.
			t.Run("diagnostic names mechanism and user", func(t *testing.T) {
				expectPlanError(t, wrong, `(?s)Kafka Authentication Failed.*`+regexp.QuoteMeta(tc.mechanism)+`.*`+regexp.QuoteMeta(tc.user))
			})
		})
	}
}

// TestSecurityACLRefusesBeforeCommit runs a boundary apply as a principal
// that may read and write the control topic but not delete from the data
// topic. A COMMITTED boundary it could not apply would block restores below
// it while deleting nothing, so the apply must stop before the commit.
func TestSecurityACLRefusesBeforeCommit(t *testing.T) {
	env := loadEnv(t, "single")
	cl, adm, ops := env.superClient(t)
	ctx := context.Background()
	const parts = 3
	data, control := uniqueName("acl-action-state"), uniqueName("acl-control")
	topicID := createTopic(t, ops, data, parts, 1, cleanup.DataTopicSettings)
	createTopic(t, ops, control, 1, 1, map[string]string{cleanup.ConfigCleanupPolicy: "compact"})
	produce(t, cl, data, parts, 10)

	limited := "User:" + env.get(t, "KAFKA_LIMITED_USER")
	// DESCRIBE_CONFIGS is granted too: without it the apply would stop at
	// the settings check, earlier than the permission check under test.
	grant := func(topic string, ops ...kadm.ACLOperation) {
		t.Helper()
		b := kadm.NewACLs().Allow(limited).AllowHosts("*").Topics(topic).ResourcePatternType(kadm.ACLPatternLiteral).Operations(ops...)
		res, err := adm.CreateACLs(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.Err != nil {
				t.Fatalf("granting %v on %s: %v", r.Operation, topic, r.Err)
			}
		}
	}
	grant(control, kadm.OpRead, kadm.OpWrite, kadm.OpDescribe, kadm.OpDescribeConfigs)
	grant(data, kadm.OpDescribe, kadm.OpDescribeConfigs)
	// Appliers of one control topic share a transactional ID (DESIGN.md,
	// Concurrency); without it the apply stops even earlier.
	txn := kadm.NewACLs().Allow(limited).AllowHosts("*").TransactionalIDs(kafkaops.TransactionalID(control)).
		ResourcePatternType(kadm.ACLPatternLiteral).Operations(kadm.OpWrite, kadm.OpDescribe)
	if res, err := adm.CreateACLs(ctx, txn); err != nil || res[0].Err != nil {
		t.Fatalf("granting the transactional ID: %v %v", err, res)
	}

	offs := cleanupplan.Offsets{}
	for p := range int32(parts) {
		offs[p] = 5
	}
	plan, err := cleanupplan.New("file:/checkpoints/acl/chk-1", data, topicID, offs)
	if err != nil {
		t.Fatal(err)
	}
	config := provider(env.get(t, "KAFKA_BOOTSTRAP_SASL_SSL"),
		tlsBlock(env.get(t, "KAFKA_CA_PEM"))+saslBlock("SCRAM-SHA-512", env.get(t, "KAFKA_LIMITED_USER"), env.get(t, "KAFKA_LIMITED_PASSWORD"))) +
		fmt.Sprintf("resource \"flinkagents_cleanup_boundary\" \"b\" {\n  control_topic = %q\n  action_state_topic = %q\n  plan_json = <<-EOT\n%sEOT\n}\n",
			control, data, plan.File())

	untouched := func() {
		t.Helper()
		ends, err := ops.EndOffsets(ctx, control)
		if err != nil {
			t.Fatal(err)
		}
		if ends[0] != 0 {
			t.Fatalf("the refused apply wrote %d record(s) to the control topic", ends[0])
		}
		starts, err := ops.StartOffsets(ctx, data)
		if err != nil {
			t.Fatal(err)
		}
		for p, s := range starts {
			if s != 0 {
				t.Fatalf("the refused apply moved partition %d's start offset to %d", p, s)
			}
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config:      config,
				ExpectError: regexp.MustCompile(`(?s)Missing Kafka Permission For Cleanup.*DELETE\s+on\s+topic\s+"` + regexp.QuoteMeta(data) + `"`),
			},
			{
				// Granting the one missing ACL is all the apply lacked.
				PreConfig: func() { untouched(); grant(data, kadm.OpDelete) },
				Config:    config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("flinkagents_cleanup_boundary.b", tfjsonpath.New("status"), knownvalue.StringExact("APPLIED")),
				},
				Check: func(*terraform.State) error {
					starts, err := ops.StartOffsets(ctx, data)
					if err != nil {
						return err
					}
					for p, s := range starts {
						if s != 5 {
							return fmt.Errorf("partition %d starts at %d after the permitted apply, want 5", p, s)
						}
					}
					return nil
				},
			},
		},
	})
}

// TestSecuritySecretsStayOutOfLogs runs applies at TF_LOG=trace with a SASL
// password, an encrypted private key given inline with its passphrase, an
// OAuth token, and AWS credentials from the default chain (a shared
// credentials file, then a role assumed through STS) in the provider
// configuration, and requires none of them in Terraform's or the
// provider's log.
func TestSecuritySecretsStayOutOfLogs(t *testing.T) {
	env := loadEnv(t, "single")
	keyPEM, err := os.ReadFile(env.get(t, "KAFKA_CLIENT_KEY_PEM"))
	if err != nil {
		t.Fatal(err)
	}
	certPEM, err := os.ReadFile(env.get(t, "KAFKA_CLIENT_CERT_PEM"))
	if err != nil {
		t.Fatal(err)
	}
	tokenBytes := make([]byte, 16)
	_, _ = rand.Read(tokenBytes)
	token := "oauth-token-" + hex.EncodeToString(tokenBytes)
	password := env.get(t, "KAFKA_SCRAM_PASSWORD")
	passphrase := randomSecret("key-passphrase-")
	encryptedKey := encryptPKCS8(t, env.get(t, "KAFKA_CLIENT_KEY_PEM"), passphrase)

	// AWS: a profile in a shared credentials file the test writes, from
	// which a role is assumed through a local STS; the chain must not see
	// this machine's own AWS setup.
	awsDir := saslauthtest.IsolateAWS(t)
	awsSecret := randomSecret("aws-secret-")
	if err := os.WriteFile(filepath.Join(awsDir, "credentials"),
		[]byte("[ci]\naws_access_key_id = AKIAREALKAFKA\naws_secret_access_key = "+awsSecret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_PROFILE", "ci")
	sts := saslauthtest.NewSTS(t)
	t.Setenv("AWS_ENDPOINT_URL_STS", sts.URL)

	// One file for both writers: the Terraform CLI logs where
	// TF_ACC_LOG_PATH says (terraform-plugin-testing passes it on as the
	// CLI's TF_LOG_PATH), the in-process provider through tfsdklog's test
	// sink, which reads TF_LOG_PATH and lets TF_ACC_LOG_PATH win.
	logFile := traceLog(t)

	// The secrets reach Terraform as sensitive variables from the
	// environment, as in a pipeline. Written into the configuration they
	// would show up in the log anyway: terraform-plugin-testing logs each
	// step's configuration text at trace level (a test-harness line, not
	// Terraform's or the provider's).
	t.Setenv("TF_VAR_sasl_password", password)
	t.Setenv("TF_VAR_key_pem", encryptedKey)
	t.Setenv("TF_VAR_key_passphrase", passphrase)
	t.Setenv("TF_VAR_oauth_token", token)
	var vars strings.Builder
	for _, name := range []string{"sasl_password", "key_pem", "key_passphrase", "oauth_token"} {
		fmt.Fprintf(&vars, "variable %q {\n  sensitive = true\n}\n", name)
	}
	ca := env.get(t, "KAFKA_CA_PEM")
	saslSSL := env.get(t, "KAFKA_BOOTSTRAP_SASL_SSL")
	scram := provider(saslSSL, tlsBlock(ca)+
		fmt.Sprintf("  sasl {\n    mechanism = \"SCRAM-SHA-512\"\n    username = %q\n    password = var.sasl_password\n  }\n", env.get(t, "KAFKA_SCRAM_USER")))
	mtls := provider(env.get(t, "KAFKA_BOOTSTRAP_SSL"),
		fmt.Sprintf("  tls {\n    ca_pem = %q\n    cert_pem = %q\n    key_pem = var.key_pem\n    key_passphrase = var.key_passphrase\n  }\n", ca, certPEM))
	oauth := provider(saslSSL, tlsBlock(ca)+"  sasl {\n    mechanism = \"OAUTHBEARER\"\n    token = var.oauth_token\n  }\n")
	aws := provider(saslSSL, tlsBlock(ca)+"  sasl {\n    mechanism = \"AWS_MSK_IAM\"\n"+
		"    aws_role_arn = \"arn:aws:iam::111122223333:role/flinkagents\"\n    aws_region = \"eu-west-1\"\n  }\n")
	nScram, nMTLS := uniqueName("secrets-scram"), uniqueName("secrets-mtls")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		// One provider configuration per step, no aliases: served
		// in-process, every alias of the provider is the same instance and
		// the last ConfigureProvider wins.
		Steps: []resource.TestStep{
			{
				// The listener does not offer OAUTHBEARER, but the token
				// has crossed Terraform into the provider by then.
				Config:      vars.String() + oauth + boundaryRead(nScram),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`SASL Mechanism Not Enabled`),
			},
			{
				// Nor AWS_MSK_IAM; the provider obtains the role's
				// credentials before it connects, so they have been
				// through it too (checked below).
				Config:      vars.String() + aws + boundaryRead(nScram),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`SASL Mechanism Not Enabled`),
			},
			{Config: vars.String() + scram + controlTopic("scram", nScram), Check: topicExists(env, t, nScram)},
			{Config: vars.String() + mtls + controlTopic("mtls", nMTLS), Check: topicExists(env, t, nMTLS)},
		},
	})

	secrets := map[string]string{
		"SASL password": password, "OAuth token": token, "key passphrase": passphrase,
		"AWS secret key from the shared credentials file": awsSecret,
	}
	calls := sts.Calls()
	if len(calls) == 0 || calls[0].SignedBy != "AKIAREALKAFKA" {
		t.Errorf("STS calls %+v; want AssumeRole signed with the profile's key", calls)
	}
	for i, c := range calls {
		secrets[fmt.Sprintf("AWS secret key %d from STS", i+1)] = c.Issued.SecretAccessKey
		secrets[fmt.Sprintf("AWS session token %d from STS", i+1)] = c.Issued.SessionToken
	}
	for name, pemText := range map[string]string{"private key": string(keyPEM), "encrypted private key": encryptedKey} {
		for i, line := range strings.Split(pemText, "\n") {
			if len(line) >= 32 && !strings.HasPrefix(line, "-----") {
				secrets[fmt.Sprintf("%s line %d", name, i+1)] = line
			}
		}
	}
	// A log that does not show both writers at work proves nothing.
	for what, line := range map[string]string{
		"the provider's Kafka configuration": "Kafka client configured",
		"franz-go's trace via tflog":         "[TRACE] flinkagents.kafka:",
		"the AWS credentials obtained":       "AWS credentials obtained for AWS_MSK_IAM",
		"the Terraform CLI":                  "Terraform version",
	} {
		if len(grepFile(t, logFile, line)) == 0 {
			t.Errorf("%s holds no line of %s (%q): the trace log was not captured", logFile, what, line)
		}
	}
	for what, secret := range secrets {
		if hits := grepFile(t, logFile, secret); len(hits) > 0 {
			t.Errorf("the %s appears in %s (%d line(s)), first: %.300s", what, logFile, len(hits), hits[0])
		}
	}
	if t.Failed() {
		keepLog(t, logFile)
	}
}

// encryptPKCS8 encrypts a PEM private key file with a passphrase the way
// OpenSSL does by default (PKCS#8, PBES2, AES-256-CBC) and returns the PEM.
func encryptPKCS8(t *testing.T, keyFile, passphrase string) string {
	t.Helper()
	out, err := exec.Command("openssl", "pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", keyFile,
		"-passout", "pass:"+passphrase).Output()
	if err != nil {
		t.Fatalf("openssl pkcs8: %v", err)
	}
	return string(out)
}
