package saslauth

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/actionstate/terraform-provider-flinkagents/internal/saslauth/saslauthtest"
)

// mskHost is a broker name as MSK hands them out; the signing region is
// read from it.
const mskHost = "b-1.orders.abc123.c2.kafka.eu-west-1.amazonaws.com"

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func newAWS(t *testing.T, opts AWSOptions) *AWSCredentials {
	t.Helper()
	if opts.Timeout == 0 {
		opts.Timeout = 10 * time.Second
	}
	a, err := NewAWSCredentials(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// signsWith authenticates against an MSK host and checks the payload is
// signed with exactly these credentials.
func signsWith(t *testing.T, a *AWSCredentials, accessKey, secretKey, sessionToken string) {
	t.Helper()
	req, err := authenticateMSK(t, a, mskHost+":9098")
	if err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	req.verify(t, accessKey, secretKey, sessionToken, mskHost, "eu-west-1")
}

// signsWithIssued checks the mechanism signs with the credentials STS
// issued last.
func signsWithIssued(t *testing.T, a *AWSCredentials, sts *saslauthtest.STS) {
	t.Helper()
	req, err := authenticateMSK(t, a, mskHost+":9098")
	if err != nil {
		t.Fatalf("Authenticate: %v", err)
	}
	calls := sts.Calls()
	if len(calls) == 0 {
		t.Fatal("the mechanism signed without asking STS")
	}
	issued := calls[len(calls)-1].Issued
	req.verify(t, issued.AccessKeyID, issued.SecretAccessKey, issued.SessionToken, mskHost, "eu-west-1")
}

// stsCalls runs do and returns the STS calls it caused, failing unless
// there was at least one.
func stsCalls(t *testing.T, sts *saslauthtest.STS, do func()) []saslauthtest.STSCall {
	t.Helper()
	before := len(sts.Calls())
	do()
	calls := sts.Calls()[before:]
	if len(calls) == 0 {
		t.Fatal("no STS call")
	}
	return calls
}

func TestAWSCredentialsFromTheDefaultChain(t *testing.T) {
	t.Run("environment", func(t *testing.T) {
		saslauthtest.IsolateAWS(t)
		t.Setenv("AWS_ACCESS_KEY_ID", "AKIAENV")
		t.Setenv("AWS_SECRET_ACCESS_KEY", "env-secret")
		t.Setenv("AWS_SESSION_TOKEN", "env-session")
		signsWith(t, newAWS(t, AWSOptions{}), "AKIAENV", "env-secret", "env-session")
	})
	t.Run("shared credentials file, profile from AWS_PROFILE", func(t *testing.T) {
		dir := saslauthtest.IsolateAWS(t)
		writeFile(t, filepath.Join(dir, "credentials"), "[default]\naws_access_key_id = AKIADEFAULT\naws_secret_access_key = default-secret\n\n"+
			"[ci]\naws_access_key_id = AKIACI\naws_secret_access_key = ci-secret\n")
		t.Setenv("AWS_PROFILE", "ci")
		signsWith(t, newAWS(t, AWSOptions{}), "AKIACI", "ci-secret", "")
	})
	t.Run("profile option wins over AWS_PROFILE", func(t *testing.T) {
		dir := saslauthtest.IsolateAWS(t)
		writeFile(t, filepath.Join(dir, "credentials"), "[ci]\naws_access_key_id = AKIACI\naws_secret_access_key = ci-secret\n\n"+
			"[ops]\naws_access_key_id = AKIAOPS\naws_secret_access_key = ops-secret\naws_session_token = ops-session\n")
		t.Setenv("AWS_PROFILE", "ci")
		signsWith(t, newAWS(t, AWSOptions{Profile: "ops"}), "AKIAOPS", "ops-secret", "ops-session")
	})
	t.Run("role in a shared-config profile", func(t *testing.T) {
		dir := saslauthtest.IsolateAWS(t)
		sts := saslauthtest.NewSTS(t)
		t.Setenv("AWS_ENDPOINT_URL_STS", sts.URL)
		writeFile(t, filepath.Join(dir, "credentials"), "[base]\naws_access_key_id = AKIABASE\naws_secret_access_key = base-secret\n")
		writeFile(t, filepath.Join(dir, "config"), "[profile deploy]\nrole_arn = arn:aws:iam::111122223333:role/kafka-admin\n"+
			"source_profile = base\nregion = eu-west-1\n")
		t.Setenv("AWS_PROFILE", "deploy")
		a := newAWS(t, AWSOptions{})
		calls := stsCalls(t, sts, func() { signsWithIssued(t, a, sts) })
		if c := calls[0]; c.Action != "AssumeRole" || c.RoleARN != "arn:aws:iam::111122223333:role/kafka-admin" || c.SignedBy != "AKIABASE" {
			t.Errorf("STS call %+v; want AssumeRole of kafka-admin signed by the source profile's AKIABASE", c)
		}
	})
	t.Run("web identity (EKS IRSA)", func(t *testing.T) {
		dir := saslauthtest.IsolateAWS(t)
		sts := saslauthtest.NewSTS(t)
		t.Setenv("AWS_ENDPOINT_URL_STS", sts.URL)
		tokenFile := filepath.Join(dir, "token")
		writeFile(t, tokenFile, "eyJ.service-account-token.sig")
		t.Setenv("AWS_WEB_IDENTITY_TOKEN_FILE", tokenFile)
		t.Setenv("AWS_ROLE_ARN", "arn:aws:iam::111122223333:role/irsa")
		t.Setenv("AWS_REGION", "eu-west-1")
		a := newAWS(t, AWSOptions{})
		calls := stsCalls(t, sts, func() { signsWithIssued(t, a, sts) })
		if c := calls[0]; c.Action != "AssumeRoleWithWebIdentity" || c.RoleARN != "arn:aws:iam::111122223333:role/irsa" ||
			c.WebIdentityToken != "eyJ.service-account-token.sig" {
			t.Errorf("STS call %+v; want AssumeRoleWithWebIdentity of irsa with the token file's content", c)
		}
	})
	t.Run("ECS container credentials", func(t *testing.T) {
		saslauthtest.IsolateAWS(t)
		endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "ecs-auth-token" {
				http.Error(w, "no", http.StatusUnauthorized)
				return
			}
			_ = json.NewEncoder(w).Encode(map[string]string{
				"AccessKeyId": "ASIAECS", "SecretAccessKey": "ecs-secret", "Token": "ecs-session",
				"Expiration": time.Now().Add(time.Hour).UTC().Format(time.RFC3339),
			})
		}))
		t.Cleanup(endpoint.Close)
		t.Setenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", endpoint.URL+"/v2/credentials")
		t.Setenv("AWS_CONTAINER_AUTHORIZATION_TOKEN", "ecs-auth-token")
		signsWith(t, newAWS(t, AWSOptions{}), "ASIAECS", "ecs-secret", "ecs-session")
	})
	t.Run("EC2 instance role", func(t *testing.T) {
		saslauthtest.IsolateAWS(t)
		imds := fakeIMDS(t, "instance-role", "ASIAEC2", "ec2-secret", "ec2-session")
		t.Setenv("AWS_EC2_METADATA_DISABLED", "false")
		t.Setenv("AWS_EC2_METADATA_SERVICE_ENDPOINT", imds)
		signsWith(t, newAWS(t, AWSOptions{}), "ASIAEC2", "ec2-secret", "ec2-session")
	})
}

// fakeIMDS serves the IMDSv2 session token and the instance-role
// credential paths of the EC2 instance metadata service.
func fakeIMDS(t *testing.T, role, accessKey, secretKey, sessionToken string) string {
	t.Helper()
	const token = "imds-session-token"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPut && r.URL.Path == "/latest/api/token":
			w.Header().Set("X-Aws-Ec2-Metadata-Token-Ttl-Seconds", "21600")
			_, _ = w.Write([]byte(token))
		case r.Header.Get("X-Aws-Ec2-Metadata-Token") != token:
			http.Error(w, "IMDSv2 token missing", http.StatusUnauthorized)
		case r.URL.Path == "/latest/meta-data/iam/security-credentials/":
			_, _ = w.Write([]byte(role))
		case r.URL.Path == "/latest/meta-data/iam/security-credentials/"+role:
			_ = json.NewEncoder(w).Encode(map[string]string{
				"Code": "Success", "Type": "AWS-HMAC", "AccessKeyId": accessKey, "SecretAccessKey": secretKey,
				"Token": sessionToken, "Expiration": time.Now().Add(time.Hour).UTC().Format(time.RFC3339),
				"LastUpdated": time.Now().UTC().Format(time.RFC3339),
			})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestAWSRoleAssumption(t *testing.T) {
	saslauthtest.IsolateAWS(t)
	sts := saslauthtest.NewSTS(t)
	t.Setenv("AWS_ENDPOINT_URL_STS", sts.URL)
	var secrets []string
	a := newAWS(t, AWSOptions{
		AccessKeyID: "AKIASTATIC", SecretAccessKey: "static-secret",
		RoleARN: "arn:aws:iam::111122223333:role/kafka", ExternalID: "ext-42", SessionName: "terraform-run",
		Region: "eu-west-1",
	})
	a.Hooks.Secrets = func(values ...string) { secrets = append(secrets, values...) }
	calls := stsCalls(t, sts, func() { signsWithIssued(t, a, sts) })
	want := saslauthtest.STSCall{
		Action: "AssumeRole", RoleARN: "arn:aws:iam::111122223333:role/kafka", ExternalID: "ext-42",
		SessionName: "terraform-run", SignedBy: "AKIASTATIC", Issued: calls[0].Issued,
	}
	if calls[0] != want {
		t.Errorf("STS call %+v, want %+v", calls[0], want)
	}
	if !slices.Contains(secrets, calls[0].Issued.SecretAccessKey) || !slices.Contains(secrets, calls[0].Issued.SessionToken) {
		t.Error("the Secrets hook was not told the assumed role's secret key and session token")
	}
	if !strings.Contains(a.Source(), "arn:aws:iam::111122223333:role/kafka") || !strings.Contains(a.Source(), "AKIASTATIC") {
		t.Errorf("Source() = %q; want the role and the key it was assumed with", a.Source())
	}
}

func TestAWSCredentialsAreRenewedBeforeExpiry(t *testing.T) {
	saslauthtest.IsolateAWS(t)
	sts := saslauthtest.NewSTS(t)
	t.Setenv("AWS_ENDPOINT_URL_STS", sts.URL)
	role := AWSOptions{AccessKeyID: "AKIASTATIC", SecretAccessKey: "static-secret",
		RoleARN: "arn:aws:iam::111122223333:role/kafka", Region: "eu-west-1"}

	// An hour of validity: three connections, one AssumeRole.
	long := newAWS(t, role)
	for range 3 {
		signsWithIssued(t, long, sts)
	}
	if n := len(sts.Calls()); n != 1 {
		t.Fatalf("%d AssumeRole calls for three connections with hour-long credentials, want 1", n)
	}

	// Credentials with less than the renewal margin (a minute) left are
	// replaced on the next connection: each connection gets new ones.
	sts.SetLifetime(30 * time.Second)
	short := newAWS(t, role)
	before := len(sts.Calls())
	var keys []string
	for range 3 {
		signsWithIssued(t, short, sts)
		calls := sts.Calls()
		keys = append(keys, calls[len(calls)-1].Issued.AccessKeyID)
	}
	if n := len(sts.Calls()) - before; n != 3 {
		t.Fatalf("%d AssumeRole calls for three connections with credentials expiring in 30 s, want 3", n)
	}
	if keys[0] == keys[1] || keys[1] == keys[2] {
		t.Errorf("connections signed with %q; each should have had new credentials", keys)
	}
}

func TestAWSCredentialFailures(t *testing.T) {
	role := AWSOptions{AccessKeyID: "AKIASTATIC", SecretAccessKey: "static-secret",
		RoleARN: "arn:aws:iam::111122223333:role/kafka", Region: "eu-west-1"}
	refuse := func(code string) func(*testing.T, string, *saslauthtest.STS) {
		return func(_ *testing.T, _ string, sts *saslauthtest.STS) { sts.Refuse(code) }
	}
	tests := []struct {
		name   string
		setup  func(t *testing.T, dir string, sts *saslauthtest.STS)
		opts   AWSOptions
		want   AWSErrorKind
		source string
	}{
		{name: "nothing in the chain", want: AWSCredentialsNotFound, source: "default credential chain"},
		{name: "role refused", setup: refuse("AccessDenied"), opts: role, want: AWSRoleDenied,
			source: "role arn:aws:iam::111122223333:role/kafka"},
		{name: "base credentials expired", setup: refuse("ExpiredToken"), opts: role, want: AWSCredentialsExpired},
		{name: "unknown access key", setup: refuse("InvalidClientTokenId"), opts: role, want: AWSCredentialsInvalid},
		{
			name: "web identity token rejected",
			setup: func(t *testing.T, dir string, sts *saslauthtest.STS) {
				writeFile(t, filepath.Join(dir, "token"), "stale")
				t.Setenv("AWS_WEB_IDENTITY_TOKEN_FILE", filepath.Join(dir, "token"))
				t.Setenv("AWS_ROLE_ARN", "arn:aws:iam::111122223333:role/irsa")
				sts.Refuse("InvalidIdentityToken")
			},
			opts: AWSOptions{Region: "eu-west-1"}, want: AWSWebIdentityRejected,
		},
		{name: "STS hangs", setup: func(_ *testing.T, _ string, sts *saslauthtest.STS) { sts.Hang() },
			opts: withTimeout(role, 500*time.Millisecond), want: AWSTimedOut, source: "role"},
		{name: "role without credentials to assume it with", opts: AWSOptions{RoleARN: role.RoleARN, Region: "eu-west-1"},
			want: AWSCredentialsNotFound, source: "role arn:aws:iam::111122223333:role/kafka assumed with the AWS default credential chain"},
		{
			name: "STS unreachable",
			setup: func(t *testing.T, _ string, _ *saslauthtest.STS) {
				l, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				t.Setenv("AWS_ENDPOINT_URL_STS", "http://"+l.Addr().String())
				l.Close()
				t.Setenv("AWS_MAX_ATTEMPTS", "1")
			},
			opts: role, want: AWSSTSFailed,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := saslauthtest.IsolateAWS(t)
			sts := saslauthtest.NewSTS(t)
			t.Setenv("AWS_ENDPOINT_URL_STS", sts.URL)
			if tt.setup != nil {
				tt.setup(t, dir, sts)
			}
			_, err := authenticateMSK(t, newAWS(t, tt.opts), mskHost+":9098")
			var awsErr *AWSError
			if !errors.As(err, &awsErr) {
				t.Fatalf("got %v (%T), want an *AWSError", err, err)
			}
			if awsErr.Kind != tt.want {
				t.Errorf("kind %d, want %d; error: %v", awsErr.Kind, tt.want, err)
			}
			if !strings.Contains(awsErr.Source, tt.source) {
				t.Errorf("source %q does not mention %q", awsErr.Source, tt.source)
			}
			if strings.Contains(err.Error(), "static-secret") {
				t.Errorf("the error quotes the secret key: %v", err)
			}
		})
	}
}

func withTimeout(opts AWSOptions, d time.Duration) AWSOptions {
	opts.Timeout = d
	return opts
}

func TestAWSCredentialsWhenTerraformCancels(t *testing.T) {
	saslauthtest.IsolateAWS(t)
	sts := saslauthtest.NewSTS(t)
	t.Setenv("AWS_ENDPOINT_URL_STS", sts.URL)
	sts.Hang()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	_, err := newAWS(t, AWSOptions{AccessKeyID: "AKIASTATIC", SecretAccessKey: "static-secret",
		RoleARN: "arn:aws:iam::111122223333:role/kafka", Region: "eu-west-1"}).Retrieve(ctx)
	var awsErr *AWSError
	if errors.As(err, &awsErr) || !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v; want context.Canceled, not an AWSError (nothing is wrong with the credentials)", err)
	}
}

func TestAWSProfileThatDoesNotExist(t *testing.T) {
	saslauthtest.IsolateAWS(t)
	_, err := NewAWSCredentials(context.Background(), AWSOptions{Profile: "nope"})
	if err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatalf("got %v, want an error naming the missing profile", err)
	}
}

func TestAWSCredentialsAreLoggedWithoutSecrets(t *testing.T) {
	saslauthtest.IsolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIAENV")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "env-secret")
	t.Setenv("AWS_SESSION_TOKEN", "env-session")
	a := newAWS(t, AWSOptions{})
	log := &recordingLogger{}
	a.Hooks.Logger = log
	for range 2 {
		if _, err := authenticateMSK(t, a, mskHost+":9098"); err != nil {
			t.Fatal(err)
		}
	}
	if len(log.lines) != 1 || !strings.Contains(log.lines[0], "AKIAENV") || !strings.Contains(log.lines[0], "EnvConfigCredentials") {
		t.Fatalf("log %q; want one line (credentials unchanged the second time) naming the key ID and its provider", log.lines)
	}
	for _, secret := range []string{"env-secret", "env-session"} {
		if strings.Contains(log.lines[0], secret) {
			t.Errorf("log line holds a secret: %s", log.lines[0])
		}
	}
}
