package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
)

// probeProvider is the real provider plus a test-only data source. Terraform
// prunes a provider that nothing uses, so a configuration with only a
// provider block would never reach Configure; the probe gives it a user.
type probeProvider struct {
	*flinkAgentsProvider
}

func newProbeProvider() provider.Provider {
	return probeProvider{New("test")().(*flinkAgentsProvider)}
}

func (p probeProvider) DataSources(ctx context.Context) []func() datasource.DataSource {
	return append(p.flinkAgentsProvider.DataSources(ctx), func() datasource.DataSource { return &probeDataSource{} })
}

// probeDataSource reports what a resource receives from the provider and,
// with build_client, asks for the Kafka client the way a resource would.
type probeDataSource struct {
	clients *providerdata.Clients
}

type probeModel struct {
	BuildClient      types.Bool   `tfsdk:"build_client"`
	BootstrapServers types.List   `tfsdk:"bootstrap_servers"`
	Timeout          types.String `tfsdk:"timeout"`
}

func (d *probeDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_probe"
}

func (d *probeDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Attributes: map[string]schema.Attribute{
			"build_client":      schema.BoolAttribute{Optional: true},
			"bootstrap_servers": schema.ListAttribute{Computed: true, ElementType: types.StringType},
			"timeout":           schema.StringAttribute{Computed: true},
		},
	}
}

func (d *probeDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
}

func (d *probeDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var model probeModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &model)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if model.BuildClient.ValueBool() {
		_, diags := d.clients.KafkaClient(ctx, "probing the cluster")
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	brokers, diags := types.ListValueFrom(ctx, types.StringType, d.clients.Brokers())
	resp.Diagnostics.Append(diags...)
	model.BootstrapServers = brokers
	model.Timeout = types.StringValue(d.clients.Timeout().String())
	resp.Diagnostics.Append(resp.State.Set(ctx, &model)...)
}
