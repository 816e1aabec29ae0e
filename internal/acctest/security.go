package acctest

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"testing"

	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
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
