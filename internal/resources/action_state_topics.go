package resources

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

var (
	_ resource.Resource                   = (*fleetTopicsResource)(nil)
	_ resource.ResourceWithConfigure      = (*fleetTopicsResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*fleetTopicsResource)(nil)
	_ resource.ResourceWithImportState    = (*fleetTopicsResource)(nil)
	_ resource.ResourceWithValidateConfig = (*fleetTopicsResource)(nil)
)

// NewActionStateTopics is the flinkagents_action_state_topics resource:
// every operator's action-state topic and control topic in one Terraform
// object. Terraform core's cost grows with the objects it manages (and an
// apply of local state with their square), not with what one object
// holds, so a fleet of thousands of operators costs one object here where
// the single-topic resources cost two per operator (BENCHMARKS.md).
//
// Each topic goes through the single-topic resources' own lifecycle
// (topic_lifecycle.go): the same plan-time refusals, enforced settings,
// identity check before every write, replication raise and deletion.
// The plan in action_state_topics_plan.go, the lifecycle in
// action_state_topics_crud.go, import in action_state_topics_import.go.
func NewActionStateTopics() resource.Resource {
	return &fleetTopicsResource{
		data:    &topicResource[actionStateTopicModel]{spec: &actionStateTopicSpec, createdBy: diagnostics.FleetTopicsType},
		control: &topicResource[controlTopicModel]{spec: &controlTopicSpec, createdBy: diagnostics.FleetTopicsType},
	}
}

type fleetTopicsResource struct {
	clients *providerdata.Clients
	data    *topicResource[actionStateTopicModel]
	control *topicResource[controlTopicModel]
}

type fleetTopicsModel struct {
	ID                 types.String   `tfsdk:"id"`
	DeletionProtection types.Bool     `tfsdk:"deletion_protection"`
	Operators          types.Map      `tfsdk:"operators"` // of fleetEntry
	Timeouts           timeouts.Value `tfsdk:"timeouts"`
}

// fleetEntry is one operator's topics.
type fleetEntry struct {
	ActionStateTopic fleetDataTopic     `tfsdk:"action_state_topic"`
	ControlTopic     *fleetControlTopic `tfsdk:"control_topic"`
}

// fleetDataTopic is flinkagents_action_state_topic's attributes that an
// entry carries; a null topic_id means not in Kafka yet (to be created).
type fleetDataTopic struct {
	Name              types.String `tfsdk:"name"`
	Partitions        types.Int64  `tfsdk:"partitions"`
	ReplicationFactor types.Int64  `tfsdk:"replication_factor"`
	Config            types.Map    `tfsdk:"config"`
	TopicID           types.String `tfsdk:"topic_id"`
	CleanupPolicy     types.String `tfsdk:"cleanup_policy"`
	RetentionMs       types.String `tfsdk:"retention_ms"`
	RetentionBytes    types.String `tfsdk:"retention_bytes"`
}

// fleetControlTopic is flinkagents_cleanup_control_topic's attributes that
// an entry carries; it serves the entry's action-state topic.
type fleetControlTopic struct {
	Name              types.String `tfsdk:"name"`
	ReplicationFactor types.Int64  `tfsdk:"replication_factor"`
	Config            types.Map    `tfsdk:"config"`
	TopicID           types.String `tfsdk:"topic_id"`
	CleanupPolicy     types.String `tfsdk:"cleanup_policy"`
}

// fleetTopicsID is the resource's ID: the set has no name of its own.
const fleetTopicsID = "action-state-topics"

func (t fleetDataTopic) model(protected bool) actionStateTopicModel {
	return actionStateTopicModel{
		topicCommon: topicCommon{ID: t.Name, Name: t.Name, ReplicationFactor: t.ReplicationFactor, Config: t.Config,
			DeletionProtection: types.BoolValue(protected), TopicID: t.TopicID, CleanupPolicy: t.CleanupPolicy, Timeouts: nullTopicTimeouts()},
		Partitions: t.Partitions, RetentionMs: t.RetentionMs, RetentionBytes: t.RetentionBytes,
	}
}

func dataTopicOf(m actionStateTopicModel) fleetDataTopic {
	return fleetDataTopic{Name: m.Name, Partitions: m.Partitions, ReplicationFactor: m.ReplicationFactor, Config: m.Config,
		TopicID: m.TopicID, CleanupPolicy: m.CleanupPolicy, RetentionMs: m.RetentionMs, RetentionBytes: m.RetentionBytes}
}

func (t fleetControlTopic) model(protected bool, serves types.String) controlTopicModel {
	return controlTopicModel{
		topicCommon: topicCommon{ID: t.Name, Name: t.Name, ReplicationFactor: t.ReplicationFactor, Config: t.Config,
			DeletionProtection: types.BoolValue(protected), TopicID: t.TopicID, CleanupPolicy: t.CleanupPolicy, Timeouts: nullTopicTimeouts()},
		ActionStateTopic: serves,
	}
}

func controlTopicOf(m controlTopicModel) *fleetControlTopic {
	return &fleetControlTopic{Name: m.Name, ReplicationFactor: m.ReplicationFactor, Config: m.Config, TopicID: m.TopicID, CleanupPolicy: m.CleanupPolicy}
}

// inKafka reports whether state holds a topic that exists (as far as the
// last apply or read knows): a null ID is a topic still to be created.
func inKafka(id types.String) bool { return !id.IsNull() && !id.IsUnknown() }

func (r *fleetTopicsResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_action_state_topics" // diagnostics.FleetTopicsType
}

func (r *fleetTopicsResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
	r.data.clients, r.control.clients = r.clients, r.clients
}

// The details behind these descriptions are in
// templates/resources/action_state_topics.md.tmpl.
func (r *fleetTopicsResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	rf := schema.Int64Attribute{
		Optional: true, Computed: true,
		MarkdownDescription: "Replication factor. Absent, the broker's `default.replication.factor` on create, then the live one. Raised in place; lowering it is refused at plan time.",
		Validators:          []validator.Int64{int64validator.Between(1, 32767)},
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Every operator's action-state topic and control topic in one resource: each topic is planned, created, " +
			"updated and deleted exactly as `flinkagents_action_state_topic` and `flinkagents_cleanup_control_topic` do one, side by side, " +
			"so a fleet costs one Terraform object. Never replaces a topic.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "Always `" + fleetTopicsID + "`.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"deletion_protection": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(true),
				MarkdownDescription: "While true (the default), removing an entry or its `control_topic`, or destroying the resource, is refused " +
					"at plan time, naming the entry. Held in state.",
			},
			"operators": schema.MapNestedAttribute{
				Required:            true,
				MarkdownDescription: "The operators' topics, by a key of your choice (the operator's name).",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"action_state_topic": schema.SingleNestedAttribute{
						Required:            true,
						MarkdownDescription: "The operator's action-state topic, with the settings `flinkagents_action_state_topic` enforces.",
						Attributes: map[string]schema.Attribute{
							"name": schema.StringAttribute{
								Required: true, MarkdownDescription: "Topic name; the job's `kafkaActionStateTopic`. Cannot change.",
								Validators: []validator.String{tfconv.TopicName()},
							},
							"partitions": schema.Int64Attribute{
								Optional: true, Computed: true,
								MarkdownDescription: "Partition count. Absent, 64 on create and the live count of an imported topic. Cannot change.",
								Validators:          []validator.Int64{int64validator.Between(1, 100000)},
							},
							"replication_factor": rf,
							"config": schema.MapAttribute{
								Optional: true, ElementType: types.StringType,
								MarkdownDescription: "Extra topic settings, managed key by key. `cleanup.policy`, `retention.ms` and `retention.bytes` are enforced and refused here.",
								Validators:          []validator.Map{reservedKeysValidator{reserved: enforcedKeyReasons}},
							},
							"topic_id":        computed("Kafka's topic ID in its Java form."),
							"cleanup_policy":  computed("Live `cleanup.policy`; always planned as `compact,delete`."),
							"retention_ms":    computed("Live `retention.ms`; always planned as `-1`."),
							"retention_bytes": computed("Live `retention.bytes`; always planned as `-1`."),
						},
					},
					"control_topic": schema.SingleNestedAttribute{
						Optional: true,
						MarkdownDescription: "The operator's dedicated control topic (the job's `kafkaActionStateCleanupControlTopic`): one partition, " +
							"`cleanup.policy=compact`, as `flinkagents_cleanup_control_topic` keeps it.",
						Attributes: map[string]schema.Attribute{
							"name": schema.StringAttribute{
								Required: true, MarkdownDescription: "Topic name. Cannot change.",
								Validators: []validator.String{tfconv.TopicName()},
							},
							"replication_factor": rf,
							"config": schema.MapAttribute{
								Optional: true, ElementType: types.StringType,
								MarkdownDescription: "Extra topic settings (for example `min.insync.replicas`). Settings that add deletion or retention are refused.",
								Validators:          []validator.Map{reservedKeysValidator{reserved: controlReservedKeys}},
							},
							"topic_id":       computed("Kafka's topic ID in its Java form."),
							"cleanup_policy": computed("Live `cleanup.policy`; always planned as `compact`."),
						},
					},
				}},
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
	}
}

// fleetEntryType is the object type of one entry of operators, as the
// schema gives it.
var fleetEntryType = sync.OnceValue(func() attr.Type {
	var resp resource.SchemaResponse
	(&fleetTopicsResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	return resp.Schema.Attributes["operators"].GetType().(types.MapType).ElemType
})

// ValidateConfig refuses a topic named twice across the fleet, and a
// control topic named like its own action-state topic.
func (r *fleetTopicsResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m fleetTopicsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	entries := fleetEntriesOf(ctx, m.Operators, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	seen := map[string]string{}
	claim := func(name types.String, at path.Path, what string) {
		if name.IsNull() || name.IsUnknown() {
			return
		}
		if first, ok := seen[name.ValueString()]; ok {
			resp.Diagnostics.Append(diagnostics.FleetTopicNamedTwice(at, name.ValueString(), first, what))
			return
		}
		seen[name.ValueString()] = what
	}
	for _, key := range slices.Sorted(maps.Keys(entries)) {
		e := entries[key]
		claim(e.ActionStateTopic.Name, fleetEntryPath(key).AtName("action_state_topic").AtName("name"), fmt.Sprintf("operator %q's action-state topic", key))
		if e.ControlTopic != nil {
			claim(e.ControlTopic.Name, fleetEntryPath(key).AtName("control_topic").AtName("name"), fmt.Sprintf("operator %q's control topic", key))
		}
	}
}

// fleetEntryPath is the path of operators[key].
func fleetEntryPath(key string) path.Path { return path.Root("operators").AtMapKey(key) }

// fleetEntriesOf decodes operators; a null or unknown map holds none.
func fleetEntriesOf(ctx context.Context, m types.Map, diags *diag.Diagnostics) map[string]fleetEntry {
	if m.IsNull() || m.IsUnknown() {
		return map[string]fleetEntry{}
	}
	entries, d := tfconv.StructMap[fleetEntry](ctx, m)
	diags.Append(d...)
	return entries
}

// fleetEntriesValue encodes entries as operators.
func fleetEntriesValue(ctx context.Context, entries map[string]fleetEntry, diags *diag.Diagnostics) types.Map {
	v, d := tfconv.MapOfStructs(ctx, fleetEntryType(), entries)
	diags.Append(d...)
	return v
}

// entrySay returns what adds one topic's diagnostics to diags, each named
// after operator key and pointing at that topic's attribute (attr).
func entrySay(key string, diags *diag.Diagnostics) func(attr string, d diag.Diagnostics) {
	return func(attr string, d diag.Diagnostics) {
		for _, one := range d {
			diags.Append(diagnostics.ForFleetEntry(key, fleetEntryPath(key).AtName(attr), one))
		}
	}
}
