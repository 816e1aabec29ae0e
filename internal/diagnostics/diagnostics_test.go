package diagnostics

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

const op = "reading the control topic \"orders-cleanup\""

// assertShape checks the house shape: an error with this summary, a detail
// that starts with what we were doing, gives advice containing next, and
// ends with the original error.
func assertShape(t *testing.T, d diag.Diagnostic, summary, next string, err error) {
	t.Helper()
	assertShapeOf(t, d, op, summary, next, err)
}

// assertShapeOf is assertShape for a diagnostic made while doing something
// other than op.
func assertShapeOf(t *testing.T, d diag.Diagnostic, doing, summary, next string, err error) {
	t.Helper()
	if d.Severity() != diag.SeverityError {
		t.Errorf("severity %v, want error", d.Severity())
	}
	if d.Summary() != summary {
		t.Errorf("summary %q, want %q", d.Summary(), summary)
	}
	detail := d.Detail()
	if !strings.HasPrefix(detail, "While "+doing) {
		t.Errorf("detail does not start with what we were doing:\n%s", detail)
	}
	if !strings.Contains(detail, next) {
		t.Errorf("detail does not advise %q:\n%s", next, detail)
	}
	if err != nil && !strings.HasSuffix(detail, "Original error: "+err.Error()) {
		t.Errorf("detail does not end with the original error %q:\n%s", err, detail)
	}
}

func TestConstructors(t *testing.T) {
	err := errors.New("boom")
	tests := []struct {
		d       diag.Diagnostic
		summary string
		next    string
	}{
		{kafkaUnreachable(op, []string{"k1:9092", "k2:9092"}, err), "Kafka Unreachable", "k1:9092, k2:9092"},
		{kafkaUnreachable(op, nil, err), "Kafka Unreachable", "the configured bootstrap servers"},
		{kafkaTimeout(op, err), "Kafka Operation Timed Out", "raise the provider's timeout"},
		{cancelled(op, err), "Operation Cancelled", "Run terraform plan"},
		{cleanupCancelled(op, err), "Operation Cancelled", "re-run terraform apply"},
		{unknownCA(op, err), "Broker Certificate Not Trusted", "tls.ca_pem does not match the broker's certificate chain"},
		{tlsHostnameMismatch(op, err), "Broker Certificate Name Mismatch", "tls.server_name"},
		{clientCertificateRejected(op, err), "Client Certificate Rejected", "tls.cert_pem and tls.key_pem"},
		{tlsHandshakeFailed(op, err), "TLS Handshake Failed", "TLS listener"},
		{connectionRejected(op, err), "Kafka Connection Rejected", "security.protocol"},
		{saslAuthFailed(op, err), "Kafka Authentication Failed", "check sasl.username and sasl.password"},
		{saslMechanismUnsupported(op, err), "SASL Mechanism Not Enabled", "sasl.enabled.mechanisms"},
		{notAuthorized(op, err), "Kafka Authorization Failed", "ACL"},
		{unexpected(op, err), "Unexpected Kafka Error", "TF_LOG_PROVIDER=DEBUG"},
	}
	for _, tt := range tests {
		t.Run(tt.summary, func(t *testing.T) {
			assertShape(t, tt.d, tt.summary, strings.TrimPrefix(tt.next, "check "), err)
		})
	}
}

func TestProviderConfigIncomplete(t *testing.T) {
	d := ProviderConfigIncomplete(op, "no bootstrap servers")
	assertShape(t, d, "Provider Configuration Incomplete", "provider \"flinkagents\" block", nil)
	if !strings.Contains(d.Detail(), "no bootstrap servers") || strings.Contains(d.Detail(), "Original error") {
		t.Errorf("detail:\n%s", d.Detail())
	}
}

func TestTLSConfigInvalidPointsAtTheAttribute(t *testing.T) {
	attr := path.Root("tls").AtName("ca_pem")
	err := errors.New("open /etc/kafka/ca.pem: no such file or directory")
	d := TLSConfigInvalid(attr, "the value is not PEM text and could not be read as a file", err)
	withPath, ok := d.(diag.DiagnosticWithPath)
	if !ok || !withPath.Path().Equal(attr) {
		t.Fatalf("diagnostic %v does not point at %s", d, attr)
	}
	if d.Summary() != "Invalid TLS Configuration" ||
		!strings.Contains(d.Detail(), "tls.ca_pem, the value is not PEM text") ||
		!strings.HasSuffix(d.Detail(), err.Error()) {
		t.Errorf("got %q:\n%s", d.Summary(), d.Detail())
	}
}

// handshake dials a TLS server with cfg and returns the client's error.
func handshake(t *testing.T, addr string, cfg *tls.Config) error {
	t.Helper()
	conn, err := tls.Dial("tcp", addr, cfg)
	if err == nil {
		conn.Close()
		t.Fatal("handshake succeeded; the test needs it to fail")
	}
	return err
}

func TestFromKafkaErrorWithRealNetworkErrors(t *testing.T) {
	tlsServer := httptest.NewTLSServer(nil) // certificate for 127.0.0.1 and example.com
	t.Cleanup(tlsServer.Close)
	plainServer := httptest.NewServer(nil)
	t.Cleanup(plainServer.Close)
	trusted := x509.NewCertPool()
	trusted.AddCert(tlsServer.Certificate())
	tlsAddr := tlsServer.Listener.Addr().String()

	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	closed.Close()
	_, refused := net.Dial("tcp", closedAddr)

	tests := []struct {
		name    string
		err     error
		summary string
	}{
		{"CA not trusted", handshake(t, tlsAddr, &tls.Config{RootCAs: x509.NewCertPool()}), "Broker Certificate Not Trusted"},
		{"wrong host name", handshake(t, tlsAddr, &tls.Config{RootCAs: trusted, ServerName: "kafka.other"}), "Broker Certificate Name Mismatch"},
		{"plaintext listener", handshake(t, plainServer.Listener.Addr().String(), &tls.Config{}), "TLS Handshake Failed"},
		{"connection refused", refused, "Kafka Unreachable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// franz-go wraps dial errors; classification must see through that.
			wrapped := fmt.Errorf("unable to dial: %w", tt.err)
			d := FromKafkaErrorVia(op, wrapped, "")
			if d.Summary() != tt.summary {
				t.Fatalf("%v classified as %q, want %q", tt.err, d.Summary(), tt.summary)
			}
			assertShape(t, d, tt.summary, "", wrapped)
		})
	}
	if d := FromKafkaErrorVia(op, refused, ""); !strings.Contains(d.Detail(), closedAddr) {
		t.Errorf("unreachable diagnostic does not name the address %s:\n%s", closedAddr, d.Detail())
	}
}

func TestFromKafkaErrorWithKafkaErrors(t *testing.T) {
	tests := []struct {
		err     error
		summary string
	}{
		// kgo reports a SASL error code as "<kerr>: <broker message>".
		{fmt.Errorf("%w: Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512", kerr.SaslAuthenticationFailed), "Kafka Authentication Failed"},
		{kerr.IllegalSaslState, "Kafka Authentication Failed"},
		{kerr.UnsupportedSaslMechanism, "SASL Mechanism Not Enabled"},
		{kerr.TopicAuthorizationFailed, "Kafka Authorization Failed"},
		{fmt.Errorf("describing configs: %w", kerr.ClusterAuthorizationFailed), "Kafka Cluster Authorization Failed"},
		{kerr.RequestTimedOut, "Kafka Operation Timed Out"},
		{fmt.Errorf("listing offsets: %w", context.DeadlineExceeded), "Kafka Operation Timed Out"},
		{fmt.Errorf("append control record: %w", context.Canceled), "Operation Cancelled"},
		{&kgo.ErrFirstReadEOF{}, "Kafka Connection Rejected"},
		{&net.OpError{Op: "remote error", Net: "tcp", Err: errors.New("tls: certificate required")}, "Client Certificate Rejected"},
		{&net.OpError{Op: "remote error", Net: "tcp", Err: errors.New("tls: protocol version not supported")}, "TLS Handshake Failed"},
		{&net.DNSError{Err: "no such host", Name: "kafka.invalid", IsNotFound: true}, "Kafka Unreachable"},
		{kerr.UnknownTopicOrPartition, "Unexpected Kafka Error"},
		{errors.New("something else"), "Unexpected Kafka Error"},
	}
	for _, tt := range tests {
		t.Run(tt.err.Error(), func(t *testing.T) {
			d := FromKafkaErrorVia(op, tt.err, "")
			if d.Summary() != tt.summary {
				t.Fatalf("classified as %q, want %q", d.Summary(), tt.summary)
			}
			assertShape(t, d, tt.summary, "", tt.err)
		})
	}
}

// Ctrl-C during a topic operation says nothing about cleanup boundaries
// (it has none); during a cleanup operation it says the next apply resumes.
func TestCancelledSaysWhatTheOperationWas(t *testing.T) {
	err := fmt.Errorf("create topic on topic %q: %w", "orders", context.Canceled)
	topic := FromKafkaErrorVia(`creating action-state topic "orders"`, err, "")
	if topic.Summary() != "Operation Cancelled" || strings.Contains(strings.ToLower(topic.Detail()), "boundar") || strings.Contains(topic.Detail(), "COMMITTED") {
		t.Errorf("a cancelled topic operation:\n%s\n%s", topic.Summary(), topic.Detail())
	}
	boundary := FromCleanupErrorVia(`applying cleanup plan p to topic "orders"`, err, "")
	if boundary.Summary() != "Operation Cancelled" || !strings.Contains(boundary.Detail(), "COMMITTED is resumed") {
		t.Errorf("a cancelled cleanup operation:\n%s\n%s", boundary.Summary(), boundary.Detail())
	}
}
