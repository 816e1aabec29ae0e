package resources_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// boundaryEnv is an action-state topic with records and an empty control
// topic, arranged out of band so plans can name the live topic ID.
type boundaryEnv struct {
	*acctest.Env
	data, control, topicID string
	parts                  int32
}

func newBoundaryEnv(t *testing.T, parts int32, records int) *boundaryEnv {
	return newBoundaryEnvOn(t, acctest.New(t), parts, records)
}

func newBoundaryEnvOn(t *testing.T, e *acctest.Env, parts int32, records int) *boundaryEnv {
	b := &boundaryEnv{Env: e, data: e.Name("orders-action-state"), control: e.Name("orders-cleanup-control"), parts: parts}
	b.topicID = e.CreateTopic(b.data, parts, cleanup.DataTopicSettings)
	e.CreateTopic(b.control, 1, map[string]string{"cleanup.policy": "compact"})
	e.Produce(b.data, parts, records)
	return b
}

func (b *boundaryEnv) plan(t *testing.T, source string, offset func(p int32) int64) cleanupplan.Plan {
	offs := cleanupplan.Offsets{}
	for p := range b.parts {
		offs[p] = offset(p)
	}
	pl, err := cleanupplan.New(source, b.data, b.topicID, offs)
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

func (b *boundaryEnv) config(p cleanupplan.Plan) string {
	return b.Provider() + fmt.Sprintf(`
resource "flinkagents_cleanup_boundary" "orders" {
  control_topic      = %q
  action_state_topic = %q
  plan_json          = <<-EOT
%sEOT
}
`, b.control, b.data, p.File())
}

// readAbove reads every record still in the topic and checks that exactly
// the records at or above the boundary survive, with their contents.
func (b *boundaryEnv) readAbove(boundary map[int32]int64, perPartition int) error {
	parts := map[string]map[int32]kgo.Offset{b.data: {}}
	for p := range b.parts {
		parts[b.data][p] = kgo.NewOffset().AtStart()
	}
	cl, err := kgo.NewClient(append(b.ClientOpts(), kgo.ConsumePartitions(parts))...)
	if err != nil {
		return err
	}
	defer cl.Close()
	want := 0
	for p := range b.parts {
		want += perPartition - int(boundary[p])
	}
	got := 0
	ctx, cancel := context.WithTimeout(context.Background(), 20e9)
	defer cancel()
	for got < want {
		fs := cl.PollFetches(ctx)
		if err := fs.Err0(); err != nil {
			return fmt.Errorf("read %d of %d surviving records: %w", got, want, err)
		}
		var bad error
		fs.EachRecord(func(r *kgo.Record) {
			got++
			if r.Offset < boundary[r.Partition] {
				bad = fmt.Errorf("partition %d offset %d survived below the boundary %d", r.Partition, r.Offset, boundary[r.Partition])
			}
			if string(r.Value) != fmt.Sprintf("state-%d-%d", r.Partition, r.Offset) {
				bad = fmt.Errorf("partition %d offset %d holds %q", r.Partition, r.Offset, r.Value)
			}
		})
		if bad != nil {
			return bad
		}
	}
	return nil
}

func TestCleanupBoundaryLifecycle(t *testing.T) {
	b := newBoundaryEnv(t, 12, 30)
	addr := "flinkagents_cleanup_boundary.orders"
	first := b.plan(t, "file:/checkpoints/orders/chk-10", func(p int32) int64 { return 5 + int64(p) })
	second := b.plan(t, "file:/checkpoints/orders/chk-20", func(p int32) int64 { return 20 })
	backward := b.plan(t, "file:/checkpoints/orders/chk-15", func(p int32) int64 { return 20 - int64(p%2) })
	firstDeleted := int64(0)
	for p := range b.parts {
		firstDeleted += 5 + int64(p)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: b.config(first),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
					// The deletion preview is known at plan time.
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("records_to_delete"), knownvalue.Int64Exact(firstDeleted)),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("partitions").AtMapKey("11"), knownvalue.StringExact("deletes 16 records from offset 0")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("plan_id"), knownvalue.StringExact(first.ID())),
				}, PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("APPLIED")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("partitions").AtMapKey("2"), knownvalue.StringExact("deletes 7 records from offset 0")),
				},
				Check: func(*terraformState) error {
					want := map[int32]int64{}
					for p := range b.parts {
						want[p] = 5 + int64(p)
					}
					for p, s := range b.StartOffsets(b.data) {
						if s != want[p] {
							return fmt.Errorf("partition %d starts at %d, want %d", p, s, want[p])
						}
					}
					return b.readAbove(want, 30)
				},
			},
			{
				ResourceName:                         addr,
				ImportState:                          true,
				ImportStateId:                        b.control,
				ImportStateVerify:                    true,
				ImportStateVerifyIdentifierAttribute: "control_topic",
				ImportStateVerifyIgnore:              []string{"timeouts", "records_to_delete", "partitions"},
			},
			{
				Config: b.config(second),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("records_to_delete"), knownvalue.Int64Exact(12*20-firstDeleted)),
				}, PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraformState) error {
					want := map[int32]int64{}
					for p := range b.parts {
						want[p] = 20
					}
					return b.readAbove(want, 30)
				},
			},
			{
				Config:      b.config(backward),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Cleanup Boundary Would Move Backward.*partition\s+1\s+but\s+the\s+recorded\s+boundary`),
			},
			{
				// The Java tool (or another workspace) advances the boundary
				// and deletes: nothing to do here, so nothing is planned, and
				// the review of this boundary's last change stays as applied
				// (data.flinkagents_cleanup_boundary shows the recorded one).
				PreConfig: func() {
					further := b.plan(t, "file:/checkpoints/orders/chk-30", func(int32) int64 { return 25 })
					k, v := cleanupplan.EncodeRecord(cleanupplan.StatusApplied, further)
					if _, err := b.AppendControl(context.Background(), b.control, k, v); err != nil {
						t.Fatal(err)
					}
					// ... and deletes, as the Java tool does before APPLIED
					// (without it, the boundary would read DELETION_PENDING).
					if _, err := b.Admin.DeleteRecords(context.Background(), b.data, kafkaops.TopicID{}, further.Offsets); err != nil {
						t.Fatal(err)
					}
				},
				Config:           b.config(second),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("APPLIED")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("records_to_delete"), knownvalue.Int64Exact(12*20-firstDeleted)),
				},
			},
			{
				// Removing the block forgets the boundary; it stays recorded.
				Config: b.Provider(),
				Check: func(*terraformState) error {
					log, err := cleanup.History(context.Background(), b.Admin, b.control)
					if err != nil {
						return err
					}
					if len(log.Operations()) != 3 || log.Boundary()[0] != 25 {
						return fmt.Errorf("history after forgetting: %d plans, boundary %v", len(log.Operations()), log.Boundary())
					}
					return nil
				},
			},
		},
	})
}

func TestCleanupBoundaryRefusals(t *testing.T) {
	b := newBoundaryEnv(t, 3, 10)
	good := b.plan(t, "chk-1", func(int32) int64 { return 5 })
	tooFar := b.plan(t, "chk-2", func(int32) int64 { return 50 })
	corrupted := strings.Replace(string(good.File()), `"0" : 5`, `"0" : 4`, 1)
	otherTopic := b.Provider() + fmt.Sprintf(`
resource "flinkagents_cleanup_boundary" "orders" {
  control_topic      = %q
  action_state_topic = "payments-action-state"
  plan_json          = %q
}
`, b.control, good.File())
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{Config: strings.Replace(b.config(good), string(good.File()), corrupted, 1), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Malformed Cleanup Plan.*does not\s+match`)},
			{Config: otherTopic, PlanOnly: true, ExpectError: regexp.MustCompile(`Plan Cleans Another Topic`)},
			{Config: b.config(tooFar), ExpectError: regexp.MustCompile(`(?s)Plan Offset Outside The Topic.s Records.*offset\s+50`)},
		},
	})
	if s := b.StartOffsets(b.data); s[0] != 0 {
		t.Fatalf("a refused plan deleted records: %v", s)
	}
	if log, err := cleanup.History(context.Background(), b.Admin, b.control); err != nil || len(log.Operations()) != 0 {
		t.Fatalf("a refused plan wrote to the control topic: %v %v", log, err)
	}
}

func TestCleanupBoundaryTombstoneFailsClosed(t *testing.T) {
	b := newBoundaryEnv(t, 2, 10)
	if _, err := b.AppendControl(context.Background(), b.control, []byte("someone"), nil); err != nil {
		t.Fatal(err)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config:      b.config(b.plan(t, "chk-1", func(int32) int64 { return 5 })),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`Tombstone In Control Topic`),
		}},
	})
	if s := b.StartOffsets(b.data); s[0] != 0 || s[1] != 0 {
		t.Fatalf("records deleted despite the tombstone: %v", s)
	}
}
