package resources

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// Taking over a topic the Mongey/kafka provider managed, with
//
//	moved {
//	  from = kafka_topic.orders
//	  to   = flinkagents_action_state_topic.orders
//	}
//
// Terraform 1.8 and later hand the kafka_topic state to the target's
// MoveState; nothing happens to the topic itself. The moved state is what
// Mongey recorded, minus the settings the target enforces: the refresh and
// plan that follow show every difference from the configuration (enforced
// settings, dropped keys) as an in-place update, never a replacement.

// mongeyTopicSchema is the Mongey provider's kafka_topic schema, version 0
// (its only one): id is the topic name, config its managed settings.
var mongeyTopicSchema = schema.Schema{Attributes: map[string]schema.Attribute{
	"id":                 schema.StringAttribute{Computed: true},
	"name":               schema.StringAttribute{Required: true},
	"partitions":         schema.Int64Attribute{Required: true},
	"replication_factor": schema.Int64Attribute{Required: true},
	"config":             schema.MapAttribute{Optional: true, ElementType: types.StringType},
}}

type mongeyTopicModel struct {
	ID                types.String `tfsdk:"id"`
	Name              types.String `tfsdk:"name"`
	Partitions        types.Int64  `tfsdk:"partitions"`
	ReplicationFactor types.Int64  `tfsdk:"replication_factor"`
	Config            types.Map    `tfsdk:"config"`
}

// mongeyProvider is the source provider's namespace and type; the host
// (registry.terraform.io, registry.opentofu.org, a mirror) is not checked.
const mongeyProvider = "mongey/kafka"

// movedTopic is what a kind's adopt hook gets of the source topic.
type movedTopic struct {
	resourceType string // the target, for messages
	name         string
	partitions   int64
	config       map[string]string // as the source managed it, reserved keys included
}

// moveFromMongeyTopic moves a kafka_topic into the resource of spec.
func moveFromMongeyTopic[M any](spec *topicSpec[M]) resource.StateMover {
	return resource.StateMover{
		SourceSchema: &mongeyTopicSchema,
		StateMover: func(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
			addr := strings.ToLower(req.SourceProviderAddress)
			if req.SourceTypeName != "kafka_topic" || !strings.HasSuffix(addr, "/"+mongeyProvider) {
				return // not ours: the framework then reports that no mover takes this source
			}
			if req.SourceSchemaVersion != 0 || req.SourceState == nil {
				resp.Diagnostics.Append(diagnostics.MovedTopicUnreadable(req.SourceProviderAddress, req.SourceSchemaVersion, spec.resourceType))
				return
			}
			var src mongeyTopicModel
			if resp.Diagnostics.Append(req.SourceState.Get(ctx, &src)...); resp.Diagnostics.HasError() {
				return
			}
			name := src.Name.ValueString()
			if name == "" {
				name = src.ID.ValueString()
			}
			if strings.TrimSpace(name) == "" {
				resp.Diagnostics.Append(diagnostics.MovedTopicNameMissing(req.SourceProviderAddress, spec.resourceType))
				return
			}
			if err := kafkaops.CheckTopicName(name); err != nil {
				resp.Diagnostics.Append(diagnostics.MovedTopicNameInvalid(req.SourceProviderAddress, spec.resourceType, err))
				return
			}
			var m M
			c := spec.common(&m)
			c.ID, c.Name = types.StringValue(name), types.StringValue(name)
			// Mongey accepts -1 (the broker's default); Read fills in the live factor.
			c.ReplicationFactor = types.Int64Null()
			if rf := src.ReplicationFactor.ValueInt64(); rf >= 1 {
				c.ReplicationFactor = types.Int64Value(rf)
			}
			c.DeletionProtection = types.BoolValue(true) // as after an import: protected until the operator says otherwise
			c.TopicID, c.CleanupPolicy = types.StringNull(), types.StringNull()
			c.Timeouts = nullTopicTimeouts()
			from := movedTopic{resourceType: spec.resourceType, name: name, partitions: src.Partitions.ValueInt64(), config: map[string]string{}}
			if resp.Diagnostics.Append(src.Config.ElementsAs(ctx, &from.config, false)...); resp.Diagnostics.HasError() {
				return
			}
			spec.adopt(&m, from, &resp.Diagnostics)
			if !resp.Diagnostics.HasError() {
				resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
			}
		},
	}
}

// managedConfig is the source's settings the target may manage: without
// the keys it reserves (key -> why), which it sets itself. Dropping them is
// reported, since the next apply changes them on the topic.
func (from movedTopic) managedConfig(reserved map[string]string, diags *diag.Diagnostics) types.Map {
	if len(from.config) == 0 {
		return types.MapNull(types.StringType) // nothing managed, as after an import
	}
	kept := map[string]string{}
	var dropped []string
	for _, k := range slices.Sorted(maps.Keys(from.config)) {
		if why, ok := reserved[strings.TrimSpace(k)]; ok {
			dropped = append(dropped, fmt.Sprintf("%s=%s (%s)", k, from.config[k], why))
			continue
		}
		kept[k] = from.config[k]
	}
	if len(dropped) > 0 {
		diags.Append(diagnostics.MovedTopicSettingsDropped(from.resourceType, from.name, dropped))
	}
	m, d := types.MapValueFrom(context.Background(), types.StringType, kept)
	diags.Append(d...)
	return m
}

// adoptActionStateTopic: the partition count is the topic's; retention and
// cleanup policy are enforced, so they leave config.
func adoptActionStateTopic(m *actionStateTopicModel, from movedTopic, diags *diag.Diagnostics) {
	m.Partitions = types.Int64Value(from.partitions)
	m.RetentionMs, m.RetentionBytes = types.StringNull(), types.StringNull()
	m.Config = from.managedConfig(enforcedKeyReasons, diags)
}

// adoptControlTopic: a control topic has one partition; a topic with more
// cannot become one by a move.
func adoptControlTopic(m *controlTopicModel, from movedTopic, diags *diag.Diagnostics) {
	if from.partitions != 1 {
		diags.Append(diagnostics.ControlTopicHasSeveralPartitions(
			fmt.Sprintf("moving topic %q into %s", from.name, from.resourceType), int(from.partitions)))
		return
	}
	m.ActionStateTopic = types.StringNull()
	m.Config = from.managedConfig(controlReservedKeys, diags)
}
