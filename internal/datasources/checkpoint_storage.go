package datasources

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpointstore"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
)

// The optional "storage" attribute of data sources that read checkpoints:
// how to reach the object store a checkpoint path names. Credentials are
// never attributes; each cloud's standard chain supplies them.

type checkpointStorageModel struct {
	S3Endpoint  types.String       `tfsdk:"s3_endpoint"`
	S3Region    types.String       `tfsdk:"s3_region"`
	S3PathStyle types.Bool         `tfsdk:"s3_path_style"`
	S3Profile   types.String       `tfsdk:"s3_profile"`
	PathRewrite []pathRewriteModel `tfsdk:"path_rewrite"`
}

type pathRewriteModel struct {
	From types.String `tfsdk:"from"`
	To   types.String `tfsdk:"to"`
}

func checkpointStorageAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "How to reach the store a checkpoint path names (S3, GCS, Azure, local). Credentials come from " +
			"each cloud's standard chain, never from configuration: see the [checkpoint storage guide](../guides/checkpoint-storage).",
		Attributes: map[string]schema.Attribute{
			"s3_endpoint": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Base URL of an S3-compatible store (MinIO, Ceph, …), for example `https://minio.example.com:9000`. Default: AWS S3.",
			},
			"s3_region": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Region of the S3 buckets. Default: `AWS_REGION` or the profile's region; with `s3_endpoint` and no region, " +
					"`us-east-1`.",
			},
			"s3_path_style": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: "Address buckets as `endpoint/bucket/key` (most S3-compatible stores need this). Default `false`.",
			},
			"s3_profile": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Named profile in the shared AWS config files. Default: `AWS_PROFILE`, else `default`.",
			},
			"path_rewrite": schema.ListNestedAttribute{
				Optional: true,
				MarkdownDescription: "For checkpoints copied or moved after Flink wrote them (`_metadata` records absolute paths): " +
					"the first rule whose `from` is the path or a parent of it (whole segments) replaces that part with `to`; " +
					"the scheme may change. See the checkpoint storage guide.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"from": schema.StringAttribute{Required: true, MarkdownDescription: "Prefix as recorded, for example `s3://old-bucket/flink/job-a`."},
					"to":   schema.StringAttribute{Required: true, MarkdownDescription: "Prefix where the files are now."},
				}},
			},
		},
	}
}

// newCheckpointStore builds the store for a data source's "storage" value
// (null for none). timeout, the provider's, bounds each storage request; 0
// leaves the store's default, the same as the provider's.
func newCheckpointStore(ctx context.Context, storage types.Object, timeout time.Duration) (*checkpointstore.Router, diag.Diagnostics) {
	var diags diag.Diagnostics
	opts := checkpointstore.Options{Timeout: timeout}
	if !storage.IsNull() && !storage.IsUnknown() {
		var m checkpointStorageModel
		diags.Append(storage.As(ctx, &m, basetypes.ObjectAsOptions{})...)
		if diags.HasError() {
			return nil, diags
		}
		opts.S3 = checkpointstore.S3Options{
			Endpoint: m.S3Endpoint.ValueString(), Region: m.S3Region.ValueString(),
			PathStyle: m.S3PathStyle.ValueBool(), Profile: m.S3Profile.ValueString(),
		}
		for _, rw := range m.PathRewrite {
			opts.PathRewrite = append(opts.PathRewrite, checkpointstore.Rewrite{From: rw.From.ValueString(), To: rw.To.ValueString()})
		}
	}
	r, err := checkpointstore.New(opts)
	if err != nil {
		diags.Append(diagnostics.InvalidCheckpointStorage(path.Root("storage"), err))
		return nil, diags
	}
	return r, diags
}

// logCheckpointReads is the debug line showing how little was fetched.
func logCheckpointReads(ctx context.Context, r *checkpointstore.Router, checkpointPath string) {
	st := r.Stats()
	tflog.Debug(ctx, "checkpoint storage reads", map[string]any{"checkpoint_path": checkpointPath, "bytes_read": st.BytesRead, "requests": st.Requests})
}
