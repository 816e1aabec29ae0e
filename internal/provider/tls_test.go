package provider

import (
	"context"
	"crypto/tls"
	"crypto/x509"
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
			cfg, diags := buildTLS(context.Background(), blockObject(t, "tls", block))
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
	cfg, diags := buildTLS(context.Background(), blockObject(t, "tls", map[string]any{"ca_pem": pki.caPEM}))
	if diags.HasError() {
		t.Fatal(diags)
	}
	if err := ping(t, brokers, cfg, nil); err == nil {
		t.Fatal("broker requiring a client certificate accepted a client without one")
	}
}

func TestTLSOnOff(t *testing.T) {
	ctx := context.Background()
	if cfg, diags := buildTLS(ctx, blockObject(t, "tls", nil)); cfg != nil || diags.HasError() {
		t.Errorf("absent block: got %v, %v; want TLS off", cfg, diags)
	}
	if cfg, diags := buildTLS(ctx, blockObject(t, "tls", map[string]any{"enabled": false, "ca_pem": "ignored"})); cfg != nil || diags.HasError() {
		t.Errorf("enabled = false: got %v, %v; want TLS off", cfg, diags)
	}
	cfg, diags := buildTLS(ctx, blockObject(t, "tls", map[string]any{}))
	if cfg == nil || diags.HasError() || cfg.RootCAs != nil || cfg.MinVersion != tls.VersionTLS12 {
		t.Errorf("empty block: got %+v, %v; want TLS 1.2+ with system roots", cfg, diags)
	}
	cfg, diags = buildTLS(ctx, blockObject(t, "tls", map[string]any{"insecure_skip_verify": true}))
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
			name:     "key pasted without its BEGIN line is not echoed",
			block:    map[string]any{"cert_pem": pki.clientCertPEM, "key_pem": pastedKeyBody},
			wantPath: "tls.key_pem", mentions: []string{"value not shown"}, notShown: pastedKeyBody,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, diags := buildTLS(context.Background(), blockObject(t, "tls", tt.block))
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
