package provider

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// testPKI is a throwaway CA with a broker and a client certificate, all as
// PEM text.
type testPKI struct {
	caPEM, brokerCertPEM, brokerKeyPEM, clientCertPEM, clientKeyPEM string
}

func newTestPKI(t *testing.T) testPKI {
	t.Helper()
	caKey, caCert, caPEM := issue(t, "test CA", nil, nil, func(tmpl *x509.Certificate) {
		tmpl.IsCA = true
		tmpl.BasicConstraintsValid = true
		tmpl.KeyUsage = x509.KeyUsageCertSign
	})
	_, _, brokerPEM := issue(t, "broker", caCert, caKey, func(tmpl *x509.Certificate) {
		tmpl.DNSNames = []string{"localhost", "broker.test"}
		tmpl.IPAddresses = []net.IP{net.ParseIP("127.0.0.1")}
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
	})
	_, _, clientPEM := issue(t, "terraform", caCert, caKey, func(tmpl *x509.Certificate) {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	})
	return testPKI{
		caPEM:         caPEM[0],
		brokerCertPEM: brokerPEM[0], brokerKeyPEM: brokerPEM[1],
		clientCertPEM: clientPEM[0], clientKeyPEM: clientPEM[1],
	}
}

// issue creates a key and a certificate signed by parent (self-signed when
// parent is nil) and returns them with their PEM forms {cert, key}.
func issue(t *testing.T, cn string, parent *x509.Certificate, parentKey *ecdsa.PrivateKey,
	customize func(*x509.Certificate)) (*ecdsa.PrivateKey, *x509.Certificate, [2]string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
	}
	customize(tmpl)
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return key, cert, [2]string{
		string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})),
	}
}

// writeFile puts content in a file of the test's temporary directory and
// returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
