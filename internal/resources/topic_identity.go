package resources

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A topic's resource identity is its name: what Kafka addresses it by and
// what an import block's identity (or a list result) carries. The topic ID
// is not part of it: it changes when the topic is recreated, which the
// resource reports as drift to review, not as another object.

var _ resource.ResourceWithIdentity = (*topicResource[actionStateTopicModel])(nil)

type topicIdentityModel struct {
	Name types.String `tfsdk:"name"`
}

func (r *topicResource[M]) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = topicIdentitySchema()
}

func topicIdentitySchema() identityschema.Schema {
	return identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"name": identityschema.StringAttribute{
				RequiredForImport: true,
				Description:       "The topic name.",
			},
		},
	}
}

// setTopicIdentity records name as the identity; identity may be nil (a
// Terraform that does not support identities sends none).
func setTopicIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, name types.String, diags *diag.Diagnostics) {
	if identity == nil || name.IsUnknown() || name.IsNull() {
		return
	}
	diags.Append(identity.Set(ctx, topicIdentityModel{Name: name})...)
}

// importedName is the topic an import names: its import ID, or the name in
// its identity when the import block gives an identity instead.
func importedName(ctx context.Context, req resource.ImportStateRequest, diags *diag.Diagnostics) string {
	if req.ID != "" || req.Identity == nil {
		return req.ID
	}
	var name types.String
	diags.Append(req.Identity.GetAttribute(ctx, path.Root("name"), &name)...)
	return name.ValueString()
}
