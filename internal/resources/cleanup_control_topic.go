package resources

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/adoption"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// NewCleanupControlTopic is the flinkagents_cleanup_control_topic
// resource. Its lifecycle is the shared topic lifecycle
// (topic_resource.go); this file holds its schema and what differs: one
// partition, compaction only, and the pairing with its action-state topic.
func NewCleanupControlTopic() resource.Resource {
	return &topicResource[controlTopicModel]{spec: &controlTopicSpec}
}

type controlTopicModel struct {
	topicCommon
	ActionStateTopic types.String `tfsdk:"action_state_topic"`
}

const controlPolicy = cleanup.ControlTopicPolicy

var controlTopicSpec = topicSpec[controlTopicModel]{
	typeSuffix:   "_cleanup_control_topic",
	label:        "cleanup control topic",
	resourceType: "flinkagents_cleanup_control_topic",
	enforced:     map[string]string{cleanup.ConfigCleanupPolicy: controlPolicy},
	goneDetail: "Topic %q no longer exists, so Terraform will plan to create it again. Its recorded boundaries are lost: " +
		"a job configured with this control topic refuses to restore until a boundary is recorded again.",
	schema:     controlTopicSchema(),
	common:     func(m *controlTopicModel) *topicCommon { return &m.topicCommon },
	partitions: func(*controlTopicModel) int32 { return 1 },
	validate:   validateControlTopic,
	plan:       func(*controlTopicModel, *controlTopicModel, *diag.Diagnostics) {}, // nothing beyond the shared attributes
	fill:       fillControlTopic,
	onImport:   importControlTopic,
	adopt:      adoptControlTopic,
	listKind:   adoption.ControlTopics,
	listDescription: "Lists the cluster's cleanup control topics for `terraform query`: one-partition topics holding a control " +
		"record anywhere in them (read whole when small; of a large one, its first MiB and last 1,000 offsets) and, with a filter, " +
		"empty one-partition topics that pass it. A one-partition topic holding other records only is never listed; one that cannot be " +
		"read (no READ ACL, its partition offline) is listed as neither kind, with a warning naming it and why. `action_state_topic` " +
		"is learned from the first plan found.",
	listed: func(m *controlTopicModel, f adoption.Found) {
		m.ActionStateTopic = types.StringNull()
		if f.Serves != "" {
			m.ActionStateTopic = types.StringValue(f.Serves)
		}
	},
}

// importControlTopic learns, on import, which action-state topic the
// control topic serves from the newest plan recorded in it, so the plan
// right after the import is empty whether or not the configuration names
// the pairing. A read that fails on Kafka's side fails the import instead
// of leaving the pairing unset (a plan that would change only on some
// runs); a history that cannot be trusted, or that the principal may not
// read, leaves it unset, with a warning.
func importControlTopic(ctx context.Context, clients *providerdata.Clients, name string, resp *resource.ImportStateResponse) {
	op := fmt.Sprintf("importing cleanup control topic %q, reading its recorded plans to learn action_state_topic", name)
	kafka, diags := clients.KafkaClient(ctx, op)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	log, err := cleanup.History(ctx, kafka, name)
	switch {
	case errors.Is(err, kafkaops.ErrTopicNotFound):
		// Also what a broker that has not caught up with a new topic says:
		// going on would import with the pairing unlearned on this run only.
		resp.Diagnostics.Append(diagnostics.ImportedTopicNotFound("cleanup control topic", name, err))
		return
	case errors.Is(err, cleanup.ErrControlTopicMisconfigured):
		return // several partitions or drifted settings: Read and the plan report them
	case unreadableHistory(err):
		resp.Diagnostics.Append(diagnostics.ControlTopicPairingNotLearned(name, err))
		return
	case err != nil:
		resp.Diagnostics.Append(clients.CleanupDiag(op, err))
		return
	}
	if latest, ok := log.Latest(); ok {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("action_state_topic"), latest.Plan.Topic)...)
	}
}

// unreadableHistory reports an error that reading again would repeat: what
// the control log holds, or a permission the principal lacks.
func unreadableHistory(err error) bool {
	if _, ok := errors.AsType[*kafkaops.ControlRecordError](err); ok {
		return true
	}
	for _, content := range []error{cleanupplan.ErrTombstone, cleanupplan.ErrCorruptControlLog, cleanupplan.ErrForeignPlan, cleanupplan.ErrIncomparablePlans, cleanup.ErrNotAuthorized} {
		if errors.Is(err, content) {
			return true
		}
	}
	return false
}

// controlReservedKeys: anything that could let the broker delete a
// recorded boundary.
var controlReservedKeys = map[string]string{
	cleanup.ConfigCleanupPolicy:  "a control topic must keep cleanup.policy=compact exactly; \"delete\" would let retention remove recorded boundaries.",
	cleanup.ConfigRetentionMs:    "retention settings could delete recorded boundaries; the control topic is compacted only.",
	cleanup.ConfigRetentionBytes: "retention settings could delete recorded boundaries; the control topic is compacted only.",
	"local.retention.ms":         "retention settings could delete recorded boundaries; the control topic is compacted only.",
	"local.retention.bytes":      "retention settings could delete recorded boundaries; the control topic is compacted only.",
}

func controlTopicSchema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "The dedicated control topic where cleanup boundaries are recorded (the job's `kafkaActionStateCleanupControlTopic`). " +
			"Always exactly one partition and `cleanup.policy=compact`, so that every reader sees one order of boundaries and no retention can remove one.",
		Blocks: map[string]schema.Block{"timeouts": topicTimeoutsBlock()},
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "The topic name.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required: true, MarkdownDescription: "Topic name.",
				Validators:    []validator.String{tfconv.TopicName()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"replication_factor": replicationFactorAttribute("Replication factor. Absent, the broker's `default.replication.factor`; " +
				"use 3 in production. "),
			"config": schema.MapAttribute{
				Optional: true, ElementType: types.StringType,
				MarkdownDescription: "Extra topic settings (for example `min.insync.replicas`). Settings that add deletion or retention are refused.",
				Validators:          []validator.Map{reservedKeysValidator{reserved: controlReservedKeys}},
			},
			"deletion_protection": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(true),
				MarkdownDescription: "While true (the default), destroying or replacing this topic is refused at plan time: it holds the permanent record of cleanup boundaries.",
			},
			"action_state_topic": schema.StringAttribute{
				Optional: true, Computed: true,
				PlanModifiers:       []planmodifier.String{keepStateWhenUnconfigured{}},
				MarkdownDescription: "The action-state topic this control topic serves; must differ from `name`, which catches swapped names. Absent, kept as learned on import from the newest recorded plan.",
				Validators:          []validator.String{tfconv.TopicName()},
			},
			"topic_id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "Kafka's topic ID in its Java form.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"cleanup_policy": schema.StringAttribute{Computed: true, MarkdownDescription: "Live `cleanup.policy`; always planned as `compact`."},
		},
	}
}

// validateControlTopic catches a control topic named like its action-state
// topic: swapped names would compact action state away.
func validateControlTopic(m *controlTopicModel, diags *diag.Diagnostics) {
	if m.Name.IsUnknown() || m.ActionStateTopic.IsUnknown() || m.ActionStateTopic.IsNull() {
		return
	}
	if m.Name.ValueString() == m.ActionStateTopic.ValueString() {
		diags.Append(diagnostics.ControlTopicNotDedicated(path.Root("action_state_topic"), m.Name.ValueString()))
	}
}

// fillControlTopic refuses a control topic with more than one partition:
// no update can fix it, and boundaries in it have no single order.
func fillControlTopic(_ *controlTopicModel, t kafkaops.Topic, _ map[string]kafkaops.ConfigValue, op string) diag.Diagnostics {
	if len(t.Partitions) == 1 {
		return nil
	}
	return diag.Diagnostics{diagnostics.ControlTopicHasSeveralPartitions(op, len(t.Partitions))}
}
