package acctest

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// adminTLS mirrors, for the out-of-band client, the listener the suite
// targets: FLINKAGENTS_ACC_CA_PEM (and client cert/key for mTLS) as files.
func adminTLS(t *testing.T) *tls.Config {
	caFile := os.Getenv("FLINKAGENTS_ACC_CA_PEM")
	if caFile == "" {
		return nil
	}
	ca, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatalf("FLINKAGENTS_ACC_CA_PEM: %v", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		t.Fatalf("FLINKAGENTS_ACC_CA_PEM %s holds no certificate", caFile)
	}
	tc := &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	if cert, key := os.Getenv("FLINKAGENTS_ACC_CERT_PEM"), os.Getenv("FLINKAGENTS_ACC_KEY_PEM"); cert != "" {
		pair, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			t.Fatalf("client certificate: %v", err)
		}
		tc.Certificates = []tls.Certificate{pair}
	}
	return tc
}

// adminSASL: FLINKAGENTS_ACC_SASL_MECHANISM with _USER and _PASSWORD.
func adminSASL(t *testing.T) sasl.Mechanism {
	user, pass := os.Getenv("FLINKAGENTS_ACC_SASL_USER"), os.Getenv("FLINKAGENTS_ACC_SASL_PASSWORD")
	switch m := os.Getenv("FLINKAGENTS_ACC_SASL_MECHANISM"); m {
	case "":
		return nil
	case "PLAIN":
		return plain.Auth{User: user, Pass: pass}.AsMechanism()
	case "SCRAM-SHA-256":
		return scram.Auth{User: user, Pass: pass}.AsSha256Mechanism()
	case "SCRAM-SHA-512":
		return scram.Auth{User: user, Pass: pass}.AsSha512Mechanism()
	default:
		t.Fatalf("FLINKAGENTS_ACC_SASL_MECHANISM=%q is not supported by the test harness", m)
		return nil
	}
}

// AdminConfig is the out-of-band kafkaops client configuration for brokers on
// the listener the suite targets (TLS and SASL from FLINKAGENTS_ACC_*), for
// tests that build their own client, such as the interop tests.
func AdminConfig(t *testing.T, brokers []string) kafkaops.Config {
	t.Helper()
	return kafkaops.Config{Brokers: brokers, Timeout: 20 * time.Second, TLS: adminTLS(t), SASL: adminSASL(t)}
}

// ClientOpts are franz-go options reaching the test's broker through the
// listener the suite targets, for records produced or consumed out of band.
func (e *Env) ClientOpts() []kgo.Opt {
	e.t.Helper()
	opts := []kgo.Opt{kgo.SeedBrokers(e.Brokers...)}
	if e.Cluster != nil {
		return opts // kfake listens in plain text
	}
	if tc := adminTLS(e.t); tc != nil {
		opts = append(opts, kgo.DialTLSConfig(tc))
	}
	if m := adminSASL(e.t); m != nil {
		opts = append(opts, kgo.SASL(m))
	}
	return opts
}
