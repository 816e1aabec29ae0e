package provider

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/oauth"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/saslauth"
)

// SASL mechanism names as Kafka spells them in sasl.enabled.mechanisms.
const (
	mechanismPlain       = "PLAIN"
	mechanismScramSHA256 = "SCRAM-SHA-256"
	mechanismScramSHA512 = "SCRAM-SHA-512"
	mechanismOAuthBearer = "OAUTHBEARER"
	mechanismAWSMSKIAM   = "AWS_MSK_IAM"
)

// defaultRoleSessionName names the provider's role sessions in CloudTrail
// when aws_role_session_name is not set.
const defaultRoleSessionName = "terraform-provider-flinkagents"

type saslModel struct {
	Mechanism          types.String `tfsdk:"mechanism"`
	Username           types.String `tfsdk:"username"`
	Password           types.String `tfsdk:"password"`
	Token              types.String `tfsdk:"token"`
	TokenURL           types.String `tfsdk:"token_url"`
	ClientID           types.String `tfsdk:"client_id"`
	ClientSecret       types.String `tfsdk:"client_secret"`
	Scopes             types.List   `tfsdk:"scopes"`
	AWSRegion          types.String `tfsdk:"aws_region"`
	AWSProfile         types.String `tfsdk:"aws_profile"`
	AWSRoleARN         types.String `tfsdk:"aws_role_arn"`
	AWSRoleExternalID  types.String `tfsdk:"aws_role_external_id"`
	AWSRoleSessionName types.String `tfsdk:"aws_role_session_name"`
	AWSAccessKeyID     types.String `tfsdk:"aws_access_key_id"`
	AWSSecretAccessKey types.String `tfsdk:"aws_secret_access_key"`
	AWSSessionToken    types.String `tfsdk:"aws_session_token"`
}

// values maps every attribute but mechanism to its value, for the rules
// below, which are keyed by attribute name.
func (m *saslModel) values() map[string]attr.Value {
	return map[string]attr.Value{
		"username": m.Username, "password": m.Password, "token": m.Token,
		"token_url": m.TokenURL, "client_id": m.ClientID, "client_secret": m.ClientSecret, "scopes": m.Scopes,
		"aws_region": m.AWSRegion, "aws_profile": m.AWSProfile, "aws_role_arn": m.AWSRoleARN,
		"aws_role_external_id": m.AWSRoleExternalID, "aws_role_session_name": m.AWSRoleSessionName,
		"aws_access_key_id": m.AWSAccessKeyID, "aws_secret_access_key": m.AWSSecretAccessKey,
		"aws_session_token": m.AWSSessionToken,
	}
}

var (
	userPasswordMechanisms = []string{mechanismPlain, mechanismScramSHA256, mechanismScramSHA512}
	awsAttribute           = []string{mechanismAWSMSKIAM}
	oauthAttribute         = []string{mechanismOAuthBearer}

	// saslAttributeMechanisms says which mechanisms use each attribute;
	// setting one the chosen mechanism ignores is almost always a mistake
	// (a token under SCRAM, a password under AWS_MSK_IAM), so it is an error.
	saslAttributeMechanisms = map[string][]string{
		"username": userPasswordMechanisms, "password": userPasswordMechanisms,
		"token": oauthAttribute, "token_url": oauthAttribute, "client_id": oauthAttribute,
		"client_secret": oauthAttribute, "scopes": oauthAttribute,
		"aws_region": awsAttribute, "aws_profile": awsAttribute, "aws_role_arn": awsAttribute,
		"aws_role_external_id": awsAttribute, "aws_role_session_name": awsAttribute,
		"aws_access_key_id": awsAttribute, "aws_secret_access_key": awsAttribute, "aws_session_token": awsAttribute,
	}

	// saslEnvironment is each attribute's environment variable. As in
	// Mongey's provider, the user name and password variables also carry
	// the OAuth client ID and secret. The AWS attributes have none here:
	// the AWS SDK reads its own variables (AWS_ACCESS_KEY_ID, AWS_PROFILE,
	// AWS_REGION, ...) in the default chain.
	saslEnvironment = map[string]string{
		"username": saslUsernameEnv, "password": saslPasswordEnv,
		"client_id": saslUsernameEnv, "client_secret": saslPasswordEnv, "token_url": saslTokenURLEnv,
	}

	// mechanismAliases are the spellings KAFKA_SASL_MECHANISM takes in
	// Mongey's provider, besides Kafka's own names.
	mechanismAliases = map[string]string{
		"SCRAM-SHA256": mechanismScramSHA256, "SCRAM-SHA512": mechanismScramSHA512, "AWS-IAM": mechanismAWSMSKIAM,
	}
)

func saslSchemaBlock() schema.Block {
	nonEmpty := []validator.String{stringvalidator.LengthAtLeast(1)}
	optional := func(description string, sensitive bool, more ...validator.String) schema.StringAttribute {
		return schema.StringAttribute{
			Optional:            true,
			Sensitive:           sensitive,
			MarkdownDescription: description,
			Validators:          append(slices.Clone(nonEmpty), more...),
		}
	}
	sibling := func(name string) path.Expression { return path.MatchRelative().AtParent().AtName(name) }
	return schema.SingleNestedBlock{
		MarkdownDescription: "Authenticate with SASL. Combine with the `tls` block for a `SASL_SSL` listener; " +
			"without it the credentials cross the network in the clear (`SASL_PLAINTEXT`). Without the block, " +
			"SASL is configured from `" + saslMechanismEnv + "` (or `" + saslUsernameEnv + "` alone, which means " +
			"`PLAIN`) when those are set.",
		Attributes: map[string]schema.Attribute{
			"mechanism": schema.StringAttribute{
				// Optional because the framework would demand it even with the
				// block absent; Configure requires it (or the variable).
				Optional: true,
				MarkdownDescription: "One of `PLAIN`, `SCRAM-SHA-256`, `SCRAM-SHA-512` (need `username` and " +
					"`password`), `OAUTHBEARER` (needs `token`, or `token_url`, `client_id` and `client_secret`) " +
					"or `AWS_MSK_IAM` (AWS credentials). Defaults to `" + saslMechanismEnv + "`.",
				Validators: []validator.String{stringvalidator.OneOf(
					mechanismPlain, mechanismScramSHA256, mechanismScramSHA512, mechanismOAuthBearer, mechanismAWSMSKIAM)},
			},
			"username": optional("User name for `PLAIN` and `SCRAM-*`. Defaults to `"+saslUsernameEnv+"`.", false),
			"password": optional("Password for `PLAIN` and `SCRAM-*`. Defaults to `"+saslPasswordEnv+"`.", true),
			"token": optional("OAuth 2 bearer token for `OAUTHBEARER`. It is sent as given and never renewed, "+
				"so it must outlive the Terraform run; `token_url` lets the provider fetch and renew tokens instead.",
				true, stringvalidator.ConflictsWith(sibling("token_url"))),
			"token_url": optional("OAuth 2 token endpoint (HTTPS) for `OAUTHBEARER` with the client credentials "+
				"grant: tokens are fetched with `client_id` and `client_secret` and renewed before they expire. "+
				"Defaults to `"+saslTokenURLEnv+"`.", false, tokenURL()),
			"client_id": optional("OAuth 2 client ID for `token_url`. Defaults to `"+saslUsernameEnv+"`.", false),
			"client_secret": optional("OAuth 2 client secret for `token_url`. Defaults to `"+
				saslPasswordEnv+"`.", true),
			"scopes": schema.ListAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: "Scopes to request from `token_url`; none by default (the client's default scopes).",
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
				},
			},
			"aws_region": optional("Region of the AWS STS and SSO calls for `AWS_MSK_IAM`. Defaults to the AWS "+
				"SDK's, then to the region in the MSK broker host names, which always sign the MSK authentication.", false),
			"aws_profile": optional("Shared-config profile for `AWS_MSK_IAM`, instead of `AWS_PROFILE`.", false,
				stringvalidator.ConflictsWith(sibling("aws_access_key_id"))),
			"aws_role_arn": optional("Role to assume for `AWS_MSK_IAM`, with the credentials the other "+
				"attributes or the AWS default chain provide. The assumed credentials are renewed before they expire.", false),
			"aws_role_external_id": optional("External ID for assuming `aws_role_arn`, when the role's trust policy "+
				"requires one.", false, stringvalidator.AlsoRequires(sibling("aws_role_arn"))),
			"aws_role_session_name": optional("Session name for assuming `aws_role_arn`, shown in CloudTrail. "+
				"Defaults to `"+defaultRoleSessionName+"`.", false, stringvalidator.AlsoRequires(sibling("aws_role_arn"))),
			"aws_access_key_id": optional("Static access key for `AWS_MSK_IAM`. Without it, the AWS SDK's default "+
				"credential chain is used (environment, shared config and SSO, web identity, ECS and EC2 roles; "+
				"see Authentication).", false),
			"aws_secret_access_key": optional("Secret key of `aws_access_key_id`.", true),
			"aws_session_token": optional("Session token of temporary credentials in `aws_access_key_id`.", true,
				stringvalidator.AlsoRequires(sibling("aws_access_key_id"))),
		},
	}
}

// saslSettings is the sasl block after the environment filled what the
// block leaves unset.
type saslSettings struct {
	mechanism     string
	mechanismFrom string // "sasl.mechanism" or the variable
	// values holds each string attribute the mechanism uses, from the
	// block or its variable; from says which, for diagnostics.
	values map[string]setting
	scopes []string
}

func (s *saslSettings) get(name string) string { return s.values[name].value }

// resolveSASL reads the sasl block and the environment; nil settings mean
// no SASL.
func resolveSASL(ctx context.Context, block types.Object, getenv func(string) string) (*saslSettings, diag.Diagnostics) {
	model, diags := objectAs[saslModel](ctx, block)
	if diags.HasError() {
		return nil, diags
	}
	present := model != nil
	if !present {
		model = &saslModel{} // every attribute null
	}
	saslPath := path.Root("sasl")
	s := &saslSettings{values: map[string]setting{}}
	switch env := getenv(saslMechanismEnv); {
	case !model.Mechanism.IsNull():
		s.mechanism, s.mechanismFrom = model.Mechanism.ValueString(), "sasl.mechanism"
	case env != "":
		name := strings.ToUpper(strings.TrimSpace(env))
		if alias, ok := mechanismAliases[name]; ok {
			name = alias
		}
		if !slices.Contains([]string{mechanismPlain, mechanismScramSHA256, mechanismScramSHA512, mechanismOAuthBearer, mechanismAWSMSKIAM}, name) {
			diags.Append(diagnostics.InvalidEnvironmentVariable(saslMechanismEnv, env,
				"one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER, AWS_MSK_IAM (or scram-sha256, scram-sha512, aws-iam)", nil))
			return nil, diags
		}
		s.mechanism, s.mechanismFrom = name, saslMechanismEnv
	case !present && getenv(saslUsernameEnv) != "":
		// Mongey's provider authenticates with PLAIN when only a user is given.
		s.mechanism, s.mechanismFrom = mechanismPlain, saslUsernameEnv+" without "+saslMechanismEnv
	case !present:
		return nil, diags
	default:
		diags.Append(diagnostics.MissingProviderSetting(saslPath.AtName("mechanism"), "Missing SASL Attribute",
			"the sasl block is present but its mechanism",
			"sasl.mechanism (or "+saslMechanismEnv+") to the mechanism the broker user was created for, or remove "+
				"the sasl block for a listener without authentication"))
		return nil, diags
	}

	diags.Append(model.unusedAttributes(s.mechanism, s.mechanismFrom)...)
	for name, value := range model.values() {
		str, ok := value.(types.String)
		if !ok || !slices.Contains(saslAttributeMechanisms[name], s.mechanism) {
			continue
		}
		if v := attrOrEnv(str, "sasl."+name, getenv, saslEnvironment[name]); v.isSet() {
			s.values[name] = v
		}
	}
	// The attribute was checked at validation; a variable gets the same check.
	if v := s.values["token_url"]; v.isSet() && model.TokenURL.IsNull() {
		diags.Append(checkTokenURL(saslPath.AtName("token_url"), v.from, v.value)...)
	}
	if !model.Scopes.IsNull() { // the zero List of an absent block has no element type
		diags.Append(model.Scopes.ElementsAs(ctx, &s.scopes, false)...)
	}
	diags.Append(s.checkRequired()...)
	if diags.HasError() {
		return nil, diags
	}
	return s, diags
}

// unusedAttributes reports the attributes set in the block that mechanism
// (named by mechanismFrom) ignores. ValidateProvider checks this against the
// block's own mechanism, Configure against one from the environment too.
func (m *saslModel) unusedAttributes(mechanism, mechanismFrom string) diag.Diagnostics {
	var diags diag.Diagnostics
	values := m.values()
	for _, name := range slices.Sorted(maps.Keys(values)) { // stable diagnostics
		if values[name].IsNull() || slices.Contains(saslAttributeMechanisms[name], mechanism) {
			continue
		}
		diags.Append(diagnostics.SASLAttributeNotUsed(path.Root("sasl").AtName(name), name, mechanism, mechanismFrom, saslAttributeMechanisms[name]))
	}
	return diags
}

// checkRequired reports what the mechanism cannot work without, after the
// environment had its say.
func (s *saslSettings) checkRequired() diag.Diagnostics {
	var diags diag.Diagnostics
	need := func(name, why string) {
		if s.values[name].isSet() {
			return
		}
		set := "sasl." + name
		if env := saslEnvironment[name]; env != "" {
			set += " (or " + env + ")"
		}
		diags.Append(diagnostics.MissingProviderSetting(path.Root("sasl").AtName(name), "Missing SASL Attribute",
			fmt.Sprintf("mechanism %s %s sasl.%s, and it", s.mechanism, why, name),
			set+", or choose the mechanism the broker user was created for"))
	}
	switch s.mechanism {
	case mechanismPlain, mechanismScramSHA256, mechanismScramSHA512:
		need("username", "needs")
		need("password", "needs")
	case mechanismOAuthBearer:
		switch {
		case s.values["token"].isSet():
		case !s.values["token_url"].isSet():
			need("token_url", "needs a fixed sasl.token or, to fetch tokens,")
		default:
			need("client_id", "with a token_url needs")
			need("client_secret", "with a token_url needs")
		}
	}
	if len(s.scopes) > 0 && !s.values["token_url"].isSet() {
		diags.Append(diagnostics.ScopesWithoutTokenURL(path.Root("sasl").AtName("scopes"), saslTokenURLEnv))
	}
	return diags
}

// saslSetup is the franz-go mechanism built from saslSettings, and what the
// provider needs around it.
type saslSetup struct {
	mechanism sasl.Mechanism
	// identity completes the connection description: as whom we connect.
	identity string
	// secrets are the fixed secrets the logger masks.
	secrets []string
	// hooks, for mechanisms whose credentials are fetched while the
	// provider runs, receive the logger and the secret set at first use.
	hooks *saslauth.Hooks
	// firstCredentials, when set, obtains the first credentials, so a
	// refusal by the token endpoint or STS is reported as such by the first
	// operation that needs Kafka.
	firstCredentials func(context.Context) error
}

// saslBuild is what building a mechanism needs beyond the settings.
type saslBuild struct {
	version string
	brokers []string
	timeout time.Duration
}

// buildSASL returns the mechanism for s (nil setup for nil s). Nothing is
// contacted: OAuth tokens and AWS credentials are fetched at first use.
func buildSASL(ctx context.Context, s *saslSettings, b saslBuild) (*saslSetup, diag.Diagnostics) {
	if s == nil {
		return nil, nil
	}
	switch s.mechanism {
	case mechanismPlain:
		auth := plain.Auth{User: s.get("username"), Pass: s.get("password")}
		return &saslSetup{mechanism: auth.AsMechanism(), identity: fmt.Sprintf("as user %q", auth.User), secrets: []string{auth.Pass}}, nil
	case mechanismScramSHA256, mechanismScramSHA512:
		auth := scram.Auth{User: s.get("username"), Pass: s.get("password")}
		setup := &saslSetup{mechanism: auth.AsSha512Mechanism(), identity: fmt.Sprintf("as user %q", auth.User), secrets: []string{auth.Pass}}
		if s.mechanism == mechanismScramSHA256 {
			setup.mechanism = auth.AsSha256Mechanism()
		}
		return setup, nil
	case mechanismOAuthBearer:
		if token := s.get("token"); token != "" {
			return &saslSetup{mechanism: oauth.Auth{Token: token}.AsMechanism(), secrets: []string{token}}, nil
		}
		src := saslauth.NewOAuthClientCredentials(s.get("token_url"), s.get("client_id"), s.get("client_secret"), s.scopes, b.timeout)
		return &saslSetup{
			mechanism: src.Mechanism(),
			identity:  fmt.Sprintf("as OAuth client %q of %s", s.get("client_id"), s.get("token_url")),
			secrets:   []string{s.get("client_secret")},
			hooks:     &src.Hooks,
			firstCredentials: func(ctx context.Context) error {
				_, err := src.Token(ctx)
				return err
			},
		}, nil
	case mechanismAWSMSKIAM:
		return buildAWS(ctx, s, b)
	}
	// resolveSASL has refused every other mechanism.
	return nil, nil
}

func buildAWS(ctx context.Context, s *saslSettings, b saslBuild) (*saslSetup, diag.Diagnostics) {
	sessionName := s.get("aws_role_session_name")
	if sessionName == "" {
		sessionName = defaultRoleSessionName
	}
	src, err := saslauth.NewAWSCredentials(ctx, saslauth.AWSOptions{
		AccessKeyID: s.get("aws_access_key_id"), SecretAccessKey: s.get("aws_secret_access_key"),
		SessionToken: s.get("aws_session_token"), Profile: s.get("aws_profile"),
		Region: s.get("aws_region"), DefaultRegion: regionOfBrokers(b.brokers),
		RoleARN: s.get("aws_role_arn"), ExternalID: s.get("aws_role_external_id"), SessionName: sessionName,
		// Lets IAM policies match on aws:UserAgent.
		UserAgent: "terraform-provider-flinkagents/" + b.version,
		Timeout:   b.timeout,
	})
	if err != nil {
		return nil, diag.Diagnostics{diagnostics.AWSConfigNotLoaded(path.Root("sasl").AtName("aws_profile"), err)}
	}
	return &saslSetup{
		mechanism: src.Mechanism(),
		identity:  "with credentials from " + src.Source(),
		secrets:   []string{s.get("aws_secret_access_key"), s.get("aws_session_token")},
		hooks:     &src.Hooks,
		firstCredentials: func(ctx context.Context) error {
			_, err := src.Retrieve(ctx)
			return err
		},
	}, nil
}

// mskRegion finds the region label of an MSK broker name, the label after
// "kafka" or "kafka-serverless": b-1.c.x.c2.kafka.eu-west-1.amazonaws.com,
// boot-x.c1.kafka-serverless.us-east-1.amazonaws.com, and VPC endpoint
// names such as vpce-x.kafka.us-east-1.vpce.amazonaws.com.
var mskRegion = regexp.MustCompile(`(?:^|\.)kafka(?:-serverless)?\.([a-z]{2}(?:-[a-z]+)+-\d+)\.`)

// regionOfBrokers is the region of the first MSK broker name, "" when none
// is one. STS and SSO calls fall back to it, so role assumption works on a
// machine without AWS_REGION (an EC2 instance, a CI runner).
func regionOfBrokers(brokers []string) string {
	for _, b := range brokers {
		if m := mskRegion.FindStringSubmatch(strings.ToLower(b)); m != nil {
			return m[1]
		}
	}
	return ""
}

// mechanismName is for logs: the mechanism, never its credentials.
func mechanismName(m sasl.Mechanism) string {
	if m == nil {
		return "none"
	}
	return m.Name()
}

// attach gives credential sources the logger and the secret set once the
// client is built, and fetches the first credentials.
func (s *saslSetup) attach(ctx context.Context, logger kgo.Logger, secrets *secretSet) error {
	if s == nil || s.hooks == nil {
		return nil
	}
	s.hooks.Logger = logger
	s.hooks.Secrets = secrets.add
	return s.firstCredentials(ctx)
}
