//go:build realkafka

package realkafka

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/permissions"
)

// TestSecurityRequiredPermissions shows that the ACLs
// data.flinkagents_required_permissions renders are enough and each one is
// needed. The limited user (Terraform's principal) and a SCRAM user made
// here (the job's) get exactly the rendered ACLs for a new topic pair and
// nothing else. Terraform then runs the whole lifecycle as the limited
// user: both topics created, their settings changed, a boundary applied,
// refreshed and planned, all three resources imported. The job's requests
// (what the runtime sends on restore and while running) succeed as the
// job's user. Then each ACL is removed in turn: exactly the operations that
// need it fail, none writes anything (no new record in the control topic,
// no start offset moved), and the diagnostics name the missing permission.
// The removals run through the core, not Terraform, to keep the test short.
func TestSecurityRequiredPermissions(t *testing.T) {
	began := time.Now()
	env := loadEnv(t, "single")
	cl, adm, superOps := env.superClient(t)
	ctx := context.Background()
	const parts = 3

	jobUser, jobPassword := uniqueName("flinkagents-job"), "job-secret-"+uniqueName("p")
	if res, err := adm.AlterUserSCRAMs(ctx, nil, []kadm.UpsertSCRAM{{User: jobUser, Mechanism: kadm.ScramSha512, Iterations: 4096, Password: jobPassword}}); err != nil || res.AllFailed() {
		t.Fatalf("creating the job's SCRAM user: %v %v", err, res)
	}
	tf := newPrincipal(t, env, env.get(t, "KAFKA_LIMITED_USER"), env.get(t, "KAFKA_LIMITED_PASSWORD"))
	job := newPrincipal(t, env, jobUser, jobPassword)

	data, control := uniqueName("perms-action-state"), uniqueName("perms-control")
	in := permissions.Input{ActionStateTopic: data, ControlTopic: control, TerraformPrincipal: tf.name, JobPrincipal: job.name}
	acls, err := permissions.Render(in)
	if err != nil {
		t.Fatal(err)
	}
	// The transactional ID's ACL last: brokers apply ACL changes in the
	// order the controller logged them, and only it can be checked before
	// the topics exist.
	txn := slices.IndexFunc(acls, func(a permissions.ACL) bool { return a.ResourceType == permissions.TransactionalID })
	for _, a := range append(slices.Delete(slices.Clone(acls), txn, txn+1), acls[txn]) {
		grant(t, adm, a)
	}
	waitGranted(t, acls[txn], tf, true)
	t.Cleanup(func() {
		for _, a := range acls {
			if _, err := adm.DeleteACLs(context.Background(), aclBuilder(a)); err != nil {
				t.Errorf("revoking %s: %v", describeACL(a), err)
			}
		}
	})

	// The lifecycle, through Terraform, as Terraform's principal.
	var plan cleanupplan.Plan
	lifecycle := terraformLifecycle(t, env, tf, in, acls, &plan, func() {
		produce(t, cl, data, parts, 20)
		topic, err := superOps.DescribeTopic(ctx, data)
		if err != nil {
			t.Fatal(err)
		}
		offs := cleanupplan.Offsets{}
		for p := range int32(parts) {
			offs[p] = 5
		}
		if plan, err = cleanupplan.New("file:/checkpoints/perms/chk-5", data, topic.ID.String(), offs); err != nil {
			t.Fatal(err)
		}
		t.Setenv("TF_VAR_plan_json", string(plan.File()))
	})
	resource.Test(t, lifecycle)
	t.Logf("Terraform lifecycle done after %s", time.Since(began).Round(time.Millisecond))
	if t.Failed() {
		return
	}

	// The job's requests, as the job's principal.
	jobOps := jobOperations(data, control, job)
	for _, o := range jobOps {
		if err := o.run(ctx); err != nil {
			t.Fatalf("with every rendered ACL, the job's %s failed: %v", o.name, err)
		}
	}

	// Each ACL removed in turn, and what must then fail.
	tfOps := terraformOperations(data, control, tf, superOps)
	acl := func(p *principal, r permissions.Resource, op permissions.Operation) string {
		return permissions.ACL{Principal: p.name, ResourceType: r.Type(), ResourceName: in.Name(r), Operation: op}.Key()
	}
	cases := map[string][]string{
		acl(tf, permissions.ActionStateTopic, permissions.Create):       {"create action-state topic"},
		acl(tf, permissions.ActionStateTopic, permissions.Delete):       {"refresh action-state topic", "refresh boundary", "apply boundary"},
		acl(tf, permissions.ActionStateTopic, permissions.AlterConfigs): {"refresh action-state topic", "alter action-state topic", "apply boundary"},
		acl(tf, permissions.ControlTopic, permissions.Create):           {"create control topic"},
		acl(tf, permissions.ControlTopic, permissions.Read):             {"refresh boundary", "apply boundary"},
		acl(tf, permissions.ControlTopic, permissions.Write):            {"apply boundary"},
		acl(tf, permissions.ControlTopic, permissions.AlterConfigs):     {"refresh control topic", "alter control topic", "refresh boundary", "apply boundary"},
		acl(tf, permissions.CleanupTransactionalID, permissions.Write):  {"apply boundary"},
		acl(job, permissions.ActionStateTopic, permissions.Read):        {"replay action state"},
		acl(job, permissions.ActionStateTopic, permissions.Write):       {"write action state"},
		acl(job, permissions.ControlTopic, permissions.Read):            {"read recorded boundaries"},
		acl(job, permissions.ControlTopic, permissions.DescribeConfigs): {"read recorded boundaries"},
	}
	nextOffset := int64(5)
	for _, a := range acls {
		t.Run("without "+describeACL(a), func(t *testing.T) {
			want, ok := cases[a.Key()]
			if !ok {
				t.Fatal("no removal case says what this ACL is needed for")
			}
			p := principalOf(a, tf, job)
			ops := jobOps
			if p == tf {
				ops = tfOps
			}
			revoke(t, adm, a)
			waitGranted(t, a, p, false)
			defer func() { grant(t, adm, a); waitGranted(t, a, p, true) }()

			before := snapshot(t, superOps, data, control)
			nextOffset++
			var failed []string
			for _, o := range ops {
				err := o.run(context.WithValue(ctx, nextOffsetKey{}, nextOffset))
				if err == nil {
					continue
				}
				failed = append(failed, o.name)
				if !refusedFor(err) {
					t.Errorf("%s failed, but not for lack of a permission: %v", o.name, err)
				}
				if o.diagnose == nil {
					t.Logf("%s refused: %v", o.name, err)
					continue
				}
				d := o.diagnose(err)
				assertNamesPermission(t, o.name, d, a)
				t.Logf("%s refused: %s: %s", o.name, d.Summary(), d.Detail())
			}
			if !slices.Equal(failed, want) {
				t.Errorf("failed: %q, want exactly %q", failed, want)
			}
			if slices.Contains(want, "apply boundary") {
				if after := snapshot(t, superOps, data, control); !maps.Equal(after, before) {
					t.Errorf("the refused apply changed the topics: before %v, after %v", before, after)
				}
			}
		})
	}
	t.Logf("took %s in all", time.Since(began).Round(time.Millisecond))
}

// principal is one SCRAM user, with the clients its requests go through.
type principal struct {
	name string // User:<user>
	ops  *kafkaops.Client
	opts []kgo.Opt
	adm  *kadm.Client
}

func newPrincipal(t *testing.T, env brokerEnv, user, password string) *principal {
	t.Helper()
	ca, err := os.ReadFile(env.get(t, "KAFKA_CA_PEM"))
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		t.Fatal("KAFKA_CA_PEM holds no certificate")
	}
	tc := &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	mech := scram.Auth{User: user, Pass: password}.AsSha512Mechanism()
	brokers := []string{env.get(t, "KAFKA_BOOTSTRAP_SASL_SSL")}
	ops, err := kafkaops.New(kafkaops.Config{Brokers: brokers, Timeout: 10 * time.Second, TLS: tc, SASL: mech})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ops.Close)
	opts := []kgo.Opt{kgo.SeedBrokers(brokers...), kgo.DialTLSConfig(tc), kgo.SASL(mech), kgo.RetryTimeout(10 * time.Second)}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return &principal{name: "User:" + user, ops: ops, opts: opts, adm: kadm.NewClient(cl)}
}

// describeACL names a for test names and messages.
func describeACL(a permissions.ACL) string {
	return fmt.Sprintf("%s on %s %q for %s", a.Operation, a.ResourceType.Noun(), a.ResourceName, a.Principal)
}

func principalOf(a permissions.ACL, tf, job *principal) *principal {
	if a.Principal == tf.name {
		return tf
	}
	return job
}

// aclBuilder is a, for creating it or as the exact filter deleting it.
func aclBuilder(a permissions.ACL) *kadm.ACLBuilder {
	op, err := kmsg.ParseACLOperation(string(a.Operation))
	if err != nil {
		panic(err)
	}
	b := kadm.NewACLs().Allow(a.Principal).AllowHosts(a.Host).ResourcePatternType(kadm.ACLPatternLiteral).Operations(op)
	if a.ResourceType == permissions.TransactionalID {
		return b.TransactionalIDs(a.ResourceName)
	}
	return b.Topics(a.ResourceName)
}

func grant(t *testing.T, adm *kadm.Client, a permissions.ACL) {
	t.Helper()
	res, err := adm.CreateACLs(context.Background(), aclBuilder(a))
	if err == nil && (len(res) != 1 || res[0].Err != nil) {
		err = fmt.Errorf("%+v", res)
	}
	if err != nil {
		t.Fatalf("granting %s: %v", describeACL(a), err)
	}
}

func revoke(t *testing.T, adm *kadm.Client, a permissions.ACL) {
	t.Helper()
	res, err := adm.DeleteACLs(context.Background(), aclBuilder(a))
	if err == nil && (len(res) != 1 || res[0].Err != nil || len(res[0].Deleted) != 1) {
		err = fmt.Errorf("%+v", res)
	}
	if err != nil {
		t.Fatalf("revoking %s: %v", describeACL(a), err)
	}
}

// waitGranted waits until the broker's authorizer, asked as p, agrees
// that a is in force (or gone): the controller acknowledges an ACL change
// before the broker applies it.
func waitGranted(t *testing.T, a permissions.ACL, p *principal, want bool) {
	t.Helper()
	ctx := context.Background()
	op, err := kmsg.ParseACLOperation(string(a.Operation))
	if err != nil {
		t.Fatal(err)
	}
	granted := func() bool {
		if a.ResourceType == permissions.TransactionalID {
			// The coordinator lookup needs DESCRIBE, which WRITE includes.
			described, err := p.adm.DescribeTransactions(ctx, a.ResourceName)
			if err == nil {
				var d kadm.DescribedTransaction
				if d, err = described.On(a.ResourceName, nil); err == nil {
					err = d.Err
				}
			}
			return err == nil || !strings.Contains(err.Error(), "TRANSACTIONAL_ID_AUTHORIZATION_FAILED")
		}
		topic, err := p.ops.DescribeTopic(ctx, a.ResourceName)
		return err == nil && slices.Contains(topic.AuthorizedOperations, op)
	}
	deadline := time.Now().Add(15 * time.Second)
	for granted() != want {
		if time.Now().After(deadline) {
			t.Fatalf("%s still %s after 15 s", describeACL(a), map[bool]string{true: "missing", false: "in force"}[want])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// terraformLifecycle is the lifecycle as Terraform's principal. beforeApply
// writes records and sets TF_VAR_plan_json to a plan on the created topic;
// plan is the plan it set.
func terraformLifecycle(t *testing.T, env brokerEnv, tf *principal, in permissions.Input, acls []permissions.ACL,
	plan *cleanupplan.Plan, beforeApply func()) resource.TestCase {
	user := strings.TrimPrefix(tf.name, "User:")
	prov := provider(env.get(t, "KAFKA_BOOTSTRAP_SASL_SSL"),
		tlsBlock(env.get(t, "KAFKA_CA_PEM"))+saslBlock("SCRAM-SHA-512", user, env.get(t, "KAFKA_LIMITED_PASSWORD")))
	topics := func(dataConfig, controlConfig string) string {
		return prov + fmt.Sprintf(`
data "flinkagents_required_permissions" "p" {
  action_state_topic  = %[1]q
  control_topic       = %[2]q
  terraform_principal = %[3]q
  job_principal       = %[4]q
}

resource "flinkagents_action_state_topic" "data" {
  name       = %[1]q
  partitions = 3
  %[5]s
}

resource "flinkagents_cleanup_control_topic" "control" {
  name               = %[2]q
  action_state_topic = %[1]q
  %[6]s
}
`, in.ActionStateTopic, in.ControlTopic, in.TerraformPrincipal, in.JobPrincipal, dataConfig, controlConfig)
	}
	withBoundary := topics(`config = { "max.message.bytes" = "2000000" }`, `config = { "min.insync.replicas" = "1" }`) + `
variable "plan_json" {
  type = string
}

resource "flinkagents_cleanup_boundary" "b" {
  control_topic      = flinkagents_cleanup_control_topic.control.name
  action_state_topic = flinkagents_action_state_topic.data.name
  plan_json          = var.plan_json
}
`
	// The data source renders what the test granted, in the Mongey form.
	mongey := map[string]knownvalue.Check{}
	for _, a := range acls {
		m := a.Mongey()
		mongey[a.Key()] = knownvalue.ObjectExact(map[string]knownvalue.Check{
			"resource_name": knownvalue.StringExact(m.ResourceName), "resource_type": knownvalue.StringExact(m.ResourceType),
			"resource_pattern_type_filter": knownvalue.StringExact(m.ResourcePatternTypeFilter),
			"acl_principal":                knownvalue.StringExact(m.ACLPrincipal), "acl_host": knownvalue.StringExact(m.ACLHost),
			"acl_operation": knownvalue.StringExact(m.ACLOperation), "acl_permission_type": knownvalue.StringExact(m.ACLPermissionType),
		})
	}
	importCheck := func(attr string, want func() string) resource.ImportStateCheckFunc {
		return func(states []*terraform.InstanceState) error {
			if len(states) != 1 || states[0].Attributes[attr] != want() {
				return fmt.Errorf("imported %s: %v, want %s", attr, states, want())
			}
			return nil
		}
	}
	return resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: topics("", ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.flinkagents_required_permissions.p", tfjsonpath.New("kafka_acls"), knownvalue.MapExact(mongey)),
				},
			},
			{
				// Settings changed on both topics (IncrementalAlterConfigs)
				// and a boundary applied; the plan after it refreshes all.
				PreConfig: beforeApply,
				Config:    withBoundary,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("flinkagents_cleanup_boundary.b", tfjsonpath.New("status"), knownvalue.StringExact("APPLIED")),
					statecheck.ExpectKnownValue("flinkagents_action_state_topic.data", tfjsonpath.New("config"),
						knownvalue.MapExact(map[string]knownvalue.Check{"max.message.bytes": knownvalue.StringExact("2000000")})),
				},
			},
			{Config: withBoundary, PlanOnly: true},
			{
				Config: withBoundary, ResourceName: "flinkagents_cleanup_boundary.b", ImportState: true, ImportStateId: in.ControlTopic,
				ImportStateCheck: importCheck("plan_id", func() string { return plan.ID() }),
			},
			{
				Config: withBoundary, ResourceName: "flinkagents_action_state_topic.data", ImportState: true, ImportStateId: in.ActionStateTopic,
				ImportStateCheck: importCheck("topic_id", func() string { return plan.TopicID }),
			},
			{
				Config: withBoundary, ResourceName: "flinkagents_cleanup_control_topic.control", ImportState: true, ImportStateId: in.ControlTopic,
				ImportStateCheck: importCheck("cleanup_policy", func() string { return "compact" }),
			},
			{
				// Forget everything instead of destroying: the control topic
				// may not be deleted with these ACLs, by design.
				Config: prov + `
removed {
  from = flinkagents_cleanup_boundary.b
  lifecycle { destroy = false }
}
removed {
  from = flinkagents_action_state_topic.data
  lifecycle { destroy = false }
}
removed {
  from = flinkagents_cleanup_control_topic.control
  lifecycle { destroy = false }
}
`,
			},
		},
	}
}

// operation is one thing a principal does, run as that principal;
// diagnose, when set, turns its error into what Terraform would show.
type operation struct {
	name     string
	run      func(context.Context) error
	diagnose func(error) diag.Diagnostic
}

// nextOffsetKey carries the offset a removal case's apply plans up to.
type nextOffsetKey struct{}

// terraformOperations are the provider's requests, grouped the way its
// resources send them.
func terraformOperations(data, control string, tf *principal, super *kafkaops.Client) []operation {
	k := tf.ops
	create := func(name string, partitions int32, settings map[string]string, resourceType string) operation {
		op := fmt.Sprintf("creating topic %q", name)
		return operation{
			name: "create " + map[string]string{data: "action-state topic", control: "control topic"}[name],
			run: func(ctx context.Context) error {
				// Authorized, it meets the existing topic and changes nothing.
				if _, err := k.CreateTopic(ctx, name, partitions, 1, settings); err != nil && !errors.Is(err, kerr.TopicAlreadyExists) {
					return err
				}
				return nil
			},
			diagnose: func(err error) diag.Diagnostic {
				return diagnostics.TopicCreateFailed(op, resourceType, name, 1, err, "")
			},
		}
	}
	refresh := func(name, label string) operation {
		return operation{
			name: "refresh " + label,
			run: func(ctx context.Context) error {
				if _, err := k.DescribeTopic(ctx, name); err != nil {
					return err
				}
				_, err := k.TopicConfigs(ctx, name)
				return err
			},
			diagnose: func(err error) diag.Diagnostic { return diagnostics.FromKafkaErrorVia("reading "+label, err, "") },
		}
	}
	alter := func(name, label, key, value string) operation {
		return operation{
			name: "alter " + label,
			run: func(ctx context.Context) error {
				return k.AlterTopicConfigs(ctx, name, map[string]string{key: value}, nil)
			},
			diagnose: func(err error) diag.Diagnostic { return diagnostics.FromKafkaErrorVia("updating "+label, err, "") },
		}
	}
	return []operation{
		create(data, 3, cleanup.DataTopicSettings, "flinkagents_action_state_topic"),
		create(control, 1, map[string]string{cleanup.ConfigCleanupPolicy: "compact"}, "flinkagents_cleanup_control_topic"),
		refresh(data, "action-state topic"),
		refresh(control, "control topic"),
		alter(data, "action-state topic", "max.message.bytes", "2000000"),
		alter(control, "control topic", "min.insync.replicas", "1"),
		{
			name: "refresh boundary",
			run:  func(ctx context.Context) error { _, err := cleanup.Inspect(ctx, k, control); return err },
			diagnose: func(err error) diag.Diagnostic {
				return diagnostics.FromCleanupErrorVia("reading cleanup boundaries", err, "")
			},
		},
		{
			// A plan one further than any before, so that an apply the
			// removal does not stop commits and deletes for real.
			name: "apply boundary",
			run: func(ctx context.Context) error {
				topic, err := super.DescribeTopic(ctx, data)
				if err != nil {
					return fmt.Errorf("test setup: %w", err)
				}
				offs := cleanupplan.Offsets{}
				for _, p := range topic.Partitions {
					offs[p] = ctx.Value(nextOffsetKey{}).(int64)
				}
				plan, err := cleanupplan.New(fmt.Sprintf("file:/checkpoints/perms/chk-%d", offs[0]), data, topic.ID.String(), offs)
				if err != nil {
					return fmt.Errorf("test setup: %w", err)
				}
				_, err = cleanup.Apply(ctx, k, cleanup.Request{Plan: plan, ControlTopic: control, ExpectedTopic: data})
				return err
			},
			diagnose: func(err error) diag.Diagnostic {
				return diagnostics.FromCleanupErrorVia("applying a cleanup boundary", err, "")
			},
		},
	}
}

// jobOperations are the requests the Flink Agents runtime sends, in the
// order it sends them: on restore it describes the action-state topic and
// lists its offsets, reads the recorded boundaries (describe, configs,
// offsets and read_committed fetches of the control topic) and replays
// action state from assigned partitions without a consumer group; while
// running it writes action state through an idempotent producer.
func jobOperations(data, control string, job *principal) []operation {
	k := job.ops
	return []operation{
		{name: "describe action-state topic", run: func(ctx context.Context) error {
			if _, err := k.DescribeTopic(ctx, data); err != nil {
				return err
			}
			if _, err := k.StartOffsets(ctx, data); err != nil {
				return err
			}
			_, err := k.EndOffsets(ctx, data)
			return err
		}},
		{name: "read recorded boundaries", run: func(ctx context.Context) error {
			if _, err := k.DescribeTopic(ctx, control); err != nil {
				return err
			}
			if _, err := k.TopicConfigs(ctx, control); err != nil {
				return err
			}
			_, err := k.ReadControlLog(ctx, control, func(kafkaops.ControlRecord) error { return nil })
			return err
		}},
		{name: "replay action state", run: func(ctx context.Context) error {
			at := map[int32]kgo.Offset{}
			for p := range int32(3) {
				at[p] = kgo.NewOffset().AtStart()
			}
			cl, err := kgo.NewClient(append(slices.Clone(job.opts), kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{data: at}))...)
			if err != nil {
				return err
			}
			defer cl.Close()
			ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
			defer cancel()
			for {
				fetches := cl.PollFetches(ctx)
				if errs := fetches.Errors(); len(errs) > 0 {
					return errs[0].Err
				}
				if fetches.NumRecords() > 0 {
					return nil
				}
			}
		}},
		{name: "write action state", run: func(ctx context.Context) error {
			cl, err := kgo.NewClient(append(slices.Clone(job.opts), kgo.RequiredAcks(kgo.AllISRAcks()), kgo.RecordPartitioner(kgo.ManualPartitioner()))...)
			if err != nil {
				return err
			}
			defer cl.Close()
			ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
			defer cancel()
			return cl.ProduceSync(ctx, &kgo.Record{Topic: data, Partition: 0, Key: []byte("job"), Value: []byte("state")}).FirstErr()
		}},
	}
}

// refusedFor reports whether err is the broker refusing for lack of an ACL.
func refusedFor(err error) bool {
	var ke *kerr.Error
	return errors.Is(err, cleanup.ErrNotAuthorized) || (errors.As(err, &ke) && strings.HasSuffix(ke.Message, "_AUTHORIZATION_FAILED"))
}

// assertNamesPermission requires the diagnostic to be one of the
// permission diagnostics and to name the removed ACL's operation and
// resource.
func assertNamesPermission(t *testing.T, what string, d diag.Diagnostic, removed permissions.ACL) {
	t.Helper()
	summaries := []string{"Missing Kafka Permission", "Missing Kafka Permission For Cleanup", "Kafka Topic Authorization Failed"}
	resource := fmt.Sprintf("%s %q", removed.ResourceType.Noun(), removed.ResourceName)
	if !slices.Contains(summaries, d.Summary()) || !strings.Contains(d.Detail(), string(removed.Operation)) || !strings.Contains(d.Detail(), resource) {
		t.Errorf("%s: the diagnostic does not name %s on %s:\n%s\n%s", what, removed.Operation, resource, d.Summary(), d.Detail())
	}
}

// snapshot is what a refused apply must leave as it was: the control
// topic's end offset (a record or transaction marker moves it) and each
// action-state partition's start offset.
func snapshot(t *testing.T, super *kafkaops.Client, data, control string) map[string]int64 {
	t.Helper()
	ctx := context.Background()
	out := map[string]int64{}
	ends, err := super.EndOffsets(ctx, control)
	if err != nil {
		t.Fatal(err)
	}
	out["control end"] = ends[0]
	starts, err := super.StartOffsets(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	for p, s := range starts {
		out[fmt.Sprintf("start of partition %d", p)] = s
	}
	return out
}
