package resources

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/adoption"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// NewActionStateTopic is the flinkagents_action_state_topic resource. Its
// lifecycle is the shared topic lifecycle (topic_resource.go); this file
// holds its schema and what differs: partitions, and the three settings
// cleanup depends on.
func NewActionStateTopic() resource.Resource {
	return &topicResource[actionStateTopicModel]{spec: &actionStateTopicSpec}
}

type actionStateTopicModel struct {
	topicCommon
	Partitions     types.Int64  `tfsdk:"partitions"`
	RetentionMs    types.String `tfsdk:"retention_ms"`
	RetentionBytes types.String `tfsdk:"retention_bytes"`
}

var actionStateTopicSpec = topicSpec[actionStateTopicModel]{
	typeSuffix:   "_action_state_topic",
	label:        "action-state topic",
	resourceType: "flinkagents_action_state_topic",
	enforced:     cleanup.DataTopicSettings,
	goneDetail: "Topic %q no longer exists in Kafka, so Terraform will plan to create it again. " +
		"A new topic has a new topic ID: recorded cleanup boundaries and checkpoints of the old topic do not apply to it.",
	schema:     actionStateTopicSchema(),
	common:     func(m *actionStateTopicModel) *topicCommon { return &m.topicCommon },
	partitions: func(m *actionStateTopicModel) int32 { return int32(m.Partitions.ValueInt64()) },
	plan: func(plan, state *actionStateTopicModel, diags *diag.Diagnostics) {
		if state != nil {
			refuseTopicShapeChange(diags, "partitions", state.Name.ValueString(), state.Partitions, plan.Partitions)
		}
		// Always planned at their required values: live drift then shows
		// as an in-place update that restores them.
		plan.RetentionMs = types.StringValue(cleanup.DataTopicSettings[cleanup.ConfigRetentionMs])
		plan.RetentionBytes = types.StringValue(cleanup.DataTopicSettings[cleanup.ConfigRetentionBytes])
	},
	fill: func(m *actionStateTopicModel, t kafkaops.Topic, cfg map[string]kafkaops.ConfigValue, _ string) diag.Diagnostics {
		m.Partitions = types.Int64Value(int64(len(t.Partitions)))
		m.RetentionMs = types.StringValue(cfg[cleanup.ConfigRetentionMs].Value)
		m.RetentionBytes = types.StringValue(cfg[cleanup.ConfigRetentionBytes].Value)
		return nil
	},
	adopt:          adoptActionStateTopic,
	onImport:       importActionStateTopic,
	refuseAdopting: refuseControlTopic,
	listKind:       adoption.ActionStateTopics,
	listDescription: "Lists the cluster's action-state topics for `terraform query`: every topic that passes the filters and holds no " +
		"cleanup control records (Kafka's internal topics never). Without filters that is every other topic of the cluster: give " +
		"`name_prefix` or `name_regex`. A one-partition topic is read for control records (its first MiB and its last 1,000 offsets); " +
		"one that cannot be read (no READ ACL, its partition offline) is listed as neither kind, with a warning naming it and why.",
	listed: func(*actionStateTopicModel, adoption.Found) {}, // nothing beyond the shared attributes and fill
}

// enforcedKeyReasons explains, in the validation error, why each enforced
// setting cannot be configured.
var enforcedKeyReasons = map[string]string{
	cleanup.ConfigCleanupPolicy:  "the resource enforces cleanup.policy=compact,delete (compaction keeps each action's latest state; delete lets checkpoint-aligned cleanup remove old records).",
	cleanup.ConfigRetentionMs:    "the resource enforces retention.ms=-1: time-based retention would delete action state a restore still needs.",
	cleanup.ConfigRetentionBytes: "the resource enforces retention.bytes=-1: size-based retention would delete action state a restore still needs.",
}

func actionStateTopicSchema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "The Kafka topic where a Flink Agents operator stores each action's progress. Enforces the settings " +
			"cleanup depends on (`cleanup.policy=compact,delete`, `retention.ms=-1`, `retention.bytes=-1`). Never replaced: " +
			"a partition change is refused at plan time.",
		Blocks: map[string]schema.Block{"timeouts": topicTimeoutsBlock()},
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The topic name.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Topic name; the job's `kafkaActionStateTopic`.",
				Validators:          []validator.String{tfconv.TopicName()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"partitions": schema.Int64Attribute{
				Optional: true, Computed: true,
				PlanModifiers:       []planmodifier.Int64{defaultOnCreate(64)},
				MarkdownDescription: "Partition count. Absent, 64 (the runtime's `kafkaActionStateTopicNumPartitions` default) on create, and the live count of an imported topic. Cannot change.",
				Validators:          []validator.Int64{int64validator.Between(1, 100000)},
			},
			"replication_factor": replicationFactorAttribute("Replication factor. Absent, the broker's `default.replication.factor`. "),
			"config": schema.MapAttribute{
				Optional:            true,
				ElementType:         types.StringType,
				MarkdownDescription: "Extra topic settings, managed key by key. `cleanup.policy`, `retention.ms` and `retention.bytes` are enforced and refused here. Keys not listed are left as they are.",
				Validators:          []validator.Map{reservedKeysValidator{reserved: enforcedKeyReasons}},
			},
			"deletion_protection": schema.BoolAttribute{
				Optional: true, Computed: true,
				Default:             booldefault.StaticBool(true),
				MarkdownDescription: "While true (the default), destroying or replacing this topic is refused at plan time. Held in state, so it also protects a topic whose block was removed: set it to false and apply before removing the block.",
			},
			"topic_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "Kafka's topic ID in its Java form (22 characters, URL-safe base64), as recovery markers and plans record it.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"cleanup_policy":  schema.StringAttribute{Computed: true, MarkdownDescription: "Live `cleanup.policy`; always planned as `compact,delete`."},
			"retention_ms":    schema.StringAttribute{Computed: true, MarkdownDescription: "Live `retention.ms`; always planned as `-1`."},
			"retention_bytes": schema.StringAttribute{Computed: true, MarkdownDescription: "Live `retention.bytes`; always planned as `-1`."},
		},
	}
}
