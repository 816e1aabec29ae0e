package provider

import (
	"context"
	"fmt"
	"net"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ validator.String         = hostPortValidator{}
	_ validator.String         = positiveDuration{}
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
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Bootstrap Server",
			fmt.Sprintf("While validating %s, %q is not host:port.\n\nWrite each server as host:port, "+
				"for example \"kafka-1.example.com:9093\" or \"[::1]:9092\".\n\nOriginal error: %s",
				req.Path, req.ConfigValue.ValueString(), err))
	}
}

// positiveDuration accepts a Go duration string greater than zero.
type positiveDuration struct{}

func (positiveDuration) Description(context.Context) string {
	return "value must be a positive duration such as \"30s\" or \"2m\""
}

func (v positiveDuration) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (positiveDuration) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	d, err := time.ParseDuration(req.ConfigValue.ValueString())
	if err == nil && d <= 0 {
		err = fmt.Errorf("duration must be greater than zero")
	}
	if err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Timeout",
			fmt.Sprintf("While validating %s, %q is not a positive duration.\n\nUse a number with a unit, "+
				"such as \"30s\", \"90s\" or \"2m\".\n\nOriginal error: %s", req.Path, req.ConfigValue.ValueString(), err))
	}
}

// saslMechanismAttributes checks the sasl block against the chosen
// mechanism: everything the mechanism needs is there, nothing it ignores is.
type saslMechanismAttributes struct{}

func (saslMechanismAttributes) Description(context.Context) string {
	return "sasl attributes must match sasl.mechanism"
}

func (v saslMechanismAttributes) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (saslMechanismAttributes) ValidateProvider(ctx context.Context, req provider.ValidateConfigRequest, resp *provider.ValidateConfigResponse) {
	saslPath := path.Root("sasl")
	var block types.Object
	var mechanism types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, saslPath, &block)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, saslPath.AtName("mechanism"), &mechanism)...)
	if resp.Diagnostics.HasError() || block.IsNull() || block.IsUnknown() || mechanism.IsUnknown() {
		return
	}
	if mechanism.IsNull() {
		resp.Diagnostics.AddAttributeError(saslPath.AtName("mechanism"), "Missing SASL Attribute",
			"While validating the sasl block, sasl.mechanism is not set.\n\nSet sasl.mechanism to the "+
				"mechanism the broker user was created for, or remove the sasl block for a listener "+
				"without authentication.")
		return
	}
	name := mechanism.ValueString()

	attributes := make([]string, 0, len(saslAttributeMechanisms))
	for attr := range saslAttributeMechanisms {
		attributes = append(attributes, attr)
	}
	sort.Strings(attributes) // stable diagnostics
	for _, attr := range attributes {
		var value types.String
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, saslPath.AtName(attr), &value)...)
		set := !value.IsNull()
		required := slices.Contains(saslRequiredAttributes[name], attr)
		usedBy := saslAttributeMechanisms[attr]
		switch {
		case required && value.IsNull():
			resp.Diagnostics.AddAttributeError(saslPath.AtName(attr), "Missing SASL Attribute",
				fmt.Sprintf("While validating the sasl block, mechanism %s needs sasl.%s and it is not set.\n\n"+
					"Set sasl.%s, or choose the mechanism the broker user was created for.", name, attr, attr))
		case set && !slices.Contains(usedBy, name):
			resp.Diagnostics.AddAttributeError(saslPath.AtName(attr), "SASL Attribute Not Used By Mechanism",
				fmt.Sprintf("While validating the sasl block, sasl.%s is set but mechanism %s does not use it "+
					"(it is used by %s).\n\nRemove sasl.%s or correct sasl.mechanism.",
					attr, name, strings.Join(usedBy, ", "), attr))
		case set && attr == "aws_role_arn":
			resp.Diagnostics.AddAttributeError(saslPath.AtName(attr), "Role Assumption Not Supported",
				"While validating the sasl block, sasl.aws_role_arn is set, but this provider version cannot "+
					"assume a role itself.\n\nAssume the role before running Terraform, for example "+
					"`eval \"$(aws configure export-credentials --format env)\"` with a profile that names "+
					"the role, and remove sasl.aws_role_arn: the provider reads AWS_ACCESS_KEY_ID, "+
					"AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN.")
		}
	}
}
