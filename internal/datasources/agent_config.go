package datasources

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

var (
	_ datasource.DataSource                   = (*agentConfigDataSource)(nil)
	_ datasource.DataSourceWithConfigure      = (*agentConfigDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig = (*agentConfigDataSource)(nil)
)

// NewAgentConfig is the flinkagents_agent_config data source. It renders the
// job-side configuration for one agent operator. Without control_topic it
// needs no Kafka connection; with it, it reads the control topic, because
// the runtime refuses every restore while that topic holds no boundary.
func NewAgentConfig() datasource.DataSource { return &agentConfigDataSource{} }

type agentConfigDataSource struct {
	clients *providerdata.Clients
}

type agentConfigModel struct {
	ActionStateTopic  types.String `tfsdk:"action_state_topic"`
	ControlTopic      types.String `tfsdk:"control_topic"`
	Partitions        types.Int64  `tfsdk:"partitions"`
	ReplicationFactor types.Int64  `tfsdk:"replication_factor"`
	BootstrapServers  types.List   `tfsdk:"bootstrap_servers"`
	TombstonesEnabled types.Bool   `tfsdk:"tombstones_enabled"`
	CleanupEnabled    types.Bool   `tfsdk:"cleanup_enabled"`
	Settings          types.Map    `tfsdk:"settings"`
	YAML              types.String `tfsdk:"yaml"`
}

// Defaults of the runtime's own options, so an omitted attribute renders
// what the job would use anyway.
const (
	defaultAgentPartitions        = 64
	defaultAgentReplicationFactor = 1
)

// The runtime's option names (spec: "Names in the Java configuration").
const (
	keyBackend           = "actionStateStoreBackend"
	keyBootstrapServers  = "kafkaBootstrapServers"
	keyTopic             = "kafkaActionStateTopic"
	keyPartitions        = "kafkaActionStateTopicNumPartitions"
	keyReplicationFactor = "kafkaActionStateTopicReplicationFactor"
	keyTombstones        = "kafkaActionStateTombstoneEnabled"
	keyControlTopic      = "kafkaActionStateCleanupControlTopic"
)

// serverPattern keeps each server a single entry of the comma-joined list.
var serverPattern = regexp.MustCompile(`^[^,\s]+$`)

func (d *agentConfigDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_config"
}

func (d *agentConfigDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	// The runtime would fail at job start on a name Kafka refuses.
	topicName := tfconv.TopicName()
	resp.Schema = schema.Schema{
		MarkdownDescription: "Renders the Flink Agents `agent:` configuration that makes a job store action state in Kafka " +
			"with the given topics, ready to merge into the job's Flink configuration. Refuses the combinations the runtime " +
			"refuses. Needs Kafka only when `control_topic` is set.",
		Attributes: map[string]schema.Attribute{
			"action_state_topic": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The action-state topic (`kafkaActionStateTopic`).",
				Validators:          []validator.String{topicName},
			},
			"control_topic": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The cleanup control topic (`kafkaActionStateCleanupControlTopic`), rendered only once it holds " +
					"a committed boundary (left out, with a warning, before). Must differ from `action_state_topic`; not with `tombstones_enabled`.",
				Validators: []validator.String{topicName},
			},
			"partitions": schema.Int64Attribute{
				Optional: true, Computed: true,
				MarkdownDescription: "`kafkaActionStateTopicNumPartitions`; defaults to 64, the runtime's default.",
				Validators:          []validator.Int64{int64validator.Between(1, 100000)},
			},
			"replication_factor": schema.Int64Attribute{
				Optional: true, Computed: true,
				MarkdownDescription: "`kafkaActionStateTopicReplicationFactor`; defaults to 1, the runtime's default.",
				Validators:          []validator.Int64{int64validator.Between(1, 32767)},
			},
			"bootstrap_servers": schema.ListAttribute{
				Optional: true, Computed: true, ElementType: types.StringType,
				MarkdownDescription: "`kafkaBootstrapServers` as `host:port` entries; defaults to the provider's bootstrap servers. " +
					"Set it when the job reaches Kafka by other addresses than Terraform does.",
				Validators: []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(stringvalidator.RegexMatches(serverPattern, "must be one host:port without commas or spaces"))},
			},
			"tombstones_enabled": schema.BoolAttribute{
				Optional: true, Computed: true,
				MarkdownDescription: "`kafkaActionStateTombstoneEnabled`; defaults to false. The runtime refuses per-key tombstones together " +
					"with checkpoint-aligned cleanup, so this must stay false when `control_topic` is set.",
			},
			"cleanup_enabled": schema.BoolAttribute{
				Computed: true,
				MarkdownDescription: "Whether the rendered configuration enables checkpoint-aligned cleanup: true when `control_topic` is " +
					"set and holds a committed boundary, so `kafkaActionStateCleanupControlTopic` is rendered.",
			},
			"settings": schema.MapAttribute{
				Computed: true, ElementType: types.StringType,
				MarkdownDescription: "The rendered options by name, every value as a string.",
			},
			"yaml": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The same options as a YAML document under `agent:`, in a fixed key order with strings double-quoted, " +
					"ready to merge into the job's Flink configuration.",
			},
		},
	}
}

func (d *agentConfigDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
}

// ValidateConfig refuses what the runtime refuses at job start, so the
// mistake surfaces in terraform validate rather than in a failing job. A
// value unknown here (from another resource) is checked when it is known:
// Terraform validates the configuration again before it reads the data
// source, so tombstones and a control topic are never rendered together.
func (d *agentConfigDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m agentConfigModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.ControlTopic.IsNull() || m.ControlTopic.IsUnknown() {
		return
	}
	control := m.ControlTopic.ValueString()
	if !m.ActionStateTopic.IsUnknown() && control == m.ActionStateTopic.ValueString() {
		resp.Diagnostics.Append(diagnostics.AgentControlTopicEqualsDataTopic(path.Root("control_topic"), control))
	}
	if m.TombstonesEnabled.ValueBool() {
		resp.Diagnostics.Append(diagnostics.TombstonesConflictWithCleanup(path.Root("tombstones_enabled"), control))
	}
}

func (d *agentConfigDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m agentConfigModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var servers []string
	if m.BootstrapServers.IsNull() {
		if d.clients != nil {
			servers = d.clients.Brokers()
		}
		if len(servers) == 0 {
			resp.Diagnostics.Append(diagnostics.NoBootstrapServersToRender(path.Root("bootstrap_servers")))
			return
		}
	} else {
		resp.Diagnostics.Append(m.BootstrapServers.ElementsAs(ctx, &servers, false)...)
	}
	if m.Partitions.IsNull() {
		m.Partitions = types.Int64Value(defaultAgentPartitions)
	}
	if m.ReplicationFactor.IsNull() {
		m.ReplicationFactor = types.Int64Value(defaultAgentReplicationFactor)
	}
	if m.TombstonesEnabled.IsNull() {
		m.TombstonesEnabled = types.BoolValue(false)
	}
	serverValues := make([]attr.Value, len(servers))
	for i, s := range servers {
		serverValues[i] = types.StringValue(s)
	}
	m.BootstrapServers = types.ListValueMust(types.StringType, serverValues)
	if resp.Diagnostics.HasError() {
		return
	}

	cfg := agentConfig{
		BootstrapServers:  servers,
		ActionStateTopic:  m.ActionStateTopic.ValueString(),
		Partitions:        m.Partitions.ValueInt64(),
		ReplicationFactor: m.ReplicationFactor.ValueInt64(),
		TombstonesEnabled: m.TombstonesEnabled.ValueBool(),
	}
	if !m.ControlTopic.IsNull() {
		recorded, ok := d.holdsBoundary(ctx, m.ControlTopic.ValueString(), &resp.Diagnostics)
		if !ok {
			return
		}
		if recorded {
			cfg.ControlTopic = m.ControlTopic.ValueString()
		}
	}
	m.CleanupEnabled = types.BoolValue(cfg.ControlTopic != "")
	m.Settings = cfg.settings()
	m.YAML = types.StringValue(cfg.YAML())
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// holdsBoundary says whether control holds a committed boundary (a COMMITTED
// or APPLIED plan), which the runtime requires to restore with it. A missing
// or empty topic is "no" (cleanup_enabled says so; a new operator is
// healthy, so no warning); a topic that cannot be read or holds an
// inconsistent history is an error (ok false), as it would fail a restore.
func (d *agentConfigDataSource) holdsBoundary(ctx context.Context, control string, diags *diag.Diagnostics) (recorded, ok bool) {
	op := fmt.Sprintf("checking that control topic %q holds a committed boundary before rendering it", control)
	kafka, kdiags := d.clients.KafkaClient(ctx, op)
	if diags.Append(kdiags...); diags.HasError() {
		return false, false
	}
	log, err := cleanup.History(ctx, kafka, control)
	if errors.Is(err, kafkaops.ErrTopicNotFound) {
		tflog.Info(ctx, "control topic not rendered: it does not exist yet", map[string]any{"control_topic": control})
		return false, true
	}
	if err != nil {
		diags.Append(d.clients.CleanupDiag(op, err))
		return false, false
	}
	if len(log.Boundary()) == 0 {
		tflog.Info(ctx, "control topic not rendered: it holds no committed boundary yet", map[string]any{"control_topic": control})
		return false, true
	}
	return true, true
}

// agentConfig is the job-side configuration of one agent operator's Kafka
// action-state store. ControlTopic empty means cleanup is not configured.
type agentConfig struct {
	BootstrapServers  []string
	ActionStateTopic  string
	Partitions        int64
	ReplicationFactor int64
	TombstonesEnabled bool
	ControlTopic      string
}

// option is one rendered setting; quoted says whether YAML needs it as a
// string (numbers and booleans are written bare, as Flink users write them).
type option struct {
	key, value string
	quoted     bool
}

// options lists the settings in the order they are rendered: backend, where
// the store lives, its shape, then how it is cleaned.
func (c agentConfig) options() []option {
	opts := []option{
		{keyBackend, "kafka", true},
		{keyBootstrapServers, strings.Join(c.BootstrapServers, ","), true},
		{keyTopic, c.ActionStateTopic, true},
		{keyPartitions, strconv.FormatInt(c.Partitions, 10), false},
		{keyReplicationFactor, strconv.FormatInt(c.ReplicationFactor, 10), false},
		// Written even when false: with cleanup configured the runtime
		// requires it off, and saying so keeps a later default change in
		// the runtime from turning it on under a cleanup boundary.
		{keyTombstones, strconv.FormatBool(c.TombstonesEnabled), false},
	}
	if c.ControlTopic != "" {
		opts = append(opts, option{keyControlTopic, c.ControlTopic, true})
	}
	return opts
}

// settings is the options as a map by name, every value a string.
func (c agentConfig) settings() types.Map {
	m := make(map[string]attr.Value)
	for _, o := range c.options() {
		m[o.key] = types.StringValue(o.value)
	}
	return types.MapValueMust(types.StringType, m)
}

// YAML renders the settings under "agent:". Strings are double-quoted with
// strconv.Quote: for valid UTF-8 (all Terraform strings are) its escapes
// (\" \\ \n \t \uXXXX ...) are a subset of YAML's double-quoted escapes, and
// quoting keeps values such as "true", "1e3" or "null" from changing type.
func (c agentConfig) YAML() string {
	var b strings.Builder
	b.WriteString("agent:\n")
	for _, o := range c.options() {
		v := o.value
		if o.quoted {
			v = strconv.Quote(v)
		}
		fmt.Fprintf(&b, "  %s: %s\n", o.key, v)
	}
	return b.String()
}
