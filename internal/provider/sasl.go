package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/twmb/franz-go/pkg/sasl"
	awssasl "github.com/twmb/franz-go/pkg/sasl/aws"
	"github.com/twmb/franz-go/pkg/sasl/oauth"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// SASL mechanism names as Kafka spells them in sasl.enabled.mechanisms.
const (
	mechanismPlain       = "PLAIN"
	mechanismScramSHA256 = "SCRAM-SHA-256"
	mechanismScramSHA512 = "SCRAM-SHA-512"
	mechanismOAuthBearer = "OAUTHBEARER"
	mechanismAWSMSKIAM   = "AWS_MSK_IAM"
)

// The standard AWS variables, read when the matching attribute is unset so
// credentials from `aws configure export-credentials`, a CI role or an
// assumed-role shell need no Terraform variables.
const (
	awsAccessKeyIDEnv     = "AWS_ACCESS_KEY_ID"
	awsSecretAccessKeyEnv = "AWS_SECRET_ACCESS_KEY"
	awsSessionTokenEnv    = "AWS_SESSION_TOKEN"
)

type saslModel struct {
	Mechanism          types.String `tfsdk:"mechanism"`
	Username           types.String `tfsdk:"username"`
	Password           types.String `tfsdk:"password"`
	Token              types.String `tfsdk:"token"`
	AWSRegion          types.String `tfsdk:"aws_region"`
	AWSRoleARN         types.String `tfsdk:"aws_role_arn"`
	AWSAccessKeyID     types.String `tfsdk:"aws_access_key_id"`
	AWSSecretAccessKey types.String `tfsdk:"aws_secret_access_key"`
	AWSSessionToken    types.String `tfsdk:"aws_session_token"`
}

var (
	userPasswordMechanisms = []string{mechanismPlain, mechanismScramSHA256, mechanismScramSHA512}

	// saslAttributeMechanisms says which mechanisms use each attribute;
	// setting one the chosen mechanism ignores is almost always a mistake
	// (a token under SCRAM, a password under AWS_MSK_IAM), so it is an error.
	saslAttributeMechanisms = map[string][]string{
		"username":              userPasswordMechanisms,
		"password":              userPasswordMechanisms,
		"token":                 {mechanismOAuthBearer},
		"aws_region":            {mechanismAWSMSKIAM},
		"aws_role_arn":          {mechanismAWSMSKIAM},
		"aws_access_key_id":     {mechanismAWSMSKIAM},
		"aws_secret_access_key": {mechanismAWSMSKIAM},
		"aws_session_token":     {mechanismAWSMSKIAM},
	}

	// saslRequiredAttributes lists what each mechanism cannot work without.
	// AWS_MSK_IAM needs credentials too, but they may come from the
	// environment, so buildSASL checks them.
	saslRequiredAttributes = map[string][]string{
		mechanismPlain:       {"username", "password"},
		mechanismScramSHA256: {"username", "password"},
		mechanismScramSHA512: {"username", "password"},
		mechanismOAuthBearer: {"token"},
	}
)

func saslSchemaBlock() schema.Block {
	nonEmpty := []validator.String{stringvalidator.LengthAtLeast(1)}
	optional := func(description string, sensitive bool) schema.StringAttribute {
		return schema.StringAttribute{
			Optional:            true,
			Sensitive:           sensitive,
			MarkdownDescription: description,
			Validators:          nonEmpty,
		}
	}
	return schema.SingleNestedBlock{
		MarkdownDescription: "Authenticate with SASL. Combine with the `tls` block for a `SASL_SSL` listener; " +
			"without it the credentials cross the network in the clear (`SASL_PLAINTEXT`).",
		Attributes: map[string]schema.Attribute{
			"mechanism": schema.StringAttribute{
				// Optional because the framework would demand it even with the
				// block absent; saslMechanismAttributes requires it in a present block.
				Optional: true,
				MarkdownDescription: "One of `PLAIN`, `SCRAM-SHA-256`, `SCRAM-SHA-512` (need `username` and " +
					"`password`), `OAUTHBEARER` (needs `token`) or `AWS_MSK_IAM` (AWS credentials).",
				Validators: []validator.String{stringvalidator.OneOf(
					mechanismPlain, mechanismScramSHA256, mechanismScramSHA512, mechanismOAuthBearer, mechanismAWSMSKIAM)},
			},
			"username": optional("User name for `PLAIN` and `SCRAM-*`.", false),
			"password": optional("Password for `PLAIN` and `SCRAM-*`.", true),
			"token": optional("OAuth 2 bearer token for `OAUTHBEARER`. It is sent as given and not refreshed, "+
				"so it must outlive the Terraform run.", true),
			"aws_region": optional("Region of the STS endpoint used to assume `aws_role_arn`. The region "+
				"that signs MSK authentication is always taken from the broker host names, as the AWS "+
				"MSK IAM library does, so this has no effect without `aws_role_arn`.", false),
			"aws_role_arn": optional("Role to assume for `AWS_MSK_IAM`. **Not supported yet**: assume the "+
				"role before running Terraform (for example with `aws sts assume-role` or "+
				"`aws configure export-credentials`) and pass the resulting credentials through the "+
				"environment.", false),
			"aws_access_key_id": optional("Access key for `AWS_MSK_IAM`. Defaults to `"+awsAccessKeyIDEnv+"`.", false),
			"aws_secret_access_key": optional("Secret key for `AWS_MSK_IAM`. Defaults to `"+
				awsSecretAccessKeyEnv+"`.", true),
			"aws_session_token": optional("Session token of temporary credentials for `AWS_MSK_IAM`. "+
				"Defaults to `"+awsSessionTokenEnv+"`.", true),
		},
	}
}

// buildSASL returns the franz-go mechanism (nil without a sasl block) and the
// secret values, which the kgo logger masks. Credentials are fixed for the
// provider's lifetime: one Terraform command.
func buildSASL(ctx context.Context, block types.Object, getenv func(string) string, version string) (sasl.Mechanism, []string, diag.Diagnostics) {
	model, diags := objectAs[saslModel](ctx, block)
	if model == nil || diags.HasError() || model.Mechanism.IsNull() {
		return nil, nil, diags
	}
	switch mechanism := model.Mechanism.ValueString(); mechanism {
	case mechanismPlain:
		auth := plain.Auth{User: model.Username.ValueString(), Pass: model.Password.ValueString()}
		return auth.AsMechanism(), []string{auth.Pass}, diags
	case mechanismScramSHA256, mechanismScramSHA512:
		auth := scram.Auth{User: model.Username.ValueString(), Pass: model.Password.ValueString()}
		if mechanism == mechanismScramSHA256 {
			return auth.AsSha256Mechanism(), []string{auth.Pass}, diags
		}
		return auth.AsSha512Mechanism(), []string{auth.Pass}, diags
	case mechanismOAuthBearer:
		auth := oauth.Auth{Token: model.Token.ValueString()}
		return auth.AsMechanism(), []string{auth.Token}, diags
	case mechanismAWSMSKIAM:
		orEnv := func(attr types.String, env string) string {
			if attr.IsNull() {
				return getenv(env)
			}
			return attr.ValueString()
		}
		auth := awssasl.Auth{
			AccessKey:    orEnv(model.AWSAccessKeyID, awsAccessKeyIDEnv),
			SecretKey:    orEnv(model.AWSSecretAccessKey, awsSecretAccessKeyEnv),
			SessionToken: orEnv(model.AWSSessionToken, awsSessionTokenEnv),
			// Lets IAM policies match on aws:UserAgent.
			UserAgent: "terraform-provider-flinkagents/" + version,
		}
		if auth.AccessKey == "" || auth.SecretKey == "" {
			diags.AddAttributeError(path.Root("sasl").AtName("aws_access_key_id"), "Missing AWS Credentials",
				"While configuring AWS_MSK_IAM authentication, no AWS access key was found.\n\n"+
					"Set sasl.aws_access_key_id and sasl.aws_secret_access_key, or export "+
					awsAccessKeyIDEnv+" and "+awsSecretAccessKeyEnv+" (plus "+awsSessionTokenEnv+
					" for temporary credentials). Profiles, SSO and instance roles are not read directly: "+
					"`eval \"$(aws configure export-credentials --format env)\"` turns any of them into "+
					"these variables.")
			return nil, nil, diags
		}
		return auth.AsManagedStreamingIAMMechanism(), []string{auth.SecretKey, auth.SessionToken}, diags
	}
	// OneOf has rejected every other value before Configure runs.
	return nil, nil, diags
}

// mechanismName is for logs: the mechanism, never its credentials.
func mechanismName(m sasl.Mechanism) string {
	if m == nil {
		return "none"
	}
	return m.Name()
}

// saslUser is the configured SASL user name, for diagnostics ("" when none).
func saslUser(ctx context.Context, obj types.Object) string {
	if obj.IsNull() || obj.IsUnknown() {
		return ""
	}
	var m saslModel
	if diags := obj.As(ctx, &m, basetypes.ObjectAsOptions{}); diags.HasError() {
		return ""
	}
	return m.Username.ValueString()
}
