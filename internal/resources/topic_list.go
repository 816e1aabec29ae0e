package resources

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/adoption"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// The list resources (terraform query) of both topic kinds, written once:
// one survey of the cluster (internal/adoption), then one result per topic
// whose resource object is what an import followed by a read would hold,
// so generated configuration plus a plan shows only the settings the
// provider enforces, as in-place updates.

var (
	_ list.ListResource                   = (*topicList[actionStateTopicModel])(nil)
	_ list.ListResourceWithConfigure      = (*topicList[actionStateTopicModel])(nil)
	_ list.ListResourceWithValidateConfig = (*topicList[actionStateTopicModel])(nil)
)

// NewActionStateTopicList lists action-state topics.
func NewActionStateTopicList() list.ListResource {
	return &topicList[actionStateTopicModel]{spec: &actionStateTopicSpec}
}

// NewCleanupControlTopicList lists cleanup control topics.
func NewCleanupControlTopicList() list.ListResource {
	return &topicList[controlTopicModel]{spec: &controlTopicSpec}
}

type topicList[M any] struct {
	spec    *topicSpec[M]
	clients *providerdata.Clients
}

type topicListConfig struct {
	NamePrefix types.String `tfsdk:"name_prefix"`
	NameRegex  types.String `tfsdk:"name_regex"`
}

func (l *topicList[M]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + l.spec.typeSuffix
}

func (l *topicList[M]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
}

func (l *topicList[M]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: l.spec.listDescription,
		Attributes: map[string]listschema.Attribute{
			"name_prefix": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only topics whose name starts with this (empty: no filter).",
				Validators:          []validator.String{tfconv.TopicNamePrefix()},
			},
			"name_regex": listschema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Only topics whose name this regular expression (Go RE2 syntax) matches; it matches anywhere " +
					"in the name unless anchored with `^` and `$`. With `name_prefix`, a topic must pass both. Empty: no filter.",
			},
		},
	}
}

func (l *topicList[M]) ValidateListResourceConfig(ctx context.Context, req list.ValidateConfigRequest, resp *list.ValidateConfigResponse) {
	var cfg topicListConfig
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if !resp.Diagnostics.HasError() {
		listFilter(cfg, &resp.Diagnostics)
	}
}

// listFilter builds the survey's filter from the list block.
func listFilter(cfg topicListConfig, diags *diag.Diagnostics) adoption.Filter {
	f := adoption.Filter{Prefix: cfg.NamePrefix.ValueString()}
	// An empty expression matches every name: no filter, so it must not
	// count as one (a filter also lists empty topics as control topics).
	if cfg.NameRegex.IsUnknown() || cfg.NameRegex.IsNull() || cfg.NameRegex.ValueString() == "" {
		return f
	}
	re, err := regexp.Compile(cfg.NameRegex.ValueString())
	if err != nil {
		diags.Append(diagnostics.InvalidNameRegex(path.Root("name_regex"), err))
		return f
	}
	f.Regex = re
	return f
}

func (l *topicList[M]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg topicListConfig
	var diags diag.Diagnostics
	diags.Append(req.Config.Get(ctx, &cfg)...)
	f := listFilter(cfg, &diags)
	listing := l.spec.label + "s"
	var filters []string
	if f.Prefix != "" {
		filters = append(filters, fmt.Sprintf("name_prefix %q", f.Prefix))
	}
	if f.Regex != nil {
		filters = append(filters, fmt.Sprintf("name_regex %q", f.Regex))
	}
	if len(filters) > 0 {
		listing += " (" + strings.Join(filters, ", ") + ")"
	}
	op := "listing " + listing
	kafka, d := l.clients.KafkaClient(ctx, op)
	if diags.Append(d...); diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	survey, err := adoption.Take(ctx, kafka, f, l.spec.listKind)
	switch {
	case errors.Is(err, adoption.ErrNoDescribe):
		stream.Results = list.ListResultsStreamDiagnostics(diag.Diagnostics{diagnostics.ListNoDescribe(listing, f.Prefix, err)})
		return
	case err != nil:
		stream.Results = list.ListResultsStreamDiagnostics(diag.Diagnostics{l.clients.KafkaDiag(op, err)})
		return
	}
	stream.Results = func(push func(list.ListResult) bool) {
		// The topics not sorted come first, as warnings only: a limit
		// must not hide that the listing may be missing one.
		for _, u := range survey.Untold {
			if !push(list.ListResult{Diagnostics: diag.Diagnostics{diagnostics.ListTopicKindUntold(listing, u.Name, u.Err)}}) {
				return
			}
		}
		for i, t := range survey.Found {
			if req.Limit > 0 && int64(i) >= req.Limit {
				return
			}
			if !push(l.result(ctx, req, t)) {
				return
			}
		}
	}
}

// result is one listed topic: its identity, a display name, and with
// include_resource the object an import and a read would give.
func (l *topicList[M]) result(ctx context.Context, req list.ListRequest, t adoption.Found) list.ListResult {
	res := req.NewListResult(ctx)
	name := t.Topic.Name
	partitions := fmt.Sprintf("%d partitions", len(t.Topic.Partitions))
	if len(t.Topic.Partitions) == 1 {
		partitions = "1 partition"
	}
	policy := "settings not readable"
	if p, ok := t.Configs["cleanup.policy"]; ok && !p.Null {
		policy = "cleanup.policy=" + p.Value
	}
	res.DisplayName = fmt.Sprintf("%s (%s, replication factor %d, %s)", name, partitions, t.Topic.ReplicationFactor, policy)
	res.Diagnostics.Append(res.Identity.Set(ctx, topicIdentityModel{Name: types.StringValue(name)})...)
	if t.Err != nil {
		res.Diagnostics.Append(diagnostics.ListTopicNotRead(l.spec.label, name, t.Err))
	}
	if !req.IncludeResource {
		return res
	}
	var m M
	c := l.spec.common(&m)
	c.Name = types.StringValue(name)
	c.DeletionProtection = types.BoolValue(true) // as ImportState adopts a topic
	c.Config = types.MapNull(types.StringType)
	c.Timeouts = nullTopicTimeouts()
	var fill diag.Diagnostics
	(&topicResource[M]{spec: l.spec}).fillFrom(&m, t.Topic, t.Configs, fmt.Sprintf("listing %s %q", l.spec.label, name), &fill)
	l.spec.listed(&m, t)
	res.Diagnostics.Append(fill...)
	res.Diagnostics.Append(res.Resource.Set(ctx, &m)...)
	return res
}
