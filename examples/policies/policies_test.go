// Package policies_test runs the Rego policies in policy/ against plans made
// by the real Terraform CLI with this provider, built from source, against an
// in-process Kafka broker (or KAFKA_BOOTSTRAP_SERVERS).
package policies_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/emulators"
)

// plan is the JSON of `terraform show -json PLANFILE`.
type plan = map[string]any

// deny evaluates data.main.deny over a plan with the given data documents
// (approvals, params) with the opa CLI, built from tools/go.mod (OPA stays
// out of the provider's module), and returns the messages, sorted.
func deny(t *testing.T, p plan, data map[string]any) []string {
	t.Helper()
	files, err := filepath.Glob("policy/*.rego")
	if err != nil || len(files) == 0 {
		t.Fatalf("no policies in policy/: %v", err)
	}
	if data == nil {
		data = map[string]any{}
	}
	dir := t.TempDir()
	input, dataFile := filepath.Join(dir, "tfplan.json"), filepath.Join(dir, "data.json")
	for file, v := range map[string]any{input: p, dataFile: data} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	msgs := emulators.OPADeny(t, input, append([]string{dataFile}, files...)...)
	slices.Sort(msgs)
	return msgs
}

// expectDenied requires exactly the given rule tags (with the address), in any order.
func expectDenied(t *testing.T, what string, msgs []string, want ...string) {
	t.Helper()
	if len(msgs) != len(want) {
		t.Errorf("%s: %d denials %q, want %d %q", what, len(msgs), msgs, len(want), want)
		return
	}
	for _, w := range want {
		if !slices.ContainsFunc(msgs, func(m string) bool { return strings.HasPrefix(m, w) }) {
			t.Errorf("%s: no denial starting %q in %q", what, w, msgs)
		}
	}
}

func allowed(t *testing.T, what string, msgs []string) {
	t.Helper()
	if len(msgs) != 0 {
		t.Errorf("%s: denied %q, want allowed", what, msgs)
	}
}

// providerDir builds the provider from this module into a directory used by
// every test, through dev_overrides (no registry, no terraform init).
func providerDir(t *testing.T) string {
	t.Helper()
	root, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "terraform-provider-flinkagents"), ".")
	build.Dir = filepath.Dir(strings.TrimSpace(string(root)))
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, out)
	}
	return dir
}

// workdir is one Terraform working directory with its own state.
type workdir struct {
	t   *testing.T
	dir string
	env []string
	hdr string
}

func newWorkdir(t *testing.T, e *acctest.Env, providers string) *workdir {
	t.Helper()
	dir := t.TempDir()
	rc := filepath.Join(dir, "dev.tfrc")
	cli := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"registry.terraform.io/actionstate/flinkagents\" = %q\n  }\n}\n", providers)
	if err := os.WriteFile(rc, []byte(cli), 0o644); err != nil {
		t.Fatal(err)
	}
	return &workdir{
		t: t, dir: dir,
		env: append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1", "TF_INPUT=0", "CHECKPOINT_DISABLE=1"),
		hdr: "terraform {\n  required_providers {\n    flinkagents = { source = \"actionstate/flinkagents\" }\n  }\n}\n" + e.Provider(),
	}
}

func (w *workdir) terraform(args ...string) []byte {
	w.t.Helper()
	cmd := exec.Command("terraform", args...)
	cmd.Dir, cmd.Env = w.dir, w.env
	out, err := cmd.Output()
	if err != nil {
		stderr := ""
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		w.t.Fatalf("terraform %s: %v\n%s\n%s", strings.Join(args, " "), err, out, stderr)
	}
	return out
}

func (w *workdir) write(config string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, "main.tf"), []byte(w.hdr+config), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *workdir) apply(config string) {
	w.t.Helper()
	w.write(config)
	w.terraform("apply", "-auto-approve", "-no-color")
}

// plan runs `terraform plan -out` and `terraform show -json`, as a CI
// pipeline does before conftest.
func (w *workdir) plan(config string) plan {
	w.t.Helper()
	w.write(config)
	w.terraform("plan", "-out=tfplan", "-no-color")
	var p plan
	if err := json.Unmarshal(w.terraform("show", "-json", "tfplan"), &p); err != nil {
		w.t.Fatal(err)
	}
	return p
}

// change returns the resource change of addr in p, for doctoring.
func change(t *testing.T, p plan, addr string) map[string]any {
	t.Helper()
	for _, rc := range p["resource_changes"].([]any) {
		if rc := rc.(map[string]any); rc["address"] == addr {
			return rc["change"].(map[string]any)
		}
	}
	t.Fatalf("no resource change for %s", addr)
	return nil
}

// clone deep-copies a plan so a doctored copy leaves the original intact.
func clone(t *testing.T, p plan) plan {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var c plan
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// requireTerraform skips unless TF_ACC is set (as for every test that runs
// the terraform CLI; `make test` sets it) and then fails when terraform is
// missing.
func requireTerraform(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("runs real terraform plans: set TF_ACC=1 (make test does)")
	}
	if _, err := exec.LookPath("terraform"); err != nil {
		t.Fatalf("terraform CLI not found on PATH (%v): these tests run real plans; install Terraform >= 1.5", err)
	}
}

func TestPolicies(t *testing.T) {
	requireTerraform(t)
	providers := providerDir(t)
	t.Run("topics", func(t *testing.T) { testTopicPolicies(t, providers) })
	t.Run("boundary", func(t *testing.T) { testBoundaryPolicies(t, providers) })
	t.Run("unknown", func(t *testing.T) { testUnknownPreview(t, providers) })
	t.Run("restorable", func(t *testing.T) { testKeepRestorable(t, providers) })
	t.Run("fleet", func(t *testing.T) { testFleetPolicies(t, providers) })
	t.Run("fleet topics", func(t *testing.T) { testFleetTopicsPolicies(t, providers) })
}

// Rules (a) and (b) on flinkagents_action_state_topics: an entry (or its
// control topic) removed or renamed is a topic deleted; each topic's
// planned settings are reviewed as the single-topic resources' are.
func testFleetTopicsPolicies(t *testing.T, providers string) {
	e := acctest.New(t)
	w := newWorkdir(t, e, providers)
	orders, payments := e.Name("orders"), e.Name("payments")
	entry := func(name string, control bool) string {
		body := fmt.Sprintf("    action_state_topic = { name = %q, partitions = 3 }\n", name)
		if control {
			body += fmt.Sprintf("    control_topic = { name = %q }\n", name+"-control")
		}
		return body
	}
	fleet := func(entries map[string]string) string {
		var b strings.Builder
		b.WriteString("resource \"flinkagents_action_state_topics\" \"fleet\" {\n  deletion_protection = false\n  operators = {\n")
		for _, k := range slices.Sorted(maps.Keys(entries)) {
			fmt.Fprintf(&b, "  %s = {\n%s  }\n", k, entries[k])
		}
		b.WriteString("  }\n}\n")
		return b.String()
	}
	both := map[string]string{"orders": entry(orders, true), "payments": entry(payments, true)}
	addr := "flinkagents_action_state_topics.fleet"

	allowed(t, "creating the fleet", deny(t, w.plan(fleet(both)), nil))
	w.apply(fleet(both))
	e.SetTopicConfigs(payments, map[string]string{"retention.ms": "3600000"})
	restore := w.plan(fleet(both))
	allowed(t, "restoring retention.ms=-1 on one entry", deny(t, restore, nil))

	// (a) the provider refuses these with deletion protection on; here it
	// is off, and the rules still deny them.
	expectDenied(t, "an entry removed", deny(t, w.plan(fleet(map[string]string{"orders": both["orders"]})), nil),
		"[no-destroy] "+addr+`["payments"].action_state_topic`, "[no-destroy] "+addr+`["payments"].control_topic`)
	expectDenied(t, "a control topic removed", deny(t, w.plan(fleet(map[string]string{"orders": entry(orders, false), "payments": both["payments"]})), nil),
		"[no-destroy] "+addr+`["orders"].control_topic`)
	expectDenied(t, "the fleet destroyed", deny(t, w.plan(""), nil), "[no-destroy] "+addr)

	// (b) doctored: the provider refuses each at plan time itself.
	doctor := func(key, kind, attr string, value any) plan {
		p := clone(t, restore)
		c := change(t, p, addr)
		c["after"].(map[string]any)["operators"].(map[string]any)[key].(map[string]any)[kind].(map[string]any)[attr] = value
		return p
	}
	payData := addr + `["payments"].action_state_topic`
	expectDenied(t, "retention.ms", deny(t, doctor("payments", "action_state_topic", "retention_ms", "3600000"), nil), "[enforced-settings] "+payData+": retention_ms")
	expectDenied(t, "cleanup.policy", deny(t, doctor("payments", "action_state_topic", "cleanup_policy", "compact"), nil), "[enforced-settings] "+payData+": cleanup_policy")
	allowed(t, "cleanup.policy as a set", deny(t, doctor("payments", "action_state_topic", "cleanup_policy", "delete,compact"), nil))
	expectDenied(t, "control cleanup.policy", deny(t, doctor("orders", "control_topic", "cleanup_policy", "compact,delete"), nil),
		"[enforced-settings] "+addr+`["orders"].control_topic: cleanup_policy`)
	expectDenied(t, "partitions", deny(t, doctor("payments", "action_state_topic", "partitions", 6.0), nil), "[enforced-settings] "+payData+": partitions")
	expectDenied(t, "replication lowered", deny(t, doctor("payments", "action_state_topic", "replication_factor", 0.0), nil), "[enforced-settings] "+payData+": replication_factor")
	allowed(t, "replication raised", deny(t, doctor("payments", "action_state_topic", "replication_factor", 3.0), nil))
	expectDenied(t, "reserved config key", deny(t, doctor("payments", "action_state_topic", "config", map[string]any{"retention.ms": "1"}), nil),
		"[enforced-settings] "+payData+": config sets retention.ms")
	w.apply("")
}

// Rules (a) and (b).
func testTopicPolicies(t *testing.T, providers string) {
	e := acctest.New(t)
	w := newWorkdir(t, e, providers)
	data, control := e.Name("orders-action-state"), e.Name("orders-cleanup-control")
	topics := func(controlName string) string {
		return fmt.Sprintf(`
resource "flinkagents_action_state_topic" "orders" {
  name                = %q
  partitions          = 3
  deletion_protection = false
}

resource "flinkagents_cleanup_control_topic" "orders" {
  name                = %q
  action_state_topic  = flinkagents_action_state_topic.orders.name
  deletion_protection = false
}
`, data, controlName)
	}
	dataAddr, controlAddr := "flinkagents_action_state_topic.orders", "flinkagents_cleanup_control_topic.orders"

	create := w.plan(topics(control))
	allowed(t, "creating the topics", deny(t, create, nil))
	w.apply(topics(control))

	// Drift: someone shortened retention out of band. Restoring -1 is allowed.
	e.SetTopicConfigs(data, map[string]string{"retention.ms": "3600000"})
	restore := w.plan(topics(control))
	if got := change(t, restore, dataAddr)["before"].(map[string]any)["retention_ms"]; got != "3600000" {
		t.Fatalf("the drift did not reach the plan: before.retention_ms = %v", got)
	}
	allowed(t, "restoring retention.ms=-1", deny(t, restore, nil))

	// (a) a replace (renamed control topic) and a destroy (blocks removed).
	expectDenied(t, "replacing the control topic", deny(t, w.plan(topics(control+"-renamed")), nil), "[no-destroy] "+controlAddr)
	expectDenied(t, "destroying both topics", deny(t, w.plan(""), nil), "[no-destroy] "+controlAddr, "[no-destroy] "+dataAddr)

	// (b) the provider refuses these at plan time itself, so no real plan
	// carries them: each denied case doctors the real drift-restore plan.
	doctor := func(addr, attr string, value any) plan {
		p := clone(t, restore)
		c := change(t, p, addr)
		c["after"].(map[string]any)[attr] = value
		c["actions"] = []any{"update"} // the control topic had no drift: a no-op
		return p
	}
	expectDenied(t, "retention.ms", deny(t, doctor(dataAddr, "retention_ms", "3600000"), nil), "[enforced-settings] "+dataAddr+": retention_ms")
	expectDenied(t, "retention.bytes", deny(t, doctor(dataAddr, "retention_bytes", "1073741824"), nil), "[enforced-settings] "+dataAddr+": retention_bytes")
	expectDenied(t, "cleanup.policy", deny(t, doctor(dataAddr, "cleanup_policy", "compact"), nil), "[enforced-settings] "+dataAddr+": cleanup_policy")
	allowed(t, "cleanup.policy as a set", deny(t, doctor(dataAddr, "cleanup_policy", "delete, compact"), nil))
	expectDenied(t, "control cleanup.policy", deny(t, doctor(controlAddr, "cleanup_policy", "compact,delete"), nil), "[enforced-settings] "+controlAddr+": cleanup_policy")
	expectDenied(t, "partitions", deny(t, doctor(dataAddr, "partitions", 6.0), nil), "[enforced-settings] "+dataAddr+": partitions")
	allowed(t, "replication raised", deny(t, doctor(controlAddr, "replication_factor", 3.0), nil))
	expectDenied(t, "replication lowered", deny(t, doctor(controlAddr, "replication_factor", 0.0), nil), "[enforced-settings] "+controlAddr+": replication_factor")
	expectDenied(t, "reserved config", deny(t, doctor(dataAddr, "config", map[string]any{"retention.ms": "1"}), nil), "[enforced-settings] "+dataAddr+": config sets retention.ms")
	unknownPolicy := clone(t, restore)
	delete(change(t, unknownPolicy, dataAddr)["after"].(map[string]any), "cleanup_policy")
	change(t, unknownPolicy, dataAddr)["after_unknown"].(map[string]any)["cleanup_policy"] = true
	expectDenied(t, "unknown cleanup.policy", deny(t, unknownPolicy, nil), "[enforced-settings] "+dataAddr+": cleanup_policy is unknown")
}

// Rules (c) and (d), on an action-state topic with records.
func testBoundaryPolicies(t *testing.T, providers string) {
	e := acctest.New(t)
	w := newWorkdir(t, e, providers)
	const parts = 3
	data, control, control2 := e.Name("orders-action-state"), e.Name("orders-cleanup-control"), e.Name("orders-cleanup-control-2")
	topicID := e.CreateTopic(data, parts, cleanup.DataTopicSettings)
	e.CreateTopic(control, 1, map[string]string{"cleanup.policy": "compact"})
	e.CreateTopic(control2, 1, map[string]string{"cleanup.policy": "compact"})
	e.Produce(data, parts, 50)
	planAt := func(chk int, offset int64) cleanupplan.Plan {
		offs := cleanupplan.Offsets{}
		for p := range int32(parts) {
			offs[p] = offset
		}
		pl, err := cleanupplan.New(fmt.Sprintf("file:/checkpoints/orders/chk-%d", chk), data, topicID, offs)
		if err != nil {
			t.Fatal(err)
		}
		return pl
	}
	boundary := func(controlTopic string, p cleanupplan.Plan) string {
		return fmt.Sprintf(`
resource "flinkagents_cleanup_boundary" "orders" {
  control_topic      = %q
  action_state_topic = %q
  plan_json          = <<-EOT
%sEOT
}
`, controlTopic, data, p.File())
	}
	addr := "flinkagents_cleanup_boundary.orders"
	chk10, chk20, chk5 := planAt(10, 10), planAt(20, 20), planAt(5, 5)

	// (d) 3 x 10 records: under the default cap, over a cap of 20 unless approved.
	first := w.plan(boundary(control, chk10))
	if n := change(t, first, addr)["after"].(map[string]any)["records_to_delete"]; n != 30.0 {
		t.Fatalf("records_to_delete = %v, want 30 known at plan time", n)
	}
	allowed(t, "30 records, default cap", deny(t, first, nil))
	capped := map[string]any{"params": map[string]any{"max_records_to_delete": 20}}
	expectDenied(t, "30 records, cap 20", deny(t, first, capped), "[deletion-cap] "+addr+": deletes 30 records, above the cap of 20")
	capped["approvals"] = map[string]any{"plan_ids": []any{chk20.ID()}}
	expectDenied(t, "approval of another plan", deny(t, first, capped), "[deletion-cap] "+addr)
	capped["approvals"] = map[string]any{"plan_ids": []any{chk10.ID()}}
	allowed(t, "30 records, cap 20, approved", deny(t, first, capped))
	w.apply(boundary(control, chk10))

	// (c) forward in place: allowed.
	forward := w.plan(boundary(control, chk20))
	if a := change(t, forward, addr)["actions"]; fmt.Sprint(a) != "[update]" {
		t.Fatalf("moving forward planned %v, want an update", a)
	}
	allowed(t, "moving forward", deny(t, forward, nil))

	// (c) backward through a switch to an empty control topic: the provider
	// checks only the new control topic, which holds no boundary; the policy
	// sees the old offsets in "before". The switch is planned for real (at
	// the offsets the topic now starts at, which the runtime accepts) and
	// doctored to offsets below them: those records are gone, and the
	// provider, like the runtime, refuses to commit such a plan at all.
	backward := w.plan(boundary(control2, chk10))
	if a := change(t, backward, addr)["actions"]; fmt.Sprint(a) != "[delete create]" {
		t.Fatalf("switching control topics planned %v, want a replace", a)
	}
	backwardAfter := change(t, backward, addr)["after"].(map[string]any)
	backwardAfter["plan_json"], backwardAfter["plan_id"] = string(chk5.File()), chk5.ID()
	expectDenied(t, "moving backward", deny(t, backward, nil),
		"[boundary-forward] "+addr+": partition 0", "[boundary-forward] "+addr+": partition 1", "[boundary-forward] "+addr+": partition 2")
	// An approval does not lift (c).
	expectDenied(t, "moving backward, approved", deny(t, backward, map[string]any{"approvals": map[string]any{"plan_ids": []any{chk5.ID()}}}),
		"[boundary-forward] "+addr+": partition 0", "[boundary-forward] "+addr+": partition 1", "[boundary-forward] "+addr+": partition 2")

	// (c) a changed partition set, doctored (the provider refuses it).
	reshaped := clone(t, forward)
	after := change(t, reshaped, addr)["after"].(map[string]any)
	var doctored map[string]any
	if err := json.Unmarshal([]byte(after["plan_json"].(string)), &doctored); err != nil {
		t.Fatal(err)
	}
	doctored["offsets"].(map[string]any)["3"] = 20.0
	planJSON, err := json.Marshal(doctored)
	if err != nil {
		t.Fatal(err)
	}
	after["plan_json"] = string(planJSON)
	expectDenied(t, "partition set change", deny(t, reshaped, nil), "[boundary-forward] "+addr+": the partition set changes")
}

// Rule (e): a boundary planned together with its control topic has no
// preview until apply.
func testUnknownPreview(t *testing.T, providers string) {
	e := acctest.New(t)
	w := newWorkdir(t, e, providers)
	data, control := e.Name("orders-action-state"), e.Name("orders-cleanup-control")
	topicID := e.CreateTopic(data, 2, cleanup.DataTopicSettings)
	e.Produce(data, 2, 5)
	pl, err := cleanupplan.New("file:/checkpoints/orders/chk-3", data, topicID, cleanupplan.Offsets{0: 2, 1: 3})
	if err != nil {
		t.Fatal(err)
	}
	config := fmt.Sprintf(`
resource "flinkagents_cleanup_control_topic" "orders" {
  name               = %q
  action_state_topic = %q
}

resource "flinkagents_cleanup_boundary" "orders" {
  control_topic      = flinkagents_cleanup_control_topic.orders.name
  action_state_topic = %q
  plan_json          = <<-EOT
%sEOT
}
`, control, data, data, pl.File())
	addr := "flinkagents_cleanup_boundary.orders"
	p := w.plan(config)
	if u := change(t, p, addr)["after_unknown"].(map[string]any)["records_to_delete"]; u != true {
		t.Fatalf("after_unknown.records_to_delete = %v, want true (the control topic does not exist yet)", u)
	}
	expectDenied(t, "unknown preview", deny(t, p, nil), "[unknown] "+addr+": records_to_delete")
	allowed(t, "unknown preview, approved", deny(t, p, map[string]any{"approvals": map[string]any{"plan_ids": []any{pl.ID()}}}))
	// Applying the control topic first makes the preview known: allowed.
	w.apply(config[:strings.Index(config, "resource \"flinkagents_cleanup_boundary\"")])
	known := w.plan(config)
	if n := change(t, known, addr)["after"].(map[string]any)["records_to_delete"]; n != 5.0 {
		t.Fatalf("records_to_delete = %v after creating the control topic, want 5", n)
	}
	allowed(t, "known preview", deny(t, known, nil))
}

// Rule (f): a boundary that makes a kept recovery point unrestorable.
func testKeepRestorable(t *testing.T, providers string) {
	e := acctest.New(t)
	w := newWorkdir(t, e, providers)
	data, control := e.Name("orders-action-state"), e.Name("orders-cleanup-control")
	topicID := e.CreateTopic(data, 2, cleanup.DataTopicSettings)
	e.CreateTopic(control, 1, map[string]string{"cleanup.policy": "compact"})
	e.Produce(data, 2, 30)
	pl, err := cleanupplan.New("file:/checkpoints/orders/chk-9", data, topicID, cleanupplan.Offsets{0: 20, 1: 20})
	if err != nil {
		t.Fatal(err)
	}
	const release = "file:/savepoints/orders/savepoint-release-1"
	config := func(points string) string {
		return fmt.Sprintf(`
resource "flinkagents_cleanup_boundary" "orders" {
  control_topic      = %q
  action_state_topic = %q
  plan_json          = <<-EOT
%sEOT
%s
}
`, control, data, pl.File(), points)
	}
	points := fmt.Sprintf(`  recovery_points = [
    { path = "file:/checkpoints/orders/chk-9", topic = %[1]q, topic_id = %[2]q, offsets = { "0" = 20, "1" = 20 } },
    { path = %[3]q, kind = "savepoint", topic = %[1]q, topic_id = %[2]q, offsets = { "0" = 20, "1" = 12 } },
  ]`, data, topicID, release)
	addr := "flinkagents_cleanup_boundary.orders"
	keep := func(prefixes ...any) map[string]any {
		return map[string]any{"params": map[string]any{"keep_restorable": prefixes}}
	}

	p := w.plan(config(points))
	got := change(t, p, addr)["after"].(map[string]any)["unrestorable_points"]
	want := []any{map[string]any{"path": release, "reason": "partition 1: marker 12 below new boundary 20"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("unrestorable_points = %v, want %v", got, want)
	}
	allowed(t, "nothing kept", deny(t, p, nil))
	allowed(t, "checkpoints kept", deny(t, p, keep("file:/checkpoints/")))
	expectDenied(t, "release savepoints kept", deny(t, p, keep("file:/savepoints/orders/savepoint-release-")),
		"[keep-restorable] "+addr+": recovery point "+release)
	expectDenied(t, "approved, still kept", deny(t, p, map[string]any{"params": keep(release)["params"], "approvals": map[string]any{"plan_ids": []any{pl.ID()}}}),
		"[keep-restorable] "+addr)

	// Fail closed: no recovery_points, or unknown unrestorable points.
	bare := w.plan(config(""))
	expectDenied(t, "no recovery_points", deny(t, bare, keep(release)), "[keep-restorable] "+addr+": no recovery_points given")
	allowed(t, "no recovery_points, nothing kept", deny(t, bare, nil))
	unknownPoints := clone(t, p)
	delete(change(t, unknownPoints, addr)["after"].(map[string]any), "unrestorable_points")
	change(t, unknownPoints, addr)["after_unknown"].(map[string]any)["unrestorable_points"] = true
	expectDenied(t, "unknown unrestorable_points", deny(t, unknownPoints, keep(release)), "[keep-restorable] "+addr+": unrestorable_points is unknown")
}

// Rules (c), (d), (e) and (f) on the entries of flinkagents_cleanup_boundaries:
// each entry the plan writes is reviewed under its own address, and an entry
// the plan leaves as it was is not.
func testFleetPolicies(t *testing.T, providers string) {
	e := acctest.New(t)
	w := newWorkdir(t, e, providers)
	const parts = 3
	type op struct{ data, control, topicID string }
	ops := map[string]op{}
	for _, k := range []string{"orders", "payments"} {
		o := op{data: e.Name(k + "-action-state"), control: e.Name(k + "-cleanup-control")}
		o.topicID = e.CreateTopic(o.data, parts, cleanup.DataTopicSettings)
		e.CreateTopic(o.control, 1, map[string]string{"cleanup.policy": "compact"})
		e.Produce(o.data, parts, 50)
		ops[k] = o
	}
	planAt := func(k string, offset int64) cleanupplan.Plan {
		offs := cleanupplan.Offsets{}
		for p := range int32(parts) {
			offs[p] = offset
		}
		pl, err := cleanupplan.New(fmt.Sprintf("file:/checkpoints/%s/chk-%d", k, offset), ops[k].data, ops[k].topicID, offs)
		if err != nil {
			t.Fatal(err)
		}
		return pl
	}
	config := func(orders, payments int64) string {
		entry := func(k string, off int64) string {
			return fmt.Sprintf("    %s = { control_topic = %q, action_state_topic = %q, plan_json = %q }\n", k, ops[k].control, ops[k].data, planAt(k, off).File())
		}
		return "resource \"flinkagents_cleanup_boundaries\" \"fleet\" {\n  boundaries = {\n" + entry("orders", orders) + entry("payments", payments) + "  }\n}\n"
	}
	addr := "flinkagents_cleanup_boundaries.fleet"
	orders, payments := addr+`["orders"]`, addr+`["payments"]`
	capped := map[string]any{"params": map[string]any{"max_records_to_delete": 20}}

	// (e) new entries with their plans: their review is left to their
	// apply (no refresh read their topics yet), so it cannot be reviewed
	// and is denied, under any cap, until each plan ID is approved.
	first := w.plan(config(10, 10))
	for what, data := range map[string]map[string]any{"default cap": nil, "cap 20": capped} {
		expectDenied(t, "two new entries, "+what, deny(t, first, data),
			"[unknown] "+orders+": records_to_delete is unknown until apply", "[unknown] "+payments+": records_to_delete is unknown until apply")
	}
	allowed(t, "two new entries, approved", deny(t, first, map[string]any{"approvals": map[string]any{"plan_ids": []any{planAt("orders", 10).ID(), planAt("payments", 10).ID()}}}))
	w.apply(config(10, 10))

	// Only orders moves: only orders is reviewed.
	forward := w.plan(config(20, 10))
	allowed(t, "orders forward", deny(t, forward, nil))
	expectDenied(t, "orders forward, cap 20", deny(t, forward, capped), "[deletion-cap] "+orders+": deletes 30 records")
	capped["approvals"] = map[string]any{"plan_ids": []any{planAt("orders", 20).ID()}}
	allowed(t, "orders forward, cap 20, approved", deny(t, forward, capped))

	entry := func(p plan, k string) map[string]any {
		return change(t, p, addr)["after"].(map[string]any)["boundaries"].(map[string]any)[k].(map[string]any)
	}
	// (c) orders backward, doctored (the provider refuses it at plan time).
	backward := clone(t, forward)
	entry(backward, "orders")["plan_json"] = string(planAt("orders", 5).File())
	expectDenied(t, "orders backward", deny(t, backward, nil),
		"[boundary-forward] "+orders+": partition 0", "[boundary-forward] "+orders+": partition 1", "[boundary-forward] "+orders+": partition 2")

	// A real backward move is held by the provider (REFUSED), with
	// payments advancing: it writes nothing, so no rule denies it.
	held := w.plan(config(5, 20))
	if got := entry(held, "orders")["status"]; got != "REFUSED" {
		t.Fatalf("orders moving backward is planned %v, want REFUSED", got)
	}
	allowed(t, "orders held, payments forward", deny(t, held, nil))

	// (e) an entry whose preview is unknown, and a map unknown as a whole.
	unknownEntry := clone(t, forward)
	delete(entry(unknownEntry, "orders"), "records_to_delete")
	change(t, unknownEntry, addr)["after_unknown"] = map[string]any{"boundaries": map[string]any{"orders": map[string]any{"records_to_delete": true}}}
	expectDenied(t, "unknown entry preview", deny(t, unknownEntry, nil), "[unknown] "+orders+": records_to_delete")
	unknownMap := clone(t, forward)
	delete(change(t, unknownMap, addr)["after"].(map[string]any), "boundaries")
	change(t, unknownMap, addr)["after_unknown"] = map[string]any{"boundaries": true}
	expectDenied(t, "unknown map", deny(t, unknownMap, nil),
		"[unknown] "+addr+": plan_id", "[unknown] "+addr+": plan_json", "[unknown] "+addr+": records_to_delete")

	// (f) an entry cannot be checked against points to keep: fail closed.
	expectDenied(t, "points to keep", deny(t, forward, map[string]any{"params": map[string]any{"keep_restorable": []any{"file:/savepoints/"}}}),
		"[keep-restorable] "+orders+": no recovery_points given")
}
