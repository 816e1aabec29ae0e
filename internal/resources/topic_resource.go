package resources

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/adoption"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/provider/providerdata"
)

// The two topic resources share one lifecycle, written here once: create
// with enforced settings, read back only managed keys, alter incrementally,
// refuse replacement and protected destroys, surface a topic recreated
// outside Terraform. A topicSpec holds what differs: the schema, the
// enforced settings, and the kind's own attributes.

var (
	_ resource.Resource                   = (*topicResource[actionStateTopicModel])(nil)
	_ resource.ResourceWithConfigure      = (*topicResource[actionStateTopicModel])(nil)
	_ resource.ResourceWithModifyPlan     = (*topicResource[actionStateTopicModel])(nil)
	_ resource.ResourceWithImportState    = (*topicResource[actionStateTopicModel])(nil)
	_ resource.ResourceWithValidateConfig = (*topicResource[actionStateTopicModel])(nil)
	_ resource.ResourceWithMoveState      = (*topicResource[actionStateTopicModel])(nil)
)

// topicCommon is the part of the model both topic resources share; each
// kind's model embeds it.
type topicCommon struct {
	ID                 types.String   `tfsdk:"id"`
	Name               types.String   `tfsdk:"name"`
	ReplicationFactor  types.Int64    `tfsdk:"replication_factor"`
	Config             types.Map      `tfsdk:"config"`
	DeletionProtection types.Bool     `tfsdk:"deletion_protection"`
	TopicID            types.String   `tfsdk:"topic_id"`
	CleanupPolicy      types.String   `tfsdk:"cleanup_policy"`
	Timeouts           timeouts.Value `tfsdk:"timeouts"`
}

// topicSpec is what one topic resource adds to the shared lifecycle.
type topicSpec[M any] struct {
	typeSuffix   string // appended to the provider's type name
	label        string // "action-state topic", for messages
	resourceType string // for messages and the import hint
	// enforced is set on create and on every update, whatever the config.
	enforced map[string]string
	// goneDetail says why a vanished topic matters (%q: name).
	goneDetail string
	schema     schema.Schema
	common     func(*M) *topicCommon
	// partitions is the partition count to create with.
	partitions func(*M) int32
	// validate checks the configuration beyond the schema (may be nil).
	validate func(*M, *diag.Diagnostics)
	// plan sets the kind's planned computed values and refuses changes it
	// cannot make; state is nil on create.
	plan func(plan, state *M, diags *diag.Diagnostics)
	// fill copies the kind's own live values into m, refusing a topic no
	// update can fix (op completes "While ...").
	fill func(m *M, t kafkaops.Topic, cfg map[string]kafkaops.ConfigValue, op string) diag.Diagnostics
	// onImport fills, on import, what the kind can learn beyond the name (may
	// be nil).
	onImport func(ctx context.Context, clients *providerdata.Clients, name string, resp *resource.ImportStateResponse)
	// refuseAdopting checks, before a plan or an update changes the
	// cleanup.policy of existing topic t, that it may (may be nil).
	refuseAdopting func(ctx context.Context, kafka *kafkaops.Client, t kafkaops.Topic, doing string) diag.Diagnostics
	// listKind is what the kind's list resource asks the survey for, and
	// listDescription documents that list resource.
	listKind        adoption.Kind
	listDescription string
	// listed fills, in a list result, what the kind learns beyond the
	// shared attributes, as onImport would.
	listed func(m *M, f adoption.Found)
	// adopt fills the kind's own attributes of a topic moved from another
	// provider's resource (topic_moved.go).
	adopt func(m *M, from movedTopic, diags *diag.Diagnostics)
}

type topicResource[M any] struct {
	spec    *topicSpec[M]
	clients *providerdata.Clients
	// createdBy is the resource type that creates the topic when not the
	// kind's own (the fleet), for the diagnostics that say how to adopt one.
	createdBy string
}

func (r *topicResource[M]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + r.spec.typeSuffix
}

func (r *topicResource[M]) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.spec.schema
}

func (r *topicResource[M]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.clients, resp.Diagnostics = providerdata.FromProviderData(req.ProviderData)
}

func (r *topicResource[M]) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	if r.spec.validate == nil {
		return // the schema's validators hold every rule of this kind
	}
	var m M
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if !resp.Diagnostics.HasError() {
		r.spec.validate(&m, &resp.Diagnostics)
	}
}

func (r *topicResource[M]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var state *M
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	}
	if req.Plan.Raw.IsNull() {
		if state != nil {
			r.refuseDestroyOrRename(&resp.Diagnostics, r.spec.common(state), nil)
		}
		return
	}
	var plan M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	live, _ := liveTopicID(ctx, req.Private, &resp.Diagnostics)
	r.planOne(ctx, &plan, state, live, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

func (r *topicResource[M]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	p := r.spec.common(&plan)
	kafka, diags := r.clients.KafkaClient(ctx, fmt.Sprintf("creating %s %q", r.spec.label, p.Name.ValueString()))
	timeout, d := p.Timeouts.Create(ctx, defaultTopicTimeout)
	diags.Append(d...)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	if resp.Diagnostics.Append(r.createOne(ctx, kafka, &plan, timeout)...); !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		setTopicIdentity(ctx, resp.Identity, p.Name, &resp.Diagnostics)
	}
}

func (r *topicResource[M]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	s := r.spec.common(&state)
	kafka, diags := r.clients.KafkaClient(ctx, fmt.Sprintf("reading %s %q", r.spec.label, s.Name.ValueString()))
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	gone, live, diags := r.readOne(ctx, kafka, &state)
	if resp.Diagnostics.Append(diags...); gone {
		resp.State.RemoveResource(ctx)
		// The framework wants an identity even with the state removed.
		setTopicIdentity(ctx, resp.Identity, s.Name, &resp.Diagnostics)
		return
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if live != "" {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateLiveTopicID, fmt.Appendf(nil, "%q", live))...)
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	setTopicIdentity(ctx, resp.Identity, s.Name, &resp.Diagnostics)
}

// Update runs updateOne: the identity check, then the writes.
func (r *topicResource[M]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	p := r.spec.common(&plan)
	kafka, diags := r.clients.KafkaClient(ctx, fmt.Sprintf("updating the settings of %s %q", r.spec.label, p.Name.ValueString()))
	timeout, d := p.Timeouts.Update(ctx, defaultTopicTimeout)
	diags.Append(d...)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	if resp.Diagnostics.Append(r.updateOne(ctx, kafka, &plan, &state, timeout)...); !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		setTopicIdentity(ctx, resp.Identity, p.Name, &resp.Diagnostics)
	}
}

// Delete deletes the topic unless protected, through deleteOne. ModifyPlan
// refuses a protected destroy already; this checks again because state
// can be destroyed by paths that skip our plan (a -target, a stale plan file).
func (r *topicResource[M]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	s := r.spec.common(&state)
	name := s.Name.ValueString()
	if s.DeletionProtection.ValueBool() {
		resp.Diagnostics.Append(diagnostics.DeletionProtectedAtDelete(r.spec.label, name))
		return
	}
	kafka, diags := r.clients.KafkaClient(ctx, fmt.Sprintf("deleting %s %q", r.spec.label, name))
	timeout, d := s.Timeouts.Delete(ctx, defaultTopicTimeout)
	diags.Append(d...)
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(r.deleteOne(ctx, kafka, &state, timeout)...)
}

// ImportState adopts a topic by name (the import ID, or the identity's
// name), protected until the operator says otherwise, managing no extra
// config keys; Read fills in the rest.
func (r *topicResource[M]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	name := importedName(ctx, req, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := kafkaops.CheckTopicName(name); err != nil {
		given, what := fmt.Sprintf("import ID %q", name), "the import ID"
		if req.ID == "" {
			given, what = fmt.Sprintf("identity name %q", name), "the identity's name"
		}
		resp.Diagnostics.Append(diagnostics.InvalidImportedTopicName(
			fmt.Sprintf("importing %s with %s", r.spec.label, given), what, err))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("deletion_protection"), true)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("config"), types.MapNull(types.StringType))...)
	setTopicIdentity(ctx, resp.Identity, types.StringValue(name), &resp.Diagnostics)
	if r.spec.onImport != nil && !resp.Diagnostics.HasError() {
		r.spec.onImport(ctx, r.clients, name, resp)
	}
}

// MoveState takes over a topic another provider managed, through a moved
// block (topic_moved.go).
func (r *topicResource[M]) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{moveFromMongeyTopic(r.spec)}
}

// refuseAdoptingAtPlan runs the kind's refuseAdopting on a plan that
// changes the live cleanup.policy of the topic in state. Without a usable
// provider configuration yet, Update checks at apply.
func (r *topicResource[M]) refuseAdoptingAtPlan(ctx context.Context, state *topicCommon, policy string, diags *diag.Diagnostics) {
	if r.spec.refuseAdopting == nil || r.clients == nil {
		return
	}
	name := state.Name.ValueString()
	doing := fmt.Sprintf("planning %s %q, whose cleanup.policy would change from %q to %q", r.spec.label, name, state.CleanupPolicy.ValueString(), policy)
	kafka, d := r.clients.KafkaClient(ctx, doing)
	if d.HasError() {
		return
	}
	t, err := kafka.DescribeTopic(ctx, name)
	switch {
	case errors.Is(err, kafkaops.ErrTopicNotFound):
		return // Read has removed it from state, or apply reports it
	case err != nil:
		diags.Append(r.clients.KafkaDiag(doing, err))
		return
	}
	diags.Append(r.spec.refuseAdopting(ctx, kafka, t, doing)...)
}

// readInto refreshes m from the live topic; gone reports a missing topic
// (with its error in diags).
func (r *topicResource[M]) readInto(ctx context.Context, kafka *kafkaops.Client, m *M, op string, diags *diag.Diagnostics) (gone bool) {
	c := r.spec.common(m)
	name := c.Name.ValueString()
	t, cfg, err := kafka.DescribeTopicWithConfigs(ctx, name) // both at once: one round trip
	if err != nil {
		diags.Append(r.clients.KafkaDiag(op, err))
		return errors.Is(err, kafkaops.ErrTopicNotFound)
	}
	rep, err := kafka.TopicReplication(ctx, t)
	if err != nil {
		diags.Append(r.clients.KafkaDiag(op, err))
		return false
	}
	t.ReplicationFactor = rep.Factor
	diags.Append(replicationWarnings(r.spec.label, name, rep)...)
	r.fillFrom(m, t, cfg, op, diags)
	return false
}

// timedOut reports whether ctx's own deadline (the timeouts block's) has
// passed, as opposed to one request's timeout or Terraform's cancellation.
func timedOut(ctx context.Context) bool {
	return errors.Is(ctx.Err(), context.DeadlineExceeded)
}

// stepDiag reports a failed step of a write bounded by the timeouts block's
// key: as that block's timeout when its deadline ended the step (outcome
// says what the step may have changed), else as the Kafka error it is.
func (r *topicResource[M]) stepDiag(ctx context.Context, key string, limit time.Duration, step, outcome string, err error) diag.Diagnostic {
	if timedOut(ctx) {
		return diagnostics.TopicStepTimedOut(r.spec.label, key, limit, step, outcome, err)
	}
	return r.clients.KafkaDiag(step, err)
}

// writtenSettings names the config changes an update sends, for a
// diagnostic that must say what may have reached another topic.
func writtenSettings(set map[string]string, remove []string) []string {
	out := make([]string, 0, len(set)+len(remove))
	for _, k := range slices.Sorted(maps.Keys(set)) {
		out = append(out, fmt.Sprintf("%s=%s", k, set[k]))
	}
	for _, k := range remove {
		out = append(out, k+" removed (back to the broker's default)")
	}
	return out
}

// replicationWarnings tells why state's replication_factor may be below
// what some partitions list: a reassignment under way, partitions that
// differ, replicas out of sync that could not be told apart.
func replicationWarnings(label, name string, rep kafkaops.Replication) diag.Diagnostics {
	var diags diag.Diagnostics
	switch {
	case len(rep.Reassigning) > 0:
		diags.Append(diagnostics.ReplicationInProgress(label, name, rep.Factor, rep.Reassigning))
	case len(rep.Unlisted) > 0:
		diags.Append(diagnostics.ReplicationUnlisted(label, name, rep.Factor, rep.Unlisted))
	case rep.Uneven():
		diags.Append(diagnostics.ReplicationUneven(label, name, rep.Factor, rep.Settled))
	}
	return diags
}

// fillFrom sets m's computed attributes from the live topic and configs.
func (r *topicResource[M]) fillFrom(m *M, t kafkaops.Topic, cfg map[string]kafkaops.ConfigValue, op string, diags *diag.Diagnostics) {
	c := r.spec.common(m)
	name := c.Name.ValueString()
	c.ID = types.StringValue(name)
	c.TopicID = types.StringValue(t.ID.String())
	c.ReplicationFactor = types.Int64Value(int64(t.ReplicationFactor))
	c.CleanupPolicy = types.StringValue(cfg[cleanup.ConfigCleanupPolicy].Value)
	c.Config = liveManagedConfig(c.Config, cfg)
	diags.Append(r.spec.fill(m, t, cfg, op)...)
}

// refuseDestroyOrRename stops a plan that destroys (planned == nil) or
// renames, which replaces, a protected topic.
func (r *topicResource[M]) refuseDestroyOrRename(diags *diag.Diagnostics, state *topicCommon, planned *types.String) {
	if !state.DeletionProtection.ValueBool() {
		return
	}
	if planned == nil || (!planned.IsUnknown() && planned.ValueString() != state.Name.ValueString()) {
		diags.Append(diagnostics.DeletionProtected(r.spec.label, state.Name.ValueString()))
	}
}

// refuseReplicationDecrease stops a plan that lowers the replication
// factor; raising it is an in-place update (partition reassignment).
func refuseReplicationDecrease(diags *diag.Diagnostics, topic string, old, planned types.Int64) {
	if planned.IsUnknown() || planned.IsNull() || old.IsNull() || planned.ValueInt64() >= old.ValueInt64() {
		return
	}
	diags.Append(diagnostics.ReplicationFactorDecrease(topic, old.ValueInt64(), planned.ValueInt64()))
}

// refuseReplicationAboveBrokers stops, at plan time, a create or raise that
// asks for more replicas than the cluster has live brokers, which Kafka
// would refuse only at apply. Without a usable provider configuration yet
// (values known only after apply) apply's own refusal stands.
func (r *topicResource[M]) refuseReplicationAboveBrokers(ctx context.Context, topic string, had, planned types.Int64, diags *diag.Diagnostics) {
	if r.clients == nil || planned.IsNull() || planned.IsUnknown() || (!had.IsNull() && !had.IsUnknown() && planned.ValueInt64() <= had.ValueInt64()) {
		return
	}
	op := fmt.Sprintf("planning %s %q", r.spec.label, topic)
	kafka, d := r.clients.KafkaClient(ctx, op)
	if d.HasError() {
		return
	}
	brokers, err := kafka.LiveBrokers(ctx)
	if err != nil {
		diags.Append(r.clients.KafkaDiag(op, err))
		return
	}
	if planned.ValueInt64() > int64(len(brokers)) {
		diags.Append(diagnostics.ReplicationFactorAboveBrokers(r.spec.label, topic, planned.ValueInt64(), brokers))
	}
}

// defaultTopicTimeout bounds a create, an update and a delete; long because
// raising the replication factor copies every partition to new brokers.
const defaultTopicTimeout = 30 * time.Minute

// replicationFactorAttribute is replication_factor for both topic kinds:
// optional (the broker's default), raised in place, never lowered.
func replicationFactorAttribute(description string) schema.Int64Attribute {
	return schema.Int64Attribute{
		Optional: true, Computed: true,
		MarkdownDescription: description + "Raised in place (partitions reassigned, every record kept; apply waits for the new " +
			"replicas within `timeouts.update`); lowering it is refused at plan time.",
		Validators:    []validator.Int64{int64validator.Between(1, 32767)},
		PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
	}
}

// nullTopicTimeouts is the timeouts block of a topic that came into state
// without a configuration (moved from another provider).
func nullTopicTimeouts() timeouts.Value {
	return timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{"create": types.StringType, "update": types.StringType, "delete": types.StringType})}
}

// topicTimeoutsBlock bounds each write of a topic resource as a whole.
func topicTimeoutsBlock() schema.Block {
	b := timeouts.Block(context.Background(), timeouts.Opts{
		Create: true, Update: true, Delete: true,
		CreateDescription: "Bounds creating the topic (default `30m`). A duration such as `\"90s\"` or `\"2h\"`.",
		UpdateDescription: "Bounds the whole update (default `30m`): the topic ID check, the settings change and a replication-factor raise with its wait for in-sync replicas.",
		DeleteDescription: "Bounds the whole delete (default `30m`): the topic ID check, the deletion and the wait until Kafka no longer lists the topic.",
	}).(schema.SingleNestedBlock)
	b.MarkdownDescription = "How long each write may take in all; every Kafka request within it is also bounded by the provider's `timeout`."
	return b
}

// refuseTopicShapeChange stops a plan that would change a topic's
// partition count or replication factor: never a replacement, which would
// lose every action's state.
func refuseTopicShapeChange(diags *diag.Diagnostics, attr, topic string, old, planned types.Int64) {
	if planned.IsUnknown() || old.IsNull() || old.ValueInt64() == planned.ValueInt64() {
		return
	}
	diags.Append(diagnostics.TopicShapeChange(attr, topic, old.ValueInt64(), planned.ValueInt64()))
}

// privateGetter is the read side of a request's private state.
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// privateLiveTopicID is the private-state key under which Read leaves the
// live topic ID of a topic recreated outside Terraform, for ModifyPlan.
const privateLiveTopicID = "live_topic_id"

// liveTopicID returns the ID Read found on a topic recreated outside
// Terraform, if it found one.
func liveTopicID(ctx context.Context, private privateGetter, diags *diag.Diagnostics) (string, bool) {
	raw, d := private.GetKey(ctx, privateLiveTopicID)
	diags.Append(d...)
	if len(raw) == 0 {
		return "", false
	}
	var id string
	if err := json.Unmarshal(raw, &id); err != nil || id == "" {
		return "", false
	}
	return id, true
}
