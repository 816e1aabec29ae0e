package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// standIn is another provider as far as terraform validate sees it: its
// address and the arguments of the resource types the guides use with
// ours, transcribed from its documentation. It manages nothing.
type standIn struct {
	name, source string
	resources    map[string]schema.Schema
}

// standIns are the providers the guides combine ours with.
var standIns = []standIn{
	{name: "kafka", source: "mongey/kafka", resources: map[string]schema.Schema{
		"kafka_acl": requiredStrings("resource_name", "resource_type", "resource_pattern_type_filter", "acl_principal",
			"acl_host", "acl_operation", "acl_permission_type"),
		"kafka_topic": withOptionalMap(requiredStrings("name"), "config", "partitions", "replication_factor"),
	}},
	{name: "confluent", source: "confluentinc/confluent", resources: map[string]schema.Schema{
		"confluent_kafka_acl": withBlocks(requiredStrings("resource_type", "resource_name", "pattern_type", "principal",
			"host", "operation", "permission", "rest_endpoint"), map[string][]string{
			"kafka_cluster": {"id"}, "credentials": {"key", "secret"},
		}),
		"confluent_kafka_topic": requiredStrings("topic_name"),
	}},
	{name: "aws", source: "hashicorp/aws", resources: map[string]schema.Schema{
		"aws_iam_role_policy": requiredStrings("role", "policy"),
		// Declared by the test where a guide refers to one: nothing to set.
		"aws_iam_role":    computed("id", "arn"),
		"aws_msk_cluster": computed("id", "arn"),
	}},
}

// stub says whether kind is a resource type of this provider that the test
// may declare with no arguments.
func (s standIn) stub(kind string) bool {
	r, ok := s.resources[kind]
	if !ok {
		return false
	}
	for _, a := range r.Attributes {
		if a.IsRequired() {
			return false
		}
	}
	return true
}

func (s standIn) server() func() tfprotov6.ProviderServer {
	return providerserver.NewProtocol6(standInProvider{s})
}

// requiredStrings is a schema of required string arguments.
func requiredStrings(names ...string) schema.Schema {
	attrs := map[string]schema.Attribute{"id": schema.StringAttribute{Computed: true}}
	for _, n := range names {
		attrs[n] = schema.StringAttribute{Required: true}
	}
	return schema.Schema{Attributes: attrs}
}

func computed(names ...string) schema.Schema {
	attrs := map[string]schema.Attribute{}
	for _, n := range names {
		attrs[n] = schema.StringAttribute{Computed: true}
	}
	return schema.Schema{Attributes: attrs}
}

// withOptionalMap adds optional arguments: a map of strings, and numbers.
func withOptionalMap(s schema.Schema, mapName string, numbers ...string) schema.Schema {
	s.Attributes[mapName] = schema.MapAttribute{Optional: true, ElementType: types.StringType}
	for _, n := range numbers {
		s.Attributes[n] = schema.Int64Attribute{Optional: true}
	}
	return s
}

// withBlocks adds single nested blocks of required strings.
func withBlocks(s schema.Schema, blocks map[string][]string) schema.Schema {
	s.Blocks = map[string]schema.Block{}
	for name, fields := range blocks {
		attrs := map[string]schema.Attribute{}
		for _, f := range fields {
			attrs[f] = schema.StringAttribute{Required: true}
		}
		s.Blocks[name] = schema.SingleNestedBlock{Attributes: attrs}
	}
	return s
}

type standInProvider struct{ s standIn }

func (p standInProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = p.s.name
}

func (p standInProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (p standInProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (p standInProvider) Resources(context.Context) []func() resource.Resource {
	var out []func() resource.Resource
	for name, s := range p.s.resources {
		out = append(out, func() resource.Resource { return standInResource{name, s} })
	}
	return out
}

func (p standInProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

type standInResource struct {
	name   string
	schema schema.Schema
}

func (r standInResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = r.name
}

func (r standInResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.schema
}

// The stand-ins only answer validate; anything else is a test bug.
func (r standInResource) Create(_ context.Context, _ resource.CreateRequest, resp *resource.CreateResponse) {
	resp.Diagnostics.AddError("Stand-In", r.name+" is a stand-in for terraform validate")
}

func (r standInResource) Read(_ context.Context, _ resource.ReadRequest, resp *resource.ReadResponse) {
	resp.Diagnostics.AddError("Stand-In", r.name+" is a stand-in for terraform validate")
}

func (r standInResource) Update(_ context.Context, _ resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.Diagnostics.AddError("Stand-In", r.name+" is a stand-in for terraform validate")
}

func (r standInResource) Delete(_ context.Context, _ resource.DeleteRequest, resp *resource.DeleteResponse) {
	resp.Diagnostics.AddError("Stand-In", r.name+" is a stand-in for terraform validate")
}
