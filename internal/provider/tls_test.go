package provider

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/twmb/franz-go/pkg/kfake"
)

// mutualTLSCluster starts a broker that presents pki's broker certificate
// and accepts only clients with a certificate from pki's CA.
func mutualTLSCluster(t *testing.T, pki testPKI) []string {
	t.Helper()
	brokerCert, err := tls.X509KeyPair([]byte(pki.brokerCertPEM), []byte(pki.brokerKeyPEM))
	if err != nil {
		t.Fatal(err)
	}
	clientCAs := x509.NewCertPool()
	clientCAs.AppendCertsFromPEM([]byte(pki.caPEM))
	return newCluster(t, kfake.TLS(&tls.Config{
		Certificates: []tls.Certificate{brokerCert},
		ClientCAs:    clientCAs,
		ClientAuth:   tls.RequireAndVerifyClientCert,
		MinVersion:   tls.VersionTLS12,
	}))
}

// tlsFrom builds the TLS configuration of a tls block (nil: absent) with
// env as the whole environment, as Configure does.
func tlsFrom(t *testing.T, block map[string]any, env map[string]string) (*tls.Config, diag.Diagnostics) {
	t.Helper()
	cfg, _, diags := buildTLS(context.Background(), blockObject(t, "tls", block), func(k string) string { return env[k] })
	return cfg, diags
}

func TestTLSConnectsWithPEMTextAndFiles(t *testing.T) {
	pki := newTestPKI(t)
	brokers := mutualTLSCluster(t, pki)
	tests := map[string]map[string]any{
		"PEM text": {"ca_pem": pki.caPEM, "cert_pem": pki.clientCertPEM, "key_pem": pki.clientKeyPEM},
		"file paths": {
			"ca_pem":   writeFile(t, "ca.pem", pki.caPEM),
			"cert_pem": writeFile(t, "client.pem", pki.clientCertPEM),
			"key_pem":  writeFile(t, "client-key.pem", pki.clientKeyPEM),
		},
		"mixed, with server_name": {
			"ca_pem": writeFile(t, "ca.pem", pki.caPEM), "cert_pem": pki.clientCertPEM,
			"key_pem": writeFile(t, "client-key.pem", pki.clientKeyPEM), "server_name": "broker.test",
		},
	}
	for name, block := range tests {
		t.Run(name, func(t *testing.T) {
			cfg, diags := tlsFrom(t, block, nil)
			if diags.HasError() || cfg == nil {
				t.Fatalf("buildTLS: %v", diags)
			}
			if err := ping(t, brokers, cfg, nil); err != nil {
				t.Fatalf("mutual TLS handshake with the broker failed: %v", err)
			}
		})
	}
}

func TestTLSWithoutClientCertificateIsRefused(t *testing.T) {
	pki := newTestPKI(t)
	brokers := mutualTLSCluster(t, pki)
	cfg, diags := tlsFrom(t, map[string]any{"ca_pem": pki.caPEM}, nil)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if err := ping(t, brokers, cfg, nil); err == nil {
		t.Fatal("broker requiring a client certificate accepted a client without one")
	}
}

func TestTLSOnOff(t *testing.T) {
	if cfg, diags := tlsFrom(t, nil, nil); cfg != nil || diags.HasError() {
		t.Errorf("absent block: got %v, %v; want TLS off", cfg, diags)
	}
	if cfg, diags := tlsFrom(t, map[string]any{"enabled": false, "ca_pem": "ignored"}, nil); cfg != nil || diags.HasError() {
		t.Errorf("enabled = false: got %v, %v; want TLS off", cfg, diags)
	}
	cfg, diags := tlsFrom(t, map[string]any{}, nil)
	if cfg == nil || diags.HasError() || cfg.RootCAs != nil || cfg.MinVersion != tls.VersionTLS12 {
		t.Errorf("empty block: got %+v, %v; want TLS 1.2+ with system roots", cfg, diags)
	}
	cfg, diags = tlsFrom(t, map[string]any{"insecure_skip_verify": true}, nil)
	if cfg == nil || !cfg.InsecureSkipVerify || len(diags) != 1 || diags[0].Severity() != diag.SeverityWarning {
		t.Errorf("insecure_skip_verify: got %+v, %v; want TLS without verification and one warning", cfg, diags)
	}
}

func TestTLSBadPEMNamesTheAttribute(t *testing.T) {
	pki := newTestPKI(t)
	other := newTestPKI(t)
	const pastedKeyBody = "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg" // no BEGIN line
	tests := []struct {
		name     string
		block    map[string]any
		wantPath string
		mentions []string
		notShown string
	}{
		{
			name:     "missing CA file",
			block:    map[string]any{"ca_pem": "/nonexistent/ca.pem"},
			wantPath: "tls.ca_pem", mentions: []string{"/nonexistent/ca.pem", "no such file"},
		},
		{
			name:     "CA file without certificates",
			block:    map[string]any{"ca_pem": writeFile(t, "ca.pem", "not PEM at all\n")},
			wantPath: "tls.ca_pem", mentions: []string{"no PEM block of type CERTIFICATE"},
		},
		{
			name:     "damaged CA certificate",
			block:    map[string]any{"ca_pem": "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"},
			wantPath: "tls.ca_pem", mentions: []string{"certificate 1 does not parse"},
		},
		{
			name:     "key where the certificate belongs",
			block:    map[string]any{"cert_pem": pki.clientKeyPEM, "key_pem": pki.clientKeyPEM},
			wantPath: "tls.cert_pem", mentions: []string{"no PEM block of type CERTIFICATE"},
		},
		{
			name:     "certificate where the key belongs",
			block:    map[string]any{"cert_pem": pki.clientCertPEM, "key_pem": pki.clientCertPEM},
			wantPath: "tls.key_pem", mentions: []string{"no PEM block of a private key"},
		},
		{
			name:     "key of another certificate",
			block:    map[string]any{"cert_pem": pki.clientCertPEM, "key_pem": other.clientKeyPEM},
			wantPath: "tls.key_pem", mentions: []string{"does not belong to the certificate"},
		},
		{
			name:     "certificate without key",
			block:    map[string]any{"cert_pem": pki.clientCertPEM},
			wantPath: "tls.key_pem", mentions: []string{"has no private key", clientKeyEnv},
		},
		{
			name:     "key pasted without its BEGIN line is not echoed",
			block:    map[string]any{"cert_pem": pki.clientCertPEM, "key_pem": pastedKeyBody},
			wantPath: "tls.key_pem", mentions: []string{"value not shown"}, notShown: pastedKeyBody,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := tlsFrom(t, tt.block, nil)
			if cfg != nil {
				t.Error("got a TLS config despite the error")
			}
			assertSingleError(t, diags, "Invalid TLS Configuration", tt.mentions...)
			if got := attributePath(diags[0]); got != tt.wantPath {
				t.Errorf("diagnostic at %q, want %q", got, tt.wantPath)
			}
			if tt.notShown != "" && strings.Contains(diags[0].Detail(), tt.notShown) {
				t.Errorf("detail shows the sensitive value:\n%s", diags[0].Detail())
			}
		})
	}
}

// encryptKey encrypts a PEM private key with openssl, as PKCS#8 (PBES2,
// AES-256-CBC) or in the legacy PEM form, and returns the result.
func encryptKey(t *testing.T, keyPEM, passphrase string, legacy bool) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "key.pem"), []byte(keyPEM), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"pkcs8", "-topk8", "-v2", "aes-256-cbc"}
	if legacy {
		args = []string{"ec", "-aes256"}
	}
	openssl(t, dir, append(args, "-in", "key.pem", "-passout", "pass:"+passphrase, "-out", "encrypted.pem")...)
	return string(readFile(t, filepath.Join(dir, "encrypted.pem")))
}

func TestTLSWithEncryptedClientKey(t *testing.T) {
	pki := newTestPKI(t)
	brokers := mutualTLSCluster(t, pki)
	const passphrase = "s3cret passphrase"
	pkcs8 := encryptKey(t, pki.clientKeyPEM, passphrase, false)
	legacy := encryptKey(t, pki.clientKeyPEM, passphrase, true)
	base := func(key string) map[string]any {
		return map[string]any{"ca_pem": pki.caPEM, "cert_pem": pki.clientCertPEM, "key_pem": key}
	}
	with := func(block map[string]any, k string, v any) map[string]any {
		block[k] = v
		return block
	}

	connects := map[string]struct {
		block map[string]any
		env   map[string]string
	}{
		"PKCS#8, passphrase attribute":         {block: with(base(pkcs8), "key_passphrase", passphrase)},
		"legacy PEM, passphrase attribute":     {block: with(base(writeFile(t, "legacy.pem", legacy)), "key_passphrase", passphrase)},
		"PKCS#8, " + clientKeyPassphraseEnv:    {block: base(pkcs8), env: map[string]string{clientKeyPassphraseEnv: passphrase}},
		"attribute wins over a wrong variable": {block: with(base(pkcs8), "key_passphrase", passphrase), env: map[string]string{clientKeyPassphraseEnv: "wrong"}},
	}
	for name, tt := range connects {
		t.Run(name, func(t *testing.T) {
			cfg, diags := tlsFrom(t, tt.block, tt.env)
			if diags.HasError() || cfg == nil {
				t.Fatalf("buildTLS: %v", diags)
			}
			if err := ping(t, brokers, cfg, nil); err != nil {
				t.Fatalf("mutual TLS with the decrypted key failed: %v", err)
			}
		})
	}

	refused := map[string]struct {
		block    map[string]any
		mentions []string
	}{
		"no passphrase":    {block: base(pkcs8), mentions: []string{"encrypted", "tls.key_passphrase", clientKeyPassphraseEnv}},
		"wrong passphrase": {block: with(base(legacy), "key_passphrase", "not it"), mentions: []string{"does not decrypt"}},
	}
	for name, tt := range refused {
		t.Run(name, func(t *testing.T) {
			cfg, diags := tlsFrom(t, tt.block, nil)
			if cfg != nil {
				t.Error("got a TLS config despite the error")
			}
			assertSingleError(t, diags, "Private Key Not Decrypted", tt.mentions...)
			if got := attributePath(diags[0]); got != "tls.key_passphrase" {
				t.Errorf("diagnostic at %q, want tls.key_passphrase", got)
			}
			if strings.Contains(diags[0].Detail(), "not it") {
				t.Errorf("the diagnostic shows the passphrase:\n%s", diags[0].Detail())
			}
		})
	}
}
