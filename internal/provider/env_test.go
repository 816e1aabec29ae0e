package provider

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// Each environment variable is tested alone and against its attribute:
// the attribute always wins.

func TestTimeoutFromEnvironment(t *testing.T) {
	tests := []struct {
		name, attr, env string
		want            time.Duration
	}{
		{name: "default", want: 30 * time.Second},
		{name: "whole seconds, as in Mongey's provider", env: "45", want: 45 * time.Second},
		{name: "Go duration", env: "2m", want: 2 * time.Minute},
		{name: "attribute wins", attr: "10s", env: "45", want: 10 * time.Second},
		{name: "attribute in whole seconds, as Mongey's number form", attr: "120", want: 2 * time.Minute},
		{name: "the longest whole seconds", env: "9223372036", want: 9223372036 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			config := map[string]any{"bootstrap_servers": []string{closedAddress(t)}}
			if tt.attr != "" {
				config["timeout"] = tt.attr
			}
			clients, diags := configure(t, map[string]string{timeoutEnv: tt.env}, config)
			if diags.HasError() {
				t.Fatal(diags)
			}
			kafka, err := clients.Kafka(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got := kafka.Timeout(); got != tt.want {
				t.Errorf("timeout %s, want %s", got, tt.want)
			}
		})
	}
	for _, bad := range []string{"0", "-5", "soon", "0s"} {
		t.Run("invalid "+bad, func(t *testing.T) {
			_, diags := configure(t, map[string]string{timeoutEnv: bad}, map[string]any{})
			assertSingleError(t, diags, "Invalid "+timeoutEnv, `"`+bad+`"`, "seconds")
		})
	}
	// Multiplied by a second these wrapped around to about 0.3 s.
	for _, huge := range []string{"18446744074", "9223372037", "99999999999999999999999"} {
		t.Run("too long "+huge, func(t *testing.T) {
			_, diags := configure(t, map[string]string{timeoutEnv: huge}, map[string]any{})
			assertSingleError(t, diags, "Invalid "+timeoutEnv, huge+" seconds is more than the longest timeout", "9223372036 seconds")
		})
	}
}

// certPool holds the CA certificate of pki, to compare RootCAs with.
func certPool(t *testing.T, pemText string) *x509.CertPool {
	t.Helper()
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM([]byte(pemText)) {
		t.Fatal("no certificate")
	}
	return pool
}

func TestTLSFromEnvironment(t *testing.T) {
	pki := newTestPKI(t)
	other := newTestPKI(t)
	caFile := writeFile(t, "ca.pem", pki.caPEM)
	leaf := func(t *testing.T, cfgCert []byte) string {
		t.Helper()
		cert, err := x509.ParseCertificate(cfgCert)
		if err != nil {
			t.Fatal(err)
		}
		return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw}))
	}

	t.Run(enableTLSEnv, func(t *testing.T) {
		for _, tt := range []struct {
			name  string
			block map[string]any
			env   map[string]string
			want  bool
		}{
			{name: "turns TLS on without a block", env: map[string]string{enableTLSEnv: "true"}, want: true},
			{name: "turns a block's TLS off", block: map[string]any{}, env: map[string]string{enableTLSEnv: "false"}},
			{name: "attribute wins", block: map[string]any{"enabled": true}, env: map[string]string{enableTLSEnv: "0"}, want: true},
			{name: "wins over TLS implied by " + caCertEnv, env: map[string]string{enableTLSEnv: "false", caCertEnv: caFile}},
			{name: caCertEnv + " implies TLS", env: map[string]string{caCertEnv: caFile}, want: true},
			{name: "nothing set: plaintext, unlike Mongey's provider"},
		} {
			t.Run(tt.name, func(t *testing.T) {
				cfg, diags := tlsFrom(t, tt.block, tt.env)
				if diags.HasError() {
					t.Fatal(diags)
				}
				if (cfg != nil) != tt.want {
					t.Errorf("TLS on = %t, want %t", cfg != nil, tt.want)
				}
			})
		}
		_, diags := tlsFrom(t, nil, map[string]string{enableTLSEnv: "yes please"})
		assertSingleError(t, diags, "Invalid "+enableTLSEnv, `"yes please"`)
	})

	t.Run(caCertEnv, func(t *testing.T) {
		for name, value := range map[string]string{"PEM text": pki.caPEM, "path": caFile} {
			cfg, diags := tlsFrom(t, nil, map[string]string{caCertEnv: value})
			if diags.HasError() || cfg == nil || !cfg.RootCAs.Equal(certPool(t, pki.caPEM)) {
				t.Errorf("%s: got %v, %v; want the CA as the only root", name, cfg, diags)
			}
		}
		cfg, diags := tlsFrom(t, map[string]any{"ca_pem": other.caPEM}, map[string]string{caCertEnv: "/nonexistent/ca.pem"})
		if diags.HasError() || !cfg.RootCAs.Equal(certPool(t, other.caPEM)) {
			t.Errorf("attribute did not win: %v, %v", cfg, diags)
		}
		_, diags = tlsFrom(t, nil, map[string]string{caCertEnv: "/nonexistent/ca.pem"})
		assertSingleError(t, diags, "Invalid TLS Configuration", "with "+caCertEnv+" standing in for it", "/nonexistent/ca.pem")
		if got := attributePath(diags[0]); got != "tls.ca_pem" {
			t.Errorf("diagnostic at %q, want tls.ca_pem", got)
		}
	})

	t.Run(clientCertEnv+" and "+clientKeyEnv, func(t *testing.T) {
		env := map[string]string{clientCertEnv: writeFile(t, "c.pem", pki.clientCertPEM), clientKeyEnv: pki.clientKeyPEM}
		cfg, diags := tlsFrom(t, nil, env)
		if diags.HasError() || cfg == nil || len(cfg.Certificates) != 1 || leaf(t, cfg.Certificates[0].Certificate[0]) != pki.clientCertPEM {
			t.Fatalf("got %v, %v; want the client certificate from the environment", cfg, diags)
		}
		cfg, diags = tlsFrom(t, map[string]any{"cert_pem": other.clientCertPEM, "key_pem": other.clientKeyPEM}, env)
		if diags.HasError() || leaf(t, cfg.Certificates[0].Certificate[0]) != other.clientCertPEM {
			t.Errorf("attributes did not win: %v", diags)
		}
		// Half from the attribute, half from the environment is a pair too.
		cfg, diags = tlsFrom(t, map[string]any{"cert_pem": pki.clientCertPEM}, map[string]string{clientKeyEnv: pki.clientKeyPEM})
		if diags.HasError() || len(cfg.Certificates) != 1 {
			t.Errorf("certificate attribute with %s: %v", clientKeyEnv, diags)
		}
		_, diags = tlsFrom(t, nil, map[string]string{clientKeyEnv: pki.clientKeyPEM})
		assertSingleError(t, diags, "Invalid TLS Configuration", "has no certificate", clientCertEnv)
	})

	t.Run(skipVerifyEnv, func(t *testing.T) {
		cfg, diags := tlsFrom(t, map[string]any{}, map[string]string{skipVerifyEnv: "true"})
		if cfg == nil || !cfg.InsecureSkipVerify || len(diags) != 1 || diags[0].Severity() != diag.SeverityWarning ||
			!strings.Contains(diags[0].Detail(), skipVerifyEnv) {
			t.Errorf("got %+v, %v; want verification off with a warning naming %s", cfg, diags, skipVerifyEnv)
		}
		cfg, diags = tlsFrom(t, map[string]any{"insecure_skip_verify": false}, map[string]string{skipVerifyEnv: "true"})
		if cfg == nil || cfg.InsecureSkipVerify || diags.HasError() {
			t.Errorf("attribute did not win: %+v, %v", cfg, diags)
		}
		_, diags = tlsFrom(t, map[string]any{}, map[string]string{skipVerifyEnv: "sometimes"})
		assertSingleError(t, diags, "Invalid "+skipVerifyEnv, `"sometimes"`)
	})
}

func TestSASLFromEnvironment(t *testing.T) {
	resolve := func(t *testing.T, block map[string]any, env map[string]string) *saslSettings {
		t.Helper()
		s, diags := resolveSASL(context.Background(), blockObject(t, "sasl", block), func(k string) string { return env[k] })
		if diags.HasError() {
			t.Fatal(diags)
		}
		return s
	}
	userPassword := map[string]string{saslUsernameEnv: "env-user", saslPasswordEnv: "env-pw"}
	with := func(env map[string]string, k, v string) map[string]string {
		out := map[string]string{k: v}
		for key, value := range env {
			out[key] = value
		}
		return out
	}

	t.Run(saslMechanismEnv, func(t *testing.T) {
		for env, want := range map[string]string{
			"scram-sha512": mechanismScramSHA512, "scram-sha256": mechanismScramSHA256, "plain": mechanismPlain,
			"SCRAM-SHA-512": mechanismScramSHA512, "oauthbearer": mechanismOAuthBearer, "aws-iam": mechanismAWSMSKIAM,
			" AWS_MSK_IAM ": mechanismAWSMSKIAM,
		} {
			// The token URL is there for OAUTHBEARER; the others ignore it.
			s := resolve(t, nil, with(with(userPassword, saslTokenURLEnv, "https://idp/token"), saslMechanismEnv, env))
			if s.mechanism != want || s.mechanismFrom != saslMechanismEnv {
				t.Errorf("%s=%q: mechanism %q from %q, want %q", saslMechanismEnv, env, s.mechanism, s.mechanismFrom, want)
			}
		}
		s := resolve(t, map[string]any{"mechanism": "PLAIN"}, with(userPassword, saslMechanismEnv, "SCRAM-SHA-512"))
		if s.mechanism != mechanismPlain {
			t.Errorf("attribute did not win: %q", s.mechanism)
		}
	})

	t.Run(saslUsernameEnv+" and "+saslPasswordEnv, func(t *testing.T) {
		s := resolve(t, nil, userPassword)
		if s.mechanism != mechanismPlain || s.get("username") != "env-user" || s.get("password") != "env-pw" {
			t.Errorf("user alone: %+v; want PLAIN as env-user, as Mongey's provider does", s)
		}
		s = resolve(t, map[string]any{"mechanism": "SCRAM-SHA-256", "username": "attr-user"}, userPassword)
		if s.get("username") != "attr-user" || s.get("password") != "env-pw" || s.values["password"].from == "sasl.password" {
			t.Errorf("got %+v; want the attribute's user and the environment's password", s.values)
		}
		if s := resolve(t, nil, nil); s != nil {
			t.Errorf("nothing set: %+v, want no SASL", s)
		}
	})

	t.Run(saslTokenURLEnv, func(t *testing.T) {
		env := with(with(userPassword, saslMechanismEnv, "oauthbearer"), saslTokenURLEnv, "https://env.example.com/token")
		s := resolve(t, nil, env)
		if s.get("token_url") != "https://env.example.com/token" || s.get("client_id") != "env-user" || s.get("client_secret") != "env-pw" {
			t.Errorf("got %+v; want client credentials from the environment, ID and secret as in Mongey's provider", s.values)
		}
		s = resolve(t, map[string]any{"token_url": "https://attr.example.com/token", "client_id": "attr-client"}, env)
		if s.get("token_url") != "https://attr.example.com/token" || s.get("client_id") != "attr-client" || s.get("client_secret") != "env-pw" {
			t.Errorf("attributes did not win: %+v", s.values)
		}
		// A user name in the environment is not a client ID under SCRAM,
		// and the other way round.
		s = resolve(t, map[string]any{"mechanism": "SCRAM-SHA-512"}, env)
		if _, ok := s.values["client_id"]; ok {
			t.Errorf("SCRAM settings hold a client ID: %+v", s.values)
		}
	})

	t.Run(saslTokenURLEnv+" is checked as the attribute is", func(t *testing.T) {
		env := with(with(userPassword, saslMechanismEnv, "oauthbearer"), saslTokenURLEnv, "ftp://idp.example.com/token")
		s, diags := resolveSASL(context.Background(), blockObject(t, "sasl", nil), func(k string) string { return env[k] })
		if s != nil {
			t.Errorf("an ftp:// token URL was accepted: %+v", s.values)
		}
		assertSingleError(t, diags, "Invalid Token URL", saslTokenURLEnv, `"ftp://idp.example.com/token"`)

		env[saslTokenURLEnv] = "http://idp.example.com/token"
		s, diags = resolveSASL(context.Background(), blockObject(t, "sasl", nil), func(k string) string { return env[k] })
		if s == nil || len(diags) != 1 || diags[0].Severity() != diag.SeverityWarning ||
			diags[0].Summary() != "Token Endpoint Without TLS" || !strings.Contains(diags[0].Detail(), saslTokenURLEnv) {
			t.Errorf("plain http to another host: %v; want it used, with one warning naming %s", diags, saslTokenURLEnv)
		}
		env[saslTokenURLEnv] = "http://127.0.0.1:8080/token"
		if _, diags = resolveSASL(context.Background(), blockObject(t, "sasl", nil), func(k string) string { return env[k] }); len(diags) != 0 {
			t.Errorf("plain http on this machine: %v; want no diagnostic", diags)
		}
	})

	t.Run("connection description names the user from the environment", func(t *testing.T) {
		clients, diags := configure(t, with(userPassword, saslMechanismEnv, "scram-sha512"),
			map[string]any{"bootstrap_servers": []string{"kafka:9093"}})
		if diags.HasError() {
			t.Fatal(diags)
		}
		if want := `kafka:9093 in plaintext with SASL SCRAM-SHA-512 as user "env-user"`; clients.Connection() != want {
			t.Errorf("connection %q, want %q", clients.Connection(), want)
		}
	})
}

func TestCoalesceFromEnvironment(t *testing.T) {
	config := func() map[string]any { return map[string]any{"bootstrap_servers": []string{closedAddress(t)}} }
	for _, ok := range []string{"", "on", "off", "0", "5ms"} {
		t.Run("valid "+ok, func(t *testing.T) {
			if _, diags := configure(t, map[string]string{coalesceEnv: ok}, config()); diags.HasError() {
				t.Fatal(diags)
			}
		})
	}
	for _, bad := range []string{"-1ms", "soon", "true"} {
		t.Run("invalid "+bad, func(t *testing.T) {
			_, diags := configure(t, map[string]string{coalesceEnv: bad}, config())
			assertSingleError(t, diags, "Invalid "+coalesceEnv, `"`+bad+`"`, "on, off")
		})
	}
}

func TestTLSBlockSwitchedOffByEnvironment(t *testing.T) {
	off := map[string]string{enableTLSEnv: "false"}
	sasl := func(mechanism string, tls map[string]any) map[string]any {
		block := map[string]any{"mechanism": mechanism, "username": "tf", "password": "pw"}
		if mechanism == mechanismOAuthBearer {
			block = map[string]any{"mechanism": mechanism, "token": "bearer-token"}
		}
		return map[string]any{"bootstrap_servers": []string{"kafka.example.com:9092"}, "tls": tls, "sasl": block}
	}
	for _, mechanism := range []string{mechanismPlain, mechanismOAuthBearer} {
		t.Run(mechanism+" refused", func(t *testing.T) {
			clients, diags := configure(t, off, sasl(mechanism, map[string]any{}))
			assertSingleError(t, diags, "TLS Switched Off Under SASL "+mechanism, enableTLSEnv+"=false", "enabled = false")
			if clients != nil {
				t.Error("a client was configured to send the secret in plaintext")
			}
		})
	}
	t.Run("SCRAM warned", func(t *testing.T) {
		clients, diags := configure(t, off, sasl(mechanismScramSHA512, map[string]any{}))
		if diags.HasError() || len(diags) != 1 || diags[0].Summary() != "TLS Block Ignored" || clients == nil {
			t.Fatalf("got %v; want one warning, TLS Block Ignored, and a client", diags)
		}
		if !strings.Contains(clients.Connection(), "in plaintext") {
			t.Errorf("connection %q, want plaintext", clients.Connection())
		}
	})
	t.Run("enabled = false in the block is the configuration's own choice", func(t *testing.T) {
		clients, diags := configure(t, off, sasl(mechanismPlain, map[string]any{"enabled": false}))
		if len(diags) != 0 || clients == nil {
			t.Fatalf("got %v; want no diagnostic", diags)
		}
	})
}
