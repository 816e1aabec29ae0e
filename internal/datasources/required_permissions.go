package datasources

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/permissions"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

var (
	_ datasource.DataSource                   = (*requiredPermissionsDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig = (*requiredPermissionsDataSource)(nil)
)

// NewRequiredPermissions is the flinkagents_required_permissions data
// source: the ACLs of one topic pair (internal/permissions' table) in the
// forms other providers take. It needs no Kafka connection.
func NewRequiredPermissions() datasource.DataSource { return &requiredPermissionsDataSource{} }

type requiredPermissionsDataSource struct{}

type requiredPermissionsModel struct {
	ActionStateTopic      types.String `tfsdk:"action_state_topic"`
	ControlTopic          types.String `tfsdk:"control_topic"`
	TerraformPrincipal    types.String `tfsdk:"terraform_principal"`
	JobPrincipal          types.String `tfsdk:"job_principal"`
	Host                  types.String `tfsdk:"host"`
	MSKClusterARN         types.String `tfsdk:"msk_cluster_arn"`
	TransactionalID       types.String `tfsdk:"transactional_id"`
	ACLs                  types.List   `tfsdk:"acls"`
	KafkaACLs             types.Map    `tfsdk:"kafka_acls"`
	ConfluentKafkaACLs    types.Map    `tfsdk:"confluent_kafka_acls"`
	TerraformMSKIAMPolicy types.String `tfsdk:"terraform_msk_iam_policy"`
	JobMSKIAMPolicy       types.String `tfsdk:"job_msk_iam_policy"`
}

var (
	aclType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"key": types.StringType, "principal": types.StringType, "host": types.StringType,
		"resource_type": types.StringType, "resource_name": types.StringType, "pattern_type": types.StringType,
		"operation": types.StringType, "permission": types.StringType,
		"roles": types.ListType{ElemType: types.StringType}, "needed_for": types.ListType{ElemType: types.StringType},
	}}
	// mongeyACLType has exactly the arguments of the Mongey provider's kafka_acl.
	mongeyACLType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"resource_name": types.StringType, "resource_type": types.StringType, "resource_pattern_type_filter": types.StringType,
		"acl_principal": types.StringType, "acl_host": types.StringType, "acl_operation": types.StringType,
		"acl_permission_type": types.StringType,
	}}
	// confluentACLType has the ACL arguments of Confluent's confluent_kafka_acl.
	confluentACLType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"resource_type": types.StringType, "resource_name": types.StringType, "pattern_type": types.StringType,
		"principal": types.StringType, "host": types.StringType, "operation": types.StringType, "permission": types.StringType,
	}}
)

func (d *requiredPermissionsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_required_permissions"
}

func (d *requiredPermissionsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	topicName := tfconv.TopicName()
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The exact Kafka ACLs that Terraform's principal and the Flink job's principal need for one topic pair, " +
			"and nothing more: ready for `for_each` into `kafka_acl` (Mongey) or `confluent_kafka_acl`, and as AWS MSK IAM policy " +
			"documents. Needs no Kafka connection.",
		Attributes: map[string]schema.Attribute{
			"action_state_topic": schema.StringAttribute{Required: true, Validators: []validator.String{topicName},
				MarkdownDescription: "The action-state topic (`kafkaActionStateTopic`)."},
			"control_topic": schema.StringAttribute{Required: true, Validators: []validator.String{topicName},
				MarkdownDescription: "The cleanup control topic (`kafkaActionStateCleanupControlTopic`); it must differ from `action_state_topic`."},
			"terraform_principal": schema.StringAttribute{Required: true,
				MarkdownDescription: "The principal this provider connects as, in Kafka's form (`User:terraform`; on Confluent Cloud the service account, `User:sa-...`). " +
					"One concrete principal: the wildcard `User:*` and any `*` in the name are refused."},
			"job_principal": schema.StringAttribute{Optional: true,
				MarkdownDescription: "The principal the Flink job connects as, refused like `terraform_principal` when a wildcard. Without it only Terraform's ACLs are rendered."},
			"host": schema.StringAttribute{Optional: true, Computed: true, Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
				MarkdownDescription: "The host every ACL allows; defaults to `*`, any host."},
			"msk_cluster_arn": schema.StringAttribute{Optional: true,
				MarkdownDescription: "An AWS MSK cluster ARN (`arn:aws:kafka:REGION:ACCOUNT:cluster/NAME/UUID`, `aws_msk_cluster.<name>.arn`). " +
					"When set, the two IAM policy documents are rendered for its topics and transactional ID. An ARN with the IAM wildcards `*` or `?` is refused."},
			"transactional_id": computed("The transactional ID Terraform's control transactions use, `flinkagents-cleanup-<control topic>`."),
			"acls": schema.ListAttribute{Computed: true, ElementType: aclType,
				MarkdownDescription: "Every ACL in Kafka's own names (`resource_type`, `pattern_type`, `operation`, `permission`), Terraform's " +
					"first, with `key` (the key of the two maps below), `roles` (`terraform`, `job` or both) and `needed_for` (the requests that need it)."},
			"kafka_acls": schema.MapAttribute{Computed: true, ElementType: mongeyACLType,
				MarkdownDescription: "The same ACLs keyed by `key`, each with exactly the arguments of the Mongey provider's `kafka_acl` " +
					"(`resource_type` `Topic` or `TransactionalID`, `resource_pattern_type_filter` `Literal`, `acl_operation` such as `Read` " +
					"or `AlterConfigs`, `acl_permission_type` `Allow`): `for_each` it."},
			"confluent_kafka_acls": schema.MapAttribute{Computed: true, ElementType: confluentACLType,
				MarkdownDescription: "The same ACLs keyed by `key`, each with the ACL arguments of Confluent's `confluent_kafka_acl` " +
					"(`resource_type` `TOPIC` or `TRANSACTIONAL_ID`, `pattern_type` `LITERAL`, `operation` such as `READ`, `permission` `ALLOW`)."},
			"terraform_msk_iam_policy": computed("With `msk_cluster_arn`: the IAM policy document (JSON) to attach to the IAM role or user " +
				"Terraform authenticates to MSK as. Null otherwise."),
			"job_msk_iam_policy": computed("With `msk_cluster_arn`: the IAM policy document (JSON) for the Flink job's IAM role; it needs " +
				"no `job_principal`. Null otherwise."),
		},
	}
}

// ValidateConfig refuses a pair the runtime refuses, at validate time.
func (d *requiredPermissionsDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m requiredPermissionsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	known := func(v types.String) bool { return !v.IsNull() && !v.IsUnknown() }
	if known(m.ControlTopic) && known(m.ActionStateTopic) && m.ControlTopic.ValueString() == m.ActionStateTopic.ValueString() {
		resp.Diagnostics.Append(diagnostics.AgentControlTopicEqualsDataTopic(path.Root("control_topic"), m.ControlTopic.ValueString()))
	}
	for _, p := range []struct {
		attr  string
		value types.String
	}{{"terraform_principal", m.TerraformPrincipal}, {"job_principal", m.JobPrincipal}} {
		if !known(p.value) {
			continue
		}
		if err := permissions.CheckPrincipal(p.value.ValueString()); err != nil {
			resp.Diagnostics.Append(diagnostics.InvalidPrincipal(path.Root(p.attr), err))
		}
	}
	if known(m.MSKClusterARN) {
		if _, err := permissions.ParseMSKClusterARN(m.MSKClusterARN.ValueString()); err != nil {
			resp.Diagnostics.Append(diagnostics.InvalidMSKClusterARN(path.Root("msk_cluster_arn"), err))
		}
	}
}

func (d *requiredPermissionsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m requiredPermissionsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.Host.IsNull() {
		m.Host = types.StringValue(permissions.AnyHost)
	}
	in := permissions.Input{
		ActionStateTopic:   m.ActionStateTopic.ValueString(),
		ControlTopic:       m.ControlTopic.ValueString(),
		TerraformPrincipal: m.TerraformPrincipal.ValueString(),
		JobPrincipal:       m.JobPrincipal.ValueString(),
		Host:               m.Host.ValueString(),
	}
	acls, err := permissions.Render(in)
	if err != nil {
		resp.Diagnostics.Append(diagnostics.RequiredPermissionsNotRendered(err))
		return
	}
	m.TransactionalID = types.StringValue(in.Name(permissions.CleanupTransactionalID))
	m.ACLs, m.KafkaACLs, m.ConfluentKafkaACLs = aclValues(acls)
	m.TerraformMSKIAMPolicy, m.JobMSKIAMPolicy = types.StringNull(), types.StringNull()
	if !m.MSKClusterARN.IsNull() {
		for _, p := range []struct {
			role permissions.Role
			into *types.String
		}{{permissions.Terraform, &m.TerraformMSKIAMPolicy}, {permissions.Job, &m.JobMSKIAMPolicy}} {
			policy, err := permissions.MSKPolicy(in, p.role, m.MSKClusterARN.ValueString())
			if err != nil {
				resp.Diagnostics.Append(diagnostics.RequiredPermissionsNotRendered(err))
				return
			}
			*p.into = types.StringValue(policy)
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// aclValues renders the ACLs as the three computed collections.
func aclValues(acls []permissions.ACL) (list types.List, mongey, confluent types.Map) {
	str := types.StringValue
	strs := func(ss []string) types.List {
		vs := make([]attr.Value, len(ss))
		for i, s := range ss {
			vs[i] = str(s)
		}
		return types.ListValueMust(types.StringType, vs)
	}
	items := make([]attr.Value, len(acls))
	byKeyMongey := make(map[string]attr.Value, len(acls))
	byKeyConfluent := make(map[string]attr.Value, len(acls))
	for i, a := range acls {
		roles := make([]string, len(a.Roles))
		for j, r := range a.Roles {
			roles[j] = string(r)
		}
		items[i] = types.ObjectValueMust(aclType.AttrTypes, map[string]attr.Value{
			"key": str(a.Key()), "principal": str(a.Principal), "host": str(a.Host),
			"resource_type": str(string(a.ResourceType)), "resource_name": str(a.ResourceName), "pattern_type": str(permissions.PatternLiteral),
			"operation": str(string(a.Operation)), "permission": str(permissions.PermissionAllow),
			"roles": strs(roles), "needed_for": strs(a.Requests),
		})
		mg := a.Mongey()
		byKeyMongey[a.Key()] = types.ObjectValueMust(mongeyACLType.AttrTypes, map[string]attr.Value{
			"resource_name": str(mg.ResourceName), "resource_type": str(mg.ResourceType),
			"resource_pattern_type_filter": str(mg.ResourcePatternTypeFilter), "acl_principal": str(mg.ACLPrincipal),
			"acl_host": str(mg.ACLHost), "acl_operation": str(mg.ACLOperation), "acl_permission_type": str(mg.ACLPermissionType),
		})
		cf := a.Confluent()
		byKeyConfluent[a.Key()] = types.ObjectValueMust(confluentACLType.AttrTypes, map[string]attr.Value{
			"resource_type": str(cf.ResourceType), "resource_name": str(cf.ResourceName), "pattern_type": str(cf.PatternType),
			"principal": str(cf.Principal), "host": str(cf.Host), "operation": str(cf.Operation), "permission": str(cf.Permission),
		})
	}
	return types.ListValueMust(aclType, items), types.MapValueMust(mongeyACLType, byKeyMongey), types.MapValueMust(confluentACLType, byKeyConfluent)
}
