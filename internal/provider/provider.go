// Package provider is the flinkagents provider itself: its schema, the
// translation of the provider block into a kafkaops.Config (TLS, SASL,
// timeouts), and the bridge from franz-go's logger into tflog. Resources and
// data sources live in their own packages and receive a
// *providerdata.Clients.
package provider

import (
	"context"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/providervalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/twmb/franz-go/pkg/sasl"

	"github.com/actionstate/terraform-provider-flinkagents/internal/actions"
	"github.com/actionstate/terraform-provider-flinkagents/internal/datasources"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/functions"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/resources"
)

var (
	_ provider.Provider                     = (*flinkAgentsProvider)(nil)
	_ provider.ProviderWithConfigValidators = (*flinkAgentsProvider)(nil)
	_ provider.ProviderWithFunctions        = (*flinkAgentsProvider)(nil)
	_ provider.ProviderWithListResources    = (*flinkAgentsProvider)(nil)
	_ provider.ProviderWithActions          = (*flinkAgentsProvider)(nil)
)

const (
	// TypeName is the provider's local name, the prefix of every resource type.
	TypeName = "flinkagents"

	// defaultTimeout mirrors kafkaops' own default; stated here so the
	// schema documentation and the code agree.
	defaultTimeout = 30 * time.Second

	// coalesceEnv tunes the merging of the topic reads of resources
	// Terraform refreshes side by side into one request per kind (kafkaops
	// Config.Coalesce, CoalesceWindow): "off" sends one request per read
	// (for benchmarks, and for ruling the coalescer out when diagnosing a
	// cluster), a Go duration replaces defaultCoalesceWindow ("0": batch
	// only the reads that meet a request in flight).
	coalesceEnv = "FLINKAGENTS_COALESCE"
	// defaultCoalesceWindow holds a batch for company only within a burst
	// of reads (a read after a quiet spell goes at once): the fewest
	// requests for the same wall time (BENCHMARKS.md, "The coalescer,
	// decided on wall time").
	defaultCoalesceWindow = 10 * time.Millisecond
)

// New returns the provider factory for providerserver; version is "dev" for
// local builds, "test" in tests and the release version in releases.
func New(version string) func() provider.Provider {
	return func() provider.Provider {
		return &flinkAgentsProvider{version: version, getenv: os.Getenv}
	}
}

type flinkAgentsProvider struct {
	version string
	// getenv is os.Getenv outside tests; tests substitute a map so they can
	// run in parallel without touching the process environment.
	getenv func(string) string
}

type providerModel struct {
	BootstrapServers types.List   `tfsdk:"bootstrap_servers"`
	ClientID         types.String `tfsdk:"client_id"`
	Timeout          types.String `tfsdk:"timeout"`
	TLS              types.Object `tfsdk:"tls"`
	SASL             types.Object `tfsdk:"sasl"`
}

func (p *flinkAgentsProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = TypeName
	resp.Version = p.version
}

func (p *flinkAgentsProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages the Kafka side of [Apache Flink Agents](https://github.com/apache/flink-agents) " +
			"action state: checkpoint-aligned cleanup of action-state topics. It connects to Kafka on the first " +
			"operation that needs the cluster.",
		Attributes: map[string]schema.Attribute{
			"bootstrap_servers": schema.ListAttribute{
				ElementType: types.StringType,
				Optional:    true,
				MarkdownDescription: "Kafka bootstrap servers as `host:port`. Defaults to the comma-separated " +
					"`" + bootstrapServersEnv + "` environment variable.",
				Validators: []validator.List{
					listvalidator.SizeAtLeast(1),
					listvalidator.ValueStringsAre(hostPort()),
				},
			},
			"client_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Client ID sent with every request, so broker logs and quotas can name " +
					"this provider. Defaults to `terraform-provider-flinkagents`.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"timeout": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Bound on each single Kafka request and checkpoint storage request, not on a whole " +
					"apply (the `timeouts` blocks bound those): whole seconds (`120`) or a Go duration (`45s`, `2m`). " +
					"Defaults to `" + timeoutEnv + "`, then `30s`.",
				Validators: []validator.String{timeoutValidator{}},
			},
		},
		Blocks: map[string]schema.Block{
			"tls":  tlsSchemaBlock(),
			"sasl": saslSchemaBlock(),
		},
	}
}

func (p *flinkAgentsProvider) ConfigValidators(context.Context) []provider.ConfigValidator {
	return []provider.ConfigValidator{
		providervalidator.RequiredTogether(
			path.MatchRoot("sasl").AtName("aws_access_key_id"),
			path.MatchRoot("sasl").AtName("aws_secret_access_key"),
		),
		saslMechanismAttributes{},
	}
}

// Configure turns the provider block, and the environment variables that
// stand in for its unset attributes, into a recipe for a Kafka client but
// dials nothing: the client is built by providerdata.Clients on first use.
// Everything that can be checked locally (PEM material, SASL settings) is
// checked here so the diagnostics point at the attribute at fault.
func (p *flinkAgentsProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	if !req.Config.Raw.IsFullyKnown() {
		// Terraform configures again with known values before apply; until
		// then only operations that need no Kafka call can succeed.
		p.share(resp, providerdata.Unavailable("the provider block depends on values that are known only after apply"))
		return
	}

	var config providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}

	brokers, diags := p.bootstrapServers(ctx, config.BootstrapServers)
	resp.Diagnostics.Append(diags...)
	timeout, d := p.timeout(config.Timeout)
	if d != nil {
		resp.Diagnostics.Append(d)
	}
	coalesce, coalesceWindow := true, defaultCoalesceWindow
	switch v := p.getenv(coalesceEnv); v {
	case "", "on":
	case "off":
		coalesce = false
	default:
		var err error
		if coalesceWindow, err = time.ParseDuration(v); err != nil || coalesceWindow < 0 {
			resp.Diagnostics.Append(diagnostics.InvalidEnvironmentVariable(coalesceEnv, v, "on, off, or a non-negative Go duration such as \"3ms\"", err))
		}
	}
	tlsConfig, tlsSecrets, diags := buildTLS(ctx, config.TLS, p.getenv)
	resp.Diagnostics.Append(diags...)
	saslConfig, diags := resolveSASL(ctx, config.SASL, p.getenv)
	resp.Diagnostics.Append(diags...)
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(checkTLSSwitchedOff(ctx, config.TLS, tlsConfig != nil, saslConfig)...)
	}
	auth, diags := buildSASL(ctx, saslConfig, saslBuild{version: p.version, brokers: brokers, timeout: timeout})
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}

	if len(brokers) == 0 {
		// Data sources that read only checkpoints still work, with the timeout.
		p.share(resp, providerdata.Unavailable("no bootstrap servers: set bootstrap_servers in the provider block or "+
			bootstrapServersEnv+" in the environment").WithTimeout(timeout))
		return
	}
	var mechanism sasl.Mechanism
	secrets := newSecretSet(tlsSecrets...)
	identity := ""
	if auth != nil {
		mechanism, identity = auth.mechanism, auth.identity
		secrets.add(auth.secrets...)
	}
	tflog.Debug(ctx, "Kafka client configured; it connects on first use", map[string]any{
		"bootstrap_servers": brokers,
		"tls":               tlsConfig != nil,
		"sasl":              mechanismName(mechanism),
		"timeout":           timeout.String(),
		"coalesce":          coalesce,
		"coalesce_window":   coalesceWindow.String(),
	})
	conn := describeConnection(brokers, tlsConfig != nil, mechanismName(mechanism), identity)
	p.share(resp, providerdata.New(brokers, func(ctx context.Context) (*kafkaops.Client, error) {
		logger := newKgoLogger(ctx, secrets)
		if err := auth.attach(ctx, logger, secrets); err != nil {
			return nil, err
		}
		return kafkaops.New(kafkaops.Config{
			Brokers:  brokers,
			ClientID: config.ClientID.ValueString(),
			TLS:      tlsConfig,
			SASL:     mechanism,
			Timeout:  timeout,
			Logger:   logger,

			Coalesce:       coalesce,
			CoalesceWindow: coalesceWindow,
		})
	}).WithConnection(conn).WithTimeout(timeout))
}

// describeConnection says, for diagnostics, how the provider connects:
// which brokers, over what, as whom (identity: "as user \"x\"", "with
// credentials from ..."). Never a secret.
func describeConnection(brokers []string, tls bool, mechanism, identity string) string {
	desc := strings.Join(brokers, ", ")
	if tls {
		desc += " over TLS"
	} else {
		desc += " in plaintext"
	}
	if mechanism != "none" {
		desc += " with SASL " + mechanism
		if identity != "" {
			desc += " " + identity
		}
	}
	return desc
}

func (p *flinkAgentsProvider) share(resp *provider.ConfigureResponse, clients *providerdata.Clients) {
	resp.ResourceData = clients
	resp.DataSourceData = clients
	resp.ListResourceData = clients
	resp.ActionData = clients
}

// bootstrapServers reads the attribute, or the environment when it is null.
func (p *flinkAgentsProvider) bootstrapServers(ctx context.Context, attr types.List) ([]string, diag.Diagnostics) {
	if attr.IsNull() {
		return splitServers(p.getenv(bootstrapServersEnv)), nil
	}
	var brokers []string
	diags := attr.ElementsAs(ctx, &brokers, false)
	return brokers, diags
}

// timeout reads the attribute (validated by timeoutValidator), else
// KAFKA_TIMEOUT, else the default; both take the same forms.
func (p *flinkAgentsProvider) timeout(attr types.String) (time.Duration, diag.Diagnostic) {
	if !attr.IsNull() {
		d, _ := parseTimeout(attr.ValueString())
		return d, nil
	}
	v := p.getenv(timeoutEnv)
	if v == "" {
		return defaultTimeout, nil
	}
	d, err := parseTimeout(v)
	if err != nil {
		return defaultTimeout, diagnostics.InvalidEnvironmentVariable(timeoutEnv, v,
			"a positive number of seconds (\"120\") or Go duration (\"2m\")", err)
	}
	return d, nil
}

// splitServers parses the comma-separated environment form, tolerating
// spaces and a trailing comma.
func splitServers(list string) []string {
	var servers []string
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s != "" {
			servers = append(servers, s)
		}
	}
	return servers
}

func (p *flinkAgentsProvider) Resources(context.Context) []func() resource.Resource {
	return resources.All()
}

func (p *flinkAgentsProvider) DataSources(context.Context) []func() datasource.DataSource {
	return datasources.All()
}

func (p *flinkAgentsProvider) Functions(context.Context) []func() function.Function {
	return functions.All()
}

func (p *flinkAgentsProvider) Actions(context.Context) []func() action.Action {
	return actions.All()
}

func (p *flinkAgentsProvider) ListResources(context.Context) []func() list.ListResource {
	return resources.Lists()
}

// objectAs decodes a nested block; a block that is absent decodes to nil.
// Configure has already returned when any value is unknown.
func objectAs[T any](ctx context.Context, obj types.Object) (*T, diag.Diagnostics) {
	if obj.IsNull() || obj.IsUnknown() {
		return nil, nil
	}
	var model T
	diags := obj.As(ctx, &model, basetypes.ObjectAsOptions{})
	return &model, diags
}
