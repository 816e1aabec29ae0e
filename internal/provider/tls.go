package provider

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
)

type tlsModel struct {
	Enabled            types.Bool   `tfsdk:"enabled"`
	CAPEM              types.String `tfsdk:"ca_pem"`
	CertPEM            types.String `tfsdk:"cert_pem"`
	KeyPEM             types.String `tfsdk:"key_pem"`
	KeyPassphrase      types.String `tfsdk:"key_passphrase"`
	InsecureSkipVerify types.Bool   `tfsdk:"insecure_skip_verify"`
	ServerName         types.String `tfsdk:"server_name"`
}

// pemOrPathHint ends the description of every attribute that takes PEM
// material, so the documentation states the rule once, the same way.
const pemOrPathHint = " Either PEM text (recognised by `-----BEGIN`) or the path of a PEM file."

func tlsSchemaBlock() schema.Block {
	nonEmpty := []validator.String{stringvalidator.LengthAtLeast(1)}
	return schema.SingleNestedBlock{
		MarkdownDescription: "Connect with TLS; the block turns it on. Brokers are verified against the system " +
			"roots unless `ca_pem` is set; `cert_pem` with `key_pem` enables mutual TLS. Without the block, the " +
			"TLS environment variables decide (see Environment Variables).",
		Attributes: map[string]schema.Attribute{
			"enabled": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether to use TLS. Defaults to `" + enableTLSEnv + "`, then to `true` when " +
					"the block is present; `false` lets a variable switch TLS off without removing the block.",
			},
			"ca_pem": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Certificate authorities that sign the broker certificates, replacing " +
					"the system roots." + pemOrPathHint + " Defaults to `" + caCertEnv + "`.",
				Validators: nonEmpty,
			},
			"cert_pem": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Client certificate (chain) for mutual TLS; requires `key_pem`." + pemOrPathHint +
					" Defaults to `" + clientCertEnv + "`.",
				Validators: nonEmpty,
			},
			"key_pem": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "Private key of `cert_pem`: PKCS#1, PKCS#8 or SEC 1, encrypted or not (see " +
					"`key_passphrase`)." + pemOrPathHint + " Defaults to `" + clientKeyEnv + "`.",
				Validators: nonEmpty,
			},
			"key_passphrase": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "Passphrase of an encrypted `key_pem`: PKCS#8 `ENCRYPTED PRIVATE KEY` " +
					"(PBES2 with PBKDF2 or scrypt and AES-CBC or 3DES, as `openssl pkcs8 -topk8 -v2 aes-256-cbc` writes) or " +
					"legacy PEM encryption (`Proc-Type: 4,ENCRYPTED`). Ignored for an unencrypted key. Defaults " +
					"to `" + clientKeyPassphraseEnv + "`.",
				Validators: nonEmpty,
			},
			"insecure_skip_verify": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Skip verification of the broker certificate. For diagnosing a " +
					"connection only: it lets anyone on the path impersonate the cluster. Defaults to `" +
					skipVerifyEnv + "`, then `false`.",
			},
			"server_name": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Host name to verify the broker certificate against, instead of the " +
					"host in each broker address; for brokers reached through a tunnel or load balancer.",
				Validators: nonEmpty,
			},
		},
	}
}

// buildTLS returns nil when TLS is off, and the secrets the logger masks.
// Attributes win over their environment variables. Diagnostics name the
// attribute at fault (and the variable when the value came from one) and
// never include key material.
func buildTLS(ctx context.Context, block types.Object, getenv func(string) string) (*tls.Config, []string, diag.Diagnostics) {
	model, diags := objectAs[tlsModel](ctx, block)
	if diags.HasError() {
		return nil, nil, diags
	}
	present := model != nil
	if !present {
		model = &tlsModel{} // every attribute null
	}
	tlsPath := path.Root("tls")
	var (
		ca         = attrOrEnv(model.CAPEM, "tls.ca_pem", getenv, caCertEnv)
		cert       = attrOrEnv(model.CertPEM, "tls.cert_pem", getenv, clientCertEnv)
		key        = attrOrEnv(model.KeyPEM, "tls.key_pem", getenv, clientKeyEnv)
		passphrase = attrOrEnv(model.KeyPassphrase, "tls.key_passphrase", getenv, clientKeyPassphraseEnv)
	)
	on, d := tlsEnabled(model.Enabled, present || ca.isSet() || cert.isSet() || key.isSet(), getenv)
	if d != nil {
		return nil, nil, append(diags, d)
	}
	if !on {
		return nil, nil, diags
	}
	skipVerify := model.InsecureSkipVerify.ValueBool()
	if model.InsecureSkipVerify.IsNull() {
		v, _, d := envBool(getenv, skipVerifyEnv)
		if d != nil {
			return nil, nil, append(diags, d)
		}
		skipVerify = v
	}
	cfg := &tls.Config{
		MinVersion:         tls.VersionTLS12,
		ServerName:         model.ServerName.ValueString(),
		InsecureSkipVerify: skipVerify, //nolint:gosec // opt-in, warned below
	}
	if cfg.InsecureSkipVerify {
		diags.Append(diagnostics.BrokerCertificatesNotVerified(tlsPath.AtName("insecure_skip_verify"), skipVerifyEnv))
	}

	if ca.isSet() {
		roots, d := loadCertificates(tlsPath.AtName("ca_pem"), ca)
		if d != nil {
			diags.Append(d)
		} else {
			cfg.RootCAs = x509.NewCertPool()
			for _, root := range roots {
				cfg.RootCAs.AddCert(root)
			}
		}
	}

	switch {
	case cert.isSet() && key.isSet():
		pair, d := loadKeyPair(tlsPath, cert, key, passphrase.value)
		if d != nil {
			diags.Append(d)
		} else {
			cfg.Certificates = []tls.Certificate{pair}
		}
	case cert.isSet():
		diags.Append(diagnostics.TLSConfigInvalid(tlsPath.AtName("key_pem"),
			"the client certificate (from "+cert.from+") has no private key: tls.key_pem and "+clientKeyEnv+" are not set", nil))
	case key.isSet():
		diags.Append(diagnostics.TLSConfigInvalid(tlsPath.AtName("cert_pem"),
			"the private key (from "+key.from+") has no certificate: tls.cert_pem and "+clientCertEnv+" are not set", nil))
	}
	if diags.HasError() {
		return nil, nil, diags
	}
	return cfg, []string{passphrase.value}, diags
}

// tlsEnabled decides whether TLS is on: the enabled attribute, else
// KAFKA_ENABLE_TLS, else whether there is a block or TLS material. Unlike
// Mongey's provider (where TLS is on unless switched off), an empty
// configuration stays plaintext, as it always has here.
func tlsEnabled(enabled types.Bool, implied bool, getenv func(string) string) (bool, diag.Diagnostic) {
	if !enabled.IsNull() {
		return enabled.ValueBool(), nil
	}
	if on, set, d := envBool(getenv, enableTLSEnv); set || d != nil {
		return on, d
	}
	return implied, nil
}

// pemMaterial reads a setting that holds PEM text or a file path. For a
// sensitive setting the value is kept out of the error: a key pasted
// without its BEGIN line would otherwise be echoed as a "file name".
func pemMaterial(attr path.Path, s setting, sensitive bool) ([]byte, diag.Diagnostic) {
	if strings.Contains(s.value, "-----BEGIN") {
		return []byte(s.value), nil
	}
	data, err := os.ReadFile(s.value)
	if err != nil {
		var pathErr *fs.PathError
		if sensitive && errors.As(err, &pathErr) {
			err = fmt.Errorf("%s (value not shown): %w", pathErr.Op, pathErr.Err)
		}
		return nil, diagnostics.TLSConfigInvalid(attr, fromNote(s)+"the value is not PEM text and could not be read as a file", err)
	}
	return data, nil
}

// fromNote names the environment variable a value came from, for problems
// TLSConfigInvalid reports under the attribute's name; "" for the attribute.
func fromNote(s setting) string {
	if env, _, ok := strings.Cut(s.from, " (used because"); ok {
		return "with " + env + " standing in for it, "
	}
	return ""
}

// loadCertificates reads a setting holding certificates in PEM.
func loadCertificates(attr path.Path, s setting) ([]*x509.Certificate, diag.Diagnostic) {
	data, d := pemMaterial(attr, s, false)
	if d != nil {
		return nil, d
	}
	return parseCertificates(attr, fromNote(s), data)
}

// parseCertificates parses every CERTIFICATE block; it insists on at least
// one and on every one parsing, where x509.CertPool.AppendCertsFromPEM
// would skip a damaged certificate silently.
func parseCertificates(attr path.Path, note string, data []byte) ([]*x509.Certificate, diag.Diagnostic) {
	var certs []*x509.Certificate
	for block, rest := pem.Decode(data); block != nil; block, rest = pem.Decode(rest) {
		if block.Type != "CERTIFICATE" {
			continue
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, diagnostics.TLSConfigInvalid(attr, note+fmt.Sprintf("certificate %d does not parse", len(certs)+1), err)
		}
		certs = append(certs, cert)
	}
	if len(certs) == 0 {
		return nil, diagnostics.TLSConfigInvalid(attr, note+"it holds no PEM block of type CERTIFICATE", nil)
	}
	return certs, nil
}

// loadKeyPair checks each half on its own first, so the diagnostic names the
// attribute that is wrong rather than the pair.
func loadKeyPair(tlsPath path.Path, cert, key setting, passphrase string) (tls.Certificate, diag.Diagnostic) {
	certAttr, keyAttr := tlsPath.AtName("cert_pem"), tlsPath.AtName("key_pem")
	certPEM, d := pemMaterial(certAttr, cert, false)
	if d != nil {
		return tls.Certificate{}, d
	}
	if _, d := parseCertificates(certAttr, fromNote(cert), certPEM); d != nil {
		return tls.Certificate{}, d
	}
	keyPEM, d := pemMaterial(keyAttr, key, true)
	if d != nil {
		return tls.Certificate{}, d
	}
	if !hasPrivateKeyBlock(keyPEM) {
		return tls.Certificate{}, diagnostics.TLSConfigInvalid(keyAttr, fromNote(key)+"it holds no PEM block of a private key", nil)
	}
	keyPEM, err := decryptPrivateKey(keyPEM, passphrase)
	switch {
	case errors.Is(err, errKeyEncrypted):
		return tls.Certificate{}, diagnostics.PrivateKeyNotDecrypted(tlsPath.AtName("key_passphrase"), key.from,
			"the key is encrypted and neither tls.key_passphrase nor "+clientKeyPassphraseEnv+" is set", nil)
	case errors.Is(err, errWrongPassphrase):
		return tls.Certificate{}, diagnostics.PrivateKeyNotDecrypted(tlsPath.AtName("key_passphrase"), key.from,
			"the passphrase does not decrypt the key", nil)
	case err != nil:
		return tls.Certificate{}, diagnostics.PrivateKeyNotDecrypted(keyAttr, key.from, "the key could not be decrypted", err)
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return tls.Certificate{}, diagnostics.TLSConfigInvalid(keyAttr,
			fromNote(key)+"the private key does not parse or does not belong to the certificate in cert_pem", err)
	}
	return pair, nil
}

func hasPrivateKeyBlock(data []byte) bool {
	for block, rest := pem.Decode(data); block != nil; block, rest = pem.Decode(rest) {
		if strings.HasSuffix(block.Type, "PRIVATE KEY") {
			return true
		}
	}
	return false
}

// checkTLSSwitchedOff reports a tls block whose TLS the environment turned
// off (enabled is null, so KAFKA_ENABLE_TLS=false decided). tlsOn is the
// outcome of buildTLS; s the resolved SASL settings (nil for none).
func checkTLSSwitchedOff(ctx context.Context, block types.Object, tlsOn bool, s *saslSettings) diag.Diagnostics {
	model, diags := objectAs[tlsModel](ctx, block)
	if model == nil || tlsOn || !model.Enabled.IsNull() || diags.HasError() {
		return diags
	}
	mechanism := "(none)"
	secretInClear := false
	if s != nil {
		mechanism = s.mechanism
		secretInClear = s.mechanism == mechanismPlain || s.mechanism == mechanismOAuthBearer
	}
	return append(diags, diagnostics.TLSBlockSwitchedOff(path.Root("tls").AtName("enabled"), enableTLSEnv, mechanism, secretInClear))
}
