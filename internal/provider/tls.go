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
	InsecureSkipVerify types.Bool   `tfsdk:"insecure_skip_verify"`
	ServerName         types.String `tfsdk:"server_name"`
}

// pemOrPathHint ends the description of every attribute that takes PEM
// material, so the documentation states the rule once, the same way.
const pemOrPathHint = " Either PEM text (recognised by `-----BEGIN`) or the path of a PEM file."

func tlsSchemaBlock() schema.Block {
	nonEmpty := []validator.String{stringvalidator.LengthAtLeast(1)}
	return schema.SingleNestedBlock{
		MarkdownDescription: "Connect with TLS. Presence of the block turns TLS on; brokers are verified " +
			"against the system roots unless `ca_pem` is set. `cert_pem` and `key_pem` together enable " +
			"mutual TLS.",
		Attributes: map[string]schema.Attribute{
			"enabled": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Whether to use TLS. Defaults to `true` when the block is present; " +
					"`false` lets a variable switch TLS off without removing the block.",
			},
			"ca_pem": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Certificate authorities that sign the broker certificates, replacing " +
					"the system roots." + pemOrPathHint,
				Validators: nonEmpty,
			},
			"cert_pem": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Client certificate (chain) for mutual TLS; requires `key_pem`." + pemOrPathHint,
				Validators:          nonEmpty,
			},
			"key_pem": schema.StringAttribute{
				Optional:            true,
				Sensitive:           true,
				MarkdownDescription: "Private key of `cert_pem`." + pemOrPathHint,
				Validators:          nonEmpty,
			},
			"insecure_skip_verify": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "Skip verification of the broker certificate. For diagnosing a " +
					"connection only: it lets anyone on the path impersonate the cluster. Defaults to `false`.",
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

// buildTLS returns nil when TLS is off. Diagnostics name the attribute at
// fault and never include key material.
func buildTLS(ctx context.Context, block types.Object) (*tls.Config, diag.Diagnostics) {
	model, diags := objectAs[tlsModel](ctx, block)
	if model == nil || diags.HasError() || (!model.Enabled.IsNull() && !model.Enabled.ValueBool()) {
		return nil, diags
	}
	tlsPath := path.Root("tls")
	cfg := &tls.Config{
		MinVersion:         tls.VersionTLS12,
		ServerName:         model.ServerName.ValueString(),
		InsecureSkipVerify: model.InsecureSkipVerify.ValueBool(), //nolint:gosec // opt-in, warned below
	}
	if cfg.InsecureSkipVerify {
		diags.AddAttributeWarning(tlsPath.AtName("insecure_skip_verify"), "Broker Certificates Not Verified",
			"While configuring TLS, insecure_skip_verify = true turned off verification of the broker "+
				"certificates, so anyone on the network path can impersonate the cluster and receive the "+
				"SASL credentials.\n\nSet tls.ca_pem to the CA that signed the brokers and remove "+
				"insecure_skip_verify once the connection works.")
	}

	if !model.CAPEM.IsNull() {
		attr := tlsPath.AtName("ca_pem")
		roots, d := loadCertificates(attr, model.CAPEM.ValueString())
		if d != nil {
			diags.Append(d)
		} else {
			cfg.RootCAs = x509.NewCertPool()
			for _, root := range roots {
				cfg.RootCAs.AddCert(root)
			}
		}
	}

	// RequiredTogether has already rejected one without the other.
	if !model.CertPEM.IsNull() && !model.KeyPEM.IsNull() {
		cert, d := loadKeyPair(tlsPath, model.CertPEM.ValueString(), model.KeyPEM.ValueString())
		if d != nil {
			diags.Append(d)
		} else {
			cfg.Certificates = []tls.Certificate{cert}
		}
	}
	if diags.HasError() {
		return nil, diags
	}
	return cfg, diags
}

// pemMaterial reads an attribute that holds PEM text or a file path. For a
// sensitive attribute the value is kept out of the error: a key pasted
// without its BEGIN line would otherwise be echoed as a "file name".
func pemMaterial(attr path.Path, value string, sensitive bool) ([]byte, diag.Diagnostic) {
	if strings.Contains(value, "-----BEGIN") {
		return []byte(value), nil
	}
	data, err := os.ReadFile(value)
	if err != nil {
		var pathErr *fs.PathError
		if sensitive && errors.As(err, &pathErr) {
			err = fmt.Errorf("%s (value not shown): %w", pathErr.Op, pathErr.Err)
		}
		return nil, diagnostics.TLSConfigInvalid(attr, "the value is not PEM text and could not be read as a file", err)
	}
	return data, nil
}

// loadCertificates reads an attribute holding certificates in PEM.
func loadCertificates(attr path.Path, value string) ([]*x509.Certificate, diag.Diagnostic) {
	data, d := pemMaterial(attr, value, false)
	if d != nil {
		return nil, d
	}
	return parseCertificates(attr, data)
}

// parseCertificates parses every CERTIFICATE block; it insists on at least
// one and on every one parsing, where x509.CertPool.AppendCertsFromPEM
// would skip a damaged certificate silently.
func parseCertificates(attr path.Path, data []byte) ([]*x509.Certificate, diag.Diagnostic) {
	var certs []*x509.Certificate
	for block, rest := pem.Decode(data); block != nil; block, rest = pem.Decode(rest) {
		if block.Type != "CERTIFICATE" {
			continue
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, diagnostics.TLSConfigInvalid(attr, fmt.Sprintf("certificate %d does not parse", len(certs)+1), err)
		}
		certs = append(certs, cert)
	}
	if len(certs) == 0 {
		return nil, diagnostics.TLSConfigInvalid(attr, "it holds no PEM block of type CERTIFICATE", nil)
	}
	return certs, nil
}

// loadKeyPair checks each half on its own first, so the diagnostic names the
// attribute that is wrong rather than the pair.
func loadKeyPair(tlsPath path.Path, certValue, keyValue string) (tls.Certificate, diag.Diagnostic) {
	certAttr, keyAttr := tlsPath.AtName("cert_pem"), tlsPath.AtName("key_pem")
	certPEM, d := pemMaterial(certAttr, certValue, false)
	if d != nil {
		return tls.Certificate{}, d
	}
	if _, d := parseCertificates(certAttr, certPEM); d != nil {
		return tls.Certificate{}, d
	}
	keyPEM, d := pemMaterial(keyAttr, keyValue, true)
	if d != nil {
		return tls.Certificate{}, d
	}
	if !hasPrivateKeyBlock(keyPEM) {
		return tls.Certificate{}, diagnostics.TLSConfigInvalid(keyAttr, "it holds no PEM block of a private key", nil)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return tls.Certificate{}, diagnostics.TLSConfigInvalid(keyAttr,
			"the private key does not parse or does not belong to the certificate in cert_pem", err)
	}
	return cert, nil
}

func hasPrivateKeyBlock(data []byte) bool {
	for block, rest := pem.Decode(data); block != nil; block, rest = pem.Decode(rest) {
		if strings.HasSuffix(block.Type, "PRIVATE KEY") {
			return true
		}
	}
	return false
}
