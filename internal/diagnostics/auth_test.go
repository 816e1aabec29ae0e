package diagnostics

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/twmb/franz-go/pkg/kerr"

	"github.com/actionstate/terraform-provider-flinkagents/internal/saslauth"
)

// kafkaError is how franz-go returns a broker's error code with its message.
func kafkaError(code *kerr.Error, message string) error {
	return fmt.Errorf("%w: %s", code, message)
}

func TestFromAuthError(t *testing.T) {
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}
	token := func(status int, code string, err error) error {
		return fmt.Errorf("unable to authenticate: %w", &saslauth.TokenEndpointError{
			TokenURL: "https://idp.example.com/token", ClientID: "terraform", StatusCode: status, ErrorCode: code, Err: err})
	}
	aws := func(kind saslauth.AWSErrorKind) error {
		return &saslauth.AWSError{Kind: kind, Source: "role arn:aws:iam::1:role/r", Err: errors.New("api error")}
	}
	tests := []struct {
		name, summary, next string
		err                 error
	}{
		// Without FromAuthError the dial error inside would read as
		// "Kafka Unreachable", naming the token endpoint as a broker.
		{"token endpoint unreachable", "OAuth Token Request Failed", "did not answer", token(0, "", dial)},
		{"client refused", "OAuth Token Request Failed", "sasl.client_id and sasl.client_secret",
			token(http.StatusUnauthorized, "invalid_client", errors.New("oauth2: \"invalid_client\""))},
		{"scope refused", "OAuth Token Request Failed", "sasl.scopes", token(http.StatusBadRequest, "invalid_scope", errors.New("x"))},
		{"no endpoint there", "OAuth Token Request Failed", "no token endpoint at that URL", token(http.StatusNotFound, "", errors.New("x"))},
		{"identity provider down", "OAuth Token Request Failed", "Retry", token(http.StatusBadGateway, "", errors.New("x"))},
		{"redirect not followed", "OAuth Token Request Failed", "does not follow redirects", &saslauth.TokenEndpointError{
			TokenURL: "https://idp.example.com/token", StatusCode: http.StatusTemporaryRedirect,
			Location: "http://elsewhere.example.com", Err: errors.New("no OAuth error code in the answer")}},
		{"a page instead of a token", "OAuth Token Request Failed", "not with an OAuth token response", &saslauth.TokenEndpointError{
			TokenURL: "https://idp.example.com/token", StatusCode: http.StatusOK, ContentType: "text/html",
			Err: errors.New("the answer is not an OAuth token response")}},
		{"token refused by the broker", "OAuth Token Rejected", "never renewed",
			kafkaError(kerr.SaslAuthenticationFailed, `SASL Authentication failed.: {"status":"invalid_token"}`)},
		{"no AWS credentials", "AWS Credentials Not Found", "aws sts get-caller-identity", aws(saslauth.AWSCredentialsNotFound)},
		{"AWS credentials expired", "AWS Credentials Expired", "aws sso login", aws(saslauth.AWSCredentialsExpired)},
		{"AWS key unknown", "AWS Credentials Invalid", "deactivated", aws(saslauth.AWSCredentialsInvalid)},
		{"role refused", "AWS Role Assumption Denied", "sts:ExternalId", aws(saslauth.AWSRoleDenied)},
		{"web identity refused", "AWS Web Identity Rejected", "OIDC provider", aws(saslauth.AWSWebIdentityRejected)},
		{"STS failed", "AWS STS Request Failed", "VPC endpoint", aws(saslauth.AWSSTSFailed)},
		{"STS hangs", "AWS Credentials Request Timed Out", "drops instead of refusing", aws(saslauth.AWSTimedOut)},
		{"cluster ACL missing", "Kafka Cluster Authorization Failed", "IdempotentWrite",
			kafkaError(kerr.ClusterAuthorizationFailed, "Cluster authorization failed.")},
		{"controller quota", "Kafka Controller Mutation Quota Exceeded", "controller_mutation_rate",
			kafkaError(kerr.ThrottlingQuotaExceeded, "throttled")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := fromAuthErrorVia(op, tt.err, "")
			if !ok {
				t.Fatalf("%v not recognised", tt.err)
			}
			assertShape(t, d, tt.summary, tt.next, tt.err)
			if strings.Contains(d.Detail(), "maintainers") {
				t.Errorf("a configuration problem is sent to the maintainers:\n%s", d.Detail())
			}
			withConn, _ := fromAuthErrorVia(op, tt.err, "kafka:9098 over TLS with SASL OAUTHBEARER")
			if !strings.HasSuffix(withConn.Detail(), "Connection: kafka:9098 over TLS with SASL OAUTHBEARER.") {
				t.Errorf("connection not named:\n%s", withConn.Detail())
			}
		})
	}
}

func TestFromAuthErrorLeavesOtherErrors(t *testing.T) {
	for _, err := range []error{
		kafkaError(kerr.SaslAuthenticationFailed, "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512"),
		kafkaError(kerr.TopicAuthorizationFailed, "Not authorized"),
		&net.OpError{Op: "dial", Net: "tcp", Err: errors.New("refused")},
		errors.New("boom"),
	} {
		if d, ok := fromAuthErrorVia(op, err, ""); ok {
			t.Errorf("%v classified as %q; FromKafkaErrorVia should have it", err, d.Summary())
		}
	}
}

func TestProviderConfigConstructors(t *testing.T) {
	d := InvalidEnvironmentVariable("KAFKA_TIMEOUT", "soon", "a number of seconds", errors.New("bad"))
	assertShapeOf(t, d, "configuring the provider", "Invalid KAFKA_TIMEOUT", "an attribute always wins", errors.New("bad"))
	if !strings.Contains(d.Detail(), `KAFKA_TIMEOUT="soon"`) {
		t.Errorf("variable and value not quoted:\n%s", d.Detail())
	}

	attr := path.Root("tls").AtName("key_passphrase")
	d = PrivateKeyNotDecrypted(attr, "KAFKA_CLIENT_KEY (used because tls.key_pem is not set)", "the passphrase does not decrypt the key", nil)
	assertShapeOf(t, d, "reading the client private key from KAFKA_CLIENT_KEY", "Private Key Not Decrypted", "openssl pkey", nil)
	if got := d.(interface{ Path() path.Path }).Path(); !got.Equal(attr) {
		t.Errorf("points at %s, want %s", got, attr)
	}

	d = MissingProviderSetting(path.Root("sasl").AtName("password"), "Missing SASL Attribute",
		"mechanism PLAIN needs sasl.password, and it", "sasl.password (or KAFKA_SASL_PASSWORD)")
	assertShapeOf(t, d, "configuring the provider, mechanism PLAIN needs sasl.password, and it is not set",
		"Missing SASL Attribute", "KAFKA_SASL_PASSWORD", nil)
}

func TestOAuthTokenRequestFailedNamesWhatTheEndpointAnswered(t *testing.T) {
	redirect := OAuthTokenRequestFailed(op, &saslauth.TokenEndpointError{TokenURL: "https://idp.example.com/token",
		StatusCode: http.StatusTemporaryRedirect, Location: "http://elsewhere.example.com", Err: errors.New("x")})
	if !strings.Contains(redirect.Detail(), "(HTTP 307) to http://elsewhere.example.com") {
		t.Errorf("the redirect's status and origin are not named:\n%s", redirect.Detail())
	}
	page := OAuthTokenRequestFailed(op, &saslauth.TokenEndpointError{TokenURL: "https://idp.example.com/token",
		StatusCode: http.StatusOK, ContentType: "text/html", Err: errors.New("x")})
	if strings.Contains(page.Detail(), "did not answer") || !strings.Contains(page.Detail(), "content type text/html") {
		t.Errorf("a 200 page is not reported as what it is:\n%s", page.Detail())
	}
}
