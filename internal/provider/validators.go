package provider

import (
	"context"
	"fmt"
	"net"
	"net/url"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ validator.String         = hostPortValidator{}
	_ validator.String         = timeoutValidator{}
	_ validator.String         = tokenURLValidator{}
	_ provider.ConfigValidator = saslMechanismAttributes{}
)

// hostPortValidator accepts what franz-go accepts as a seed broker with an
// explicit port, IPv6 literals in brackets included.
type hostPortValidator struct{}

func hostPort() hostPortValidator { return hostPortValidator{} }

func (hostPortValidator) Description(context.Context) string {
	return "value must be host:port"
}

func (v hostPortValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (hostPortValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	host, port, err := net.SplitHostPort(req.ConfigValue.ValueString())
	if err == nil && (host == "" || port == "") {
		err = fmt.Errorf("host and port must both be present")
	}
	if err != nil {
		resp.Diagnostics.Append(diagnostics.InvalidBootstrapServer(req.Path, req.ConfigValue.ValueString(), err))
	}
}

// timeoutValidator accepts what parseTimeout reads: whole seconds or a
// positive Go duration.
type timeoutValidator struct{}

func (timeoutValidator) Description(context.Context) string {
	return "value must be whole seconds such as \"120\" or a positive duration such as \"30s\" or \"2m\""
}

func (v timeoutValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (timeoutValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := parseTimeout(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.Append(diagnostics.InvalidTimeout(req.Path, req.ConfigValue.ValueString(), err))
	}
}

// saslMechanismAttributes refuses, at validation, attributes the sasl
// block's own mechanism does not use. What a mechanism needs is checked in
// Configure, where the environment can supply it.
type saslMechanismAttributes struct{}

func (saslMechanismAttributes) Description(context.Context) string {
	return "sasl attributes must be used by sasl.mechanism"
}

func (v saslMechanismAttributes) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (saslMechanismAttributes) ValidateProvider(ctx context.Context, req provider.ValidateConfigRequest, resp *provider.ValidateConfigResponse) {
	var block types.Object
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("sasl"), &block)...)
	if resp.Diagnostics.HasError() {
		return
	}
	model, diags := objectAs[saslModel](ctx, block)
	resp.Diagnostics.Append(diags...)
	if model == nil || model.Mechanism.IsNull() || model.Mechanism.IsUnknown() {
		return
	}
	resp.Diagnostics.Append(model.unusedAttributes(model.Mechanism.ValueString(), "sasl.mechanism")...)
}

// tokenURLValidator accepts an absolute http or https URL.
type tokenURLValidator struct{}

func tokenURL() tokenURLValidator { return tokenURLValidator{} }

func (tokenURLValidator) Description(context.Context) string {
	return "value must be an absolute https:// (or http://) URL"
}

func (v tokenURLValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (tokenURLValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	resp.Diagnostics.Append(checkTokenURL(req.Path, req.Path.String(), req.ConfigValue.ValueString())...)
}

// checkTokenURL is the one check of a token URL, from the attribute (at
// validation) or from KAFKA_SASL_TOKEN_URL (at Configure): an absolute
// http(s) URL, plain http warned unless on this machine. from names where
// value came from.
func checkTokenURL(attr path.Path, from, value string) diag.Diagnostics {
	u, err := url.Parse(value)
	if err == nil && (u.Scheme != "https" && u.Scheme != "http" || u.Host == "") {
		err = fmt.Errorf("scheme %q and host %q: want https://host/path", u.Scheme, u.Host)
	}
	if err != nil {
		return diag.Diagnostics{diagnostics.InvalidTokenURL(attr, from, value, err)}
	}
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return diag.Diagnostics{diagnostics.TokenEndpointWithoutTLS(attr, from, value)}
	}
	return nil
}

// isLoopback says whether host names this machine: a token endpoint there
// (a sidecar, a test) needs no TLS.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
