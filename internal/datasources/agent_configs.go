package datasources

import (
	"context"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

var (
	_ datasource.DataSource                   = (*agentConfigsDataSource)(nil)
	_ datasource.DataSourceWithConfigure      = (*agentConfigsDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig = (*agentConfigsDataSource)(nil)
)

// NewAgentConfigs is the flinkagents_agent_configs data source: the job-side
// configuration of many agent operators in one read, rendered exactly as
// flinkagents_agent_config renders one (the same agentConfig). It reads no
// Kafka: whether each control topic holds a committed boundary comes from
// flinkagents_cleanup_boundaries (cleanup_enabled of each entry), which
// keeps that fact in state and never turns it off.
func NewAgentConfigs() datasource.DataSource { return &agentConfigsDataSource{} }

type agentConfigsDataSource struct {
	clients *providerdata.Clients
}

type agentConfigsModel struct {
	Jobs             types.Map  `tfsdk:"jobs"` // of agentConfigsJob
	BootstrapServers types.List `tfsdk:"bootstrap_servers"`
	Configs          types.Map  `tfsdk:"configs"` // of agentConfigsOutput
}

type agentConfigsJob struct {
	ActionStateTopic  types.String `tfsdk:"action_state_topic"`
	ControlTopic      types.String `tfsdk:"control_topic"`
	CleanupEnabled    types.Bool   `tfsdk:"cleanup_enabled"`
	Partitions        types.Int64  `tfsdk:"partitions"`
	ReplicationFactor types.Int64  `tfsdk:"replication_factor"`
	TombstonesEnabled types.Bool   `tfsdk:"tombstones_enabled"`
}

var agentConfigsOutputType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"settings":        types.MapType{ElemType: types.StringType},
	"yaml":            types.StringType,
	"cleanup_enabled": types.BoolType,
}}

func (d *agentConfigsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_configs"
}

func (d *agentConfigsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	topicName := tfconv.TopicName()
	resp.Schema = schema.Schema{
		MarkdownDescription: "Renders the Flink Agents `agent:` configuration of many jobs in one read, each exactly as " +
			"`flinkagents_agent_config` renders one. It reads no Kafka: each job's `cleanup_enabled` (from " +
			"`flinkagents_cleanup_boundaries`) decides whether its control topic is rendered.",
		Attributes: map[string]schema.Attribute{
			"jobs": schema.MapNestedAttribute{
				Required:            true,
				MarkdownDescription: "The jobs by a key of your choice (the operator's name).",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"action_state_topic": schema.StringAttribute{
						Required: true, MarkdownDescription: "The action-state topic (`kafkaActionStateTopic`).",
						Validators: []validator.String{topicName},
					},
					"control_topic": schema.StringAttribute{
						Optional: true, MarkdownDescription: "The cleanup control topic, rendered as `kafkaActionStateCleanupControlTopic` when `cleanup_enabled` is true.",
						Validators: []validator.String{topicName},
					},
					"cleanup_enabled": schema.BoolAttribute{
						Optional: true,
						MarkdownDescription: "Whether the control topic holds a committed boundary: pass " +
							"`flinkagents_cleanup_boundaries.<name>.boundaries[<key>].cleanup_enabled`. The runtime refuses every restore " +
							"with a control topic that holds none, and restores below a boundary without one. Defaults to false.",
					},
					"partitions": schema.Int64Attribute{
						Optional: true, MarkdownDescription: "`kafkaActionStateTopicNumPartitions`; defaults to 64, the runtime's default.",
						Validators: []validator.Int64{int64validator.Between(1, 100000)},
					},
					"replication_factor": schema.Int64Attribute{
						Optional: true, MarkdownDescription: "`kafkaActionStateTopicReplicationFactor`; defaults to 1, the runtime's default.",
						Validators: []validator.Int64{int64validator.Between(1, 32767)},
					},
					"tombstones_enabled": schema.BoolAttribute{
						Optional: true, MarkdownDescription: "`kafkaActionStateTombstoneEnabled`; defaults to false. Refused together with a rendered control topic.",
					},
				}},
			},
			"bootstrap_servers": schema.ListAttribute{
				Optional: true, ElementType: types.StringType,
				MarkdownDescription: "`kafkaBootstrapServers` as `host:port` entries; defaults to the provider's bootstrap servers.",
				Validators:          []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(stringvalidator.RegexMatches(serverPattern, "must be one host:port without commas or spaces"))},
			},
			"configs": schema.MapNestedAttribute{
				Computed:            true,
				MarkdownDescription: "Each job's configuration, by the key of `jobs`.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"settings":        schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The rendered options by name, every value as a string."},
					"yaml":            schema.StringAttribute{Computed: true, MarkdownDescription: "The same options as a YAML document under `agent:`, as `flinkagents_agent_config` writes it."},
					"cleanup_enabled": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether `kafkaActionStateCleanupControlTopic` is rendered."},
				}},
			},
		},
	}
}

func (d *agentConfigsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
}

// ValidateConfig refuses, per job, what the runtime refuses at job start.
func (d *agentConfigsDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m agentConfigsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.Jobs.IsUnknown() || m.Jobs.IsNull() {
		return
	}
	jobs := map[string]agentConfigsJob{}
	resp.Diagnostics.Append(m.Jobs.ElementsAs(ctx, &jobs, true)...)
	for _, key := range slices.Sorted(maps.Keys(jobs)) {
		j := jobs[key]
		at := path.Root("jobs").AtMapKey(key)
		if j.ControlTopic.IsNull() || j.ControlTopic.IsUnknown() {
			continue
		}
		control := j.ControlTopic.ValueString()
		if !j.ActionStateTopic.IsUnknown() && control == j.ActionStateTopic.ValueString() {
			resp.Diagnostics.Append(diagnostics.ForJob(key, at.AtName("control_topic"), diagnostics.AgentControlTopicEqualsDataTopic(at.AtName("control_topic"), control)))
		}
		if j.TombstonesEnabled.ValueBool() && j.CleanupEnabled.ValueBool() {
			resp.Diagnostics.Append(diagnostics.ForJob(key, at.AtName("tombstones_enabled"), diagnostics.TombstonesConflictWithCleanup(at.AtName("tombstones_enabled"), control)))
		}
	}
}

func (d *agentConfigsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m agentConfigsModel
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
	jobs := map[string]agentConfigsJob{}
	resp.Diagnostics.Append(m.Jobs.ElementsAs(ctx, &jobs, false)...)
	if resp.Diagnostics.HasError() {
		return
	}
	configs := make(map[string]attr.Value, len(jobs))
	for key, j := range jobs {
		cfg := agentConfig{
			BootstrapServers:  servers,
			ActionStateTopic:  j.ActionStateTopic.ValueString(),
			Partitions:        defaultAgentPartitions,
			ReplicationFactor: defaultAgentReplicationFactor,
			TombstonesEnabled: j.TombstonesEnabled.ValueBool(),
		}
		if !j.Partitions.IsNull() {
			cfg.Partitions = j.Partitions.ValueInt64()
		}
		if !j.ReplicationFactor.IsNull() {
			cfg.ReplicationFactor = j.ReplicationFactor.ValueInt64()
		}
		if j.CleanupEnabled.ValueBool() && !j.ControlTopic.IsNull() {
			cfg.ControlTopic = j.ControlTopic.ValueString()
		}
		configs[key] = types.ObjectValueMust(agentConfigsOutputType.AttrTypes, map[string]attr.Value{
			"settings":        cfg.settings(),
			"yaml":            types.StringValue(cfg.YAML()),
			"cleanup_enabled": types.BoolValue(cfg.ControlTopic != ""),
		})
	}
	m.Configs = types.MapValueMust(agentConfigsOutputType, configs)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
