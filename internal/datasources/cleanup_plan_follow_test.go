package datasources_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
)

// followEnv is a job directory whose chk-N markers hold offset 2N+p on
// partition p, beside a live action-state topic and its control topic.
type followEnv struct {
	*acctest.Env
	t                      *testing.T
	data, control, topicID string
	dir                    string
}

const followParts = 3

func newFollowEnv(t *testing.T) *followEnv {
	e := acctest.New(t)
	f := &followEnv{Env: e, t: t, data: e.Name("orders-action-state"), control: e.Name("orders-cleanup-control"), dir: filepath.Join(t.TempDir(), "job-7f3a")}
	f.topicID = e.CreateTopic(f.data, followParts, cleanup.DataTopicSettings)
	e.CreateTopic(f.control, 1, map[string]string{"cleanup.policy": "compact"})
	e.Produce(f.data, followParts, 30)
	return f
}

// checkpoint completes chk-id, as Flink would.
func (f *followEnv) checkpoint(id int64) {
	writePoint(f.t, filepath.Join(f.dir, fmt.Sprintf("chk-%d", id)), id, f.data, f.topicID, followParts, 2*id, t0.Add(time.Duration(id)*time.Minute))
}

// retire deletes chk-id, as Flink does beyond state.checkpoints.num-retained.
func (f *followEnv) retire(id int64) {
	if err := os.RemoveAll(filepath.Join(f.dir, fmt.Sprintf("chk-%d", id))); err != nil {
		f.t.Fatal(err)
	}
}

// config plans from the job directory with choice (attributes inside the
// data source block) and applies the plan as a boundary.
func (f *followEnv) config(choice string) string {
	return f.Provider() + fmt.Sprintf(`
data "flinkagents_cleanup_plan" "follow" {
  checkpoint_dir = "file:%s"
  operator_uid   = "agent-op"
%s
}

resource "flinkagents_cleanup_boundary" "orders" {
  control_topic      = %q
  action_state_topic = %q
  plan_json          = data.flinkagents_cleanup_plan.follow.plan_json
}
`, f.dir, choice, f.control, f.data)
}

// followed checks the data source chose chk-id and the topic starts at its
// markers.
func (f *followEnv) followed(id int64) []statecheck.StateCheck {
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue(followAddr, tfjsonpath.New("source_recovery_point"), knownvalue.StringExact(fmt.Sprintf("file:%s/chk-%d", f.dir, id))),
		statecheck.ExpectKnownValue(followAddr, tfjsonpath.New("checkpoint_id"), knownvalue.Int64Exact(id)),
		statecheck.ExpectKnownValue("flinkagents_cleanup_boundary.orders", tfjsonpath.New("status"), knownvalue.StringExact("APPLIED")),
		statecheck.ExpectKnownValue(followAddr, tfjsonpath.New("offsets").AtMapKey("2"), knownvalue.Int64Exact(2*id+2)),
		statecheck.ExpectKnownValue("flinkagents_cleanup_boundary.orders", tfjsonpath.New("source_recovery_point"), knownvalue.StringExact(fmt.Sprintf("file:%s/chk-%d", f.dir, id))),
	}
}

func (f *followEnv) startsAt(id int64) func(*terraformState) error {
	return func(*terraformState) error {
		for p, s := range f.StartOffsets(f.data) {
			if want := 2*id + int64(p); s != want {
				return fmt.Errorf("partition %d starts at %d, want %d (chk-%d's markers)", p, s, want, id)
			}
		}
		return nil
	}
}

const followAddr = "data.flinkagents_cleanup_plan.follow"

// Flink retires the checkpoint the plan was derived from: with
// checkpoint_dir the next plan moves the boundary forward, or is empty
// while the followed point is still retained; it never fails. select and
// nth_newest choose other points of the same directory.
func TestCleanupPlanFollowsRetainedCheckpoints(t *testing.T) {
	f := newFollowEnv(t)
	for id := int64(1); id <= 3; id++ {
		f.checkpoint(id)
	}
	boundary := "flinkagents_cleanup_boundary.orders"
	update := func() resource.ConfigPlanChecks {
		return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(boundary, plancheck.ResourceActionUpdate)}}
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: f.config(""), ConfigStateChecks: f.followed(1), Check: f.startsAt(1)},
			{
				// Flink completes chk-4 and retires chk-1: the oldest retained
				// is now chk-2, and the boundary follows it.
				PreConfig:         func() { f.checkpoint(4); f.retire(1) },
				Config:            f.config(""),
				ConfigPlanChecks:  update(),
				ConfigStateChecks: f.followed(2),
				Check:             f.startsAt(2),
			},
			{
				// A new checkpoint alone does not move the oldest: nothing to do.
				PreConfig: func() { f.checkpoint(5) },
				Config:    f.config(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
					plancheck.ExpectKnownValue(boundary, tfjsonpath.New("source_recovery_point"), knownvalue.StringExact(fmt.Sprintf("file:%s/chk-2", f.dir))),
				}},
			},
			{
				// Retained: chk-5, chk-4, chk-3, chk-2. Keep the newest three restorable.
				Config:            f.config("  nth_newest = 3"),
				ConfigPlanChecks:  update(),
				ConfigStateChecks: f.followed(3),
				Check:             f.startsAt(3),
			},
			{
				// chk-2 and chk-3 retire: two points left, fewer than three, so
				// the oldest of them (a warning says so).
				PreConfig:         func() { f.retire(2); f.retire(3) },
				Config:            f.config("  nth_newest = 3"),
				ConfigPlanChecks:  update(),
				ConfigStateChecks: f.followed(4),
				Check:             f.startsAt(4),
			},
			{
				Config:            f.config(`  select = "newest"`),
				ConfigPlanChecks:  update(),
				ConfigStateChecks: f.followed(5),
				Check:             f.startsAt(5),
			},
		},
	})
}

// A pinned chk-N that Flink retired fails the plan, and the diagnostic
// gives the checkpoint_dir to write instead.
func TestCleanupPlanPinnedCheckpointRetired(t *testing.T) {
	f := newFollowEnv(t)
	f.checkpoint(1)
	f.checkpoint(2)
	pinned := f.Provider() + fmt.Sprintf(`
data "flinkagents_cleanup_plan" "pinned" {
  checkpoint_path = "file:%s/chk-1"
}
`, f.dir)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: pinned, ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.flinkagents_cleanup_plan.pinned", tfjsonpath.New("checkpoint_id"), knownvalue.Int64Exact(1)),
			}},
			{
				PreConfig: func() { f.retire(1) },
				Config:    pinned,
				ExpectError: regexp.MustCompile(`(?s)Checkpoint Not Found.*state\.checkpoints\.num-retained.*replace\s+checkpoint_path\s+with\s+checkpoint_dir\s+=\s+"` +
					regexp.QuoteMeta("file:"+f.dir) + `".*pin\s+a\s+savepoint`),
			},
		},
	})
}

// A job that has not completed a checkpoint yet: the plan is null with a
// warning, so a configuration that guards its boundary applies (it may
// create the topics in the same run), and the boundary appears with the
// first checkpoint.
func TestCleanupPlanFollowsAJobWithoutCheckpointsYet(t *testing.T) {
	f := newFollowEnv(t)
	if err := os.MkdirAll(filepath.Join(f.dir, "chk-1"), 0o755); err != nil { // in progress
		t.Fatal(err)
	}
	config := f.Provider() + fmt.Sprintf(`
data "flinkagents_cleanup_plan" "follow" {
  checkpoint_dir = %q
}

resource "flinkagents_cleanup_boundary" "orders" {
  count              = data.flinkagents_cleanup_plan.follow.plan_json == null ? 0 : 1
  control_topic      = %q
  action_state_topic = %q
  plan_json          = data.flinkagents_cleanup_plan.follow.plan_json
}
`, f.dir, f.control, f.data)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(followAddr, tfjsonpath.New("plan_json"), knownvalue.Null()),
					statecheck.ExpectKnownValue(followAddr, tfjsonpath.New("source_recovery_point"), knownvalue.Null()),
				},
				Check: func(*terraformState) error {
					for p, s := range f.StartOffsets(f.data) {
						if s != 0 {
							return fmt.Errorf("partition %d starts at %d: something was deleted without a plan", p, s)
						}
					}
					return nil
				},
			},
			{
				PreConfig: func() { f.checkpoint(1) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("flinkagents_cleanup_boundary.orders[0]", plancheck.ResourceActionCreate),
				}},
				Check: f.startsAt(1),
			},
		},
	})
}

func TestCleanupPlanFollowInputRules(t *testing.T) {
	e := acctest.New(t)
	dir := t.TempDir()
	cfg := func(body string) string {
		return e.Provider() + "data \"flinkagents_cleanup_plan\" \"p\" {\n" + body + "\n}\n"
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: cfg(fmt.Sprintf("checkpoint_path = %q\ncheckpoint_dir = %q", dir+"/chk-1", dir)),
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*cannot be configured together`)},
			{Config: cfg(fmt.Sprintf("checkpoint_dir = %q\nselect = \"newest\"\nnth_newest = 2", dir)),
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination`)},
			{Config: cfg(`plan_json = "{}"` + "\nnth_newest = 2"), ExpectError: regexp.MustCompile(`Recovery Point Choice Without A Directory`)},
			{Config: cfg(fmt.Sprintf("checkpoint_dir = %q\nselect = \"middle\"", dir)), ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Value Match`)},
			{Config: cfg(fmt.Sprintf("checkpoint_dir = %q", filepath.Join(dir, "missing"))), ExpectError: regexp.MustCompile(`Recovery Point Directory Not Found`)},
		},
	})
}
