package datasources_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

func TestCleanupBoundaryDataSource(t *testing.T) {
	e := acctest.New(t)
	data, control := e.Name("ds-action-state"), e.Name("ds-control")
	id := e.CreateTopic(data, 2, cleanup.DataTopicSettings)
	e.CreateTopic(control, 1, map[string]string{"cleanup.policy": "compact"})
	e.Produce(data, 2, 10)
	ctx := context.Background()
	var ids []string
	for i, off := range []int64{3, 7} {
		p, err := cleanupplan.New(fmt.Sprintf("chk-%d", i), data, id, cleanupplan.Offsets{0: off, 1: off})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cleanup.Apply(ctx, e.Admin, cleanup.Request{Plan: p, ControlTopic: control}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID())
	}
	ds := "data.flinkagents_cleanup_boundary.b"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: e.Provider() + fmt.Sprintf("data \"flinkagents_cleanup_boundary\" \"b\" {\n  control_topic = %q\n}\n", control),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("committed_boundary"), knownvalue.MapExact(map[string]knownvalue.Check{"0": knownvalue.Int64Exact(7), "1": knownvalue.Int64Exact(7)})),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("latest_plan_id"), knownvalue.StringExact(ids[1])),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("operations"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"plan_id": knownvalue.StringExact(ids[0]), "status": knownvalue.StringExact("APPLIED"), "source_recovery_point": knownvalue.StringExact("chk-0")}),
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"plan_id": knownvalue.StringExact(ids[1]), "status": knownvalue.StringExact("APPLIED"), "source_recovery_point": knownvalue.StringExact("chk-1"),
							"offsets": knownvalue.MapExact(map[string]knownvalue.Check{"0": knownvalue.Int64Exact(7), "1": knownvalue.Int64Exact(7)}),
						}),
					})),
				},
			},
			{
				PreConfig: func() {
					if _, err := e.AppendControl(ctx, control, []byte("x"), nil); err != nil {
						t.Fatal(err)
					}
				},
				Config:      e.Provider() + fmt.Sprintf("data \"flinkagents_cleanup_boundary\" \"b\" {\n  control_topic = %q\n}\n", control),
				ExpectError: regexp.MustCompile(`Tombstone In Control Topic`),
			},
		},
	})
}

// A record that is not a control record is reported as one, by topic,
// partition and offset, with the commands to inspect it; not as a plan to
// regenerate.
func TestCleanupBoundaryDataSourceUnreadableRecord(t *testing.T) {
	e := acctest.New(t)
	data, control := e.Name("ds-action-state"), e.Name("ds-control")
	id := e.CreateTopic(data, 1, cleanup.DataTopicSettings)
	e.CreateTopic(control, 1, map[string]string{"cleanup.policy": "compact"})
	e.Produce(data, 1, 10)
	ctx := context.Background()
	p, err := cleanupplan.New("chk-1", data, id, cleanupplan.Offsets{0: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cleanup.Apply(ctx, e.Admin, cleanup.Request{Plan: p, ControlTopic: control}); err != nil {
		t.Fatal(err)
	}
	end, err := e.AppendControl(ctx, control, []byte("junk-key"), []byte("\xff\xfe not JSON"))
	if err != nil {
		t.Fatal(err)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config: e.Provider() + fmt.Sprintf("data \"flinkagents_cleanup_boundary\" \"b\" {\n  control_topic = %q\n}\n", control),
			ExpectError: regexp.MustCompile(fmt.Sprintf(`(?s)Unreadable Record In Control Topic.*%q holds a record.*partition 0,\s+offset %d\s+\(key\s+"junk-key".*--topic\s+%s\s+--partition\s+0\s+--offset\s+%d`,
				control, end, regexp.QuoteMeta(control), end)),
		}},
	})
}

// TestAccCleanupBoundaryDataSourceRefusesTopicName: a control topic name
// Kafka refuses is refused before any request.
func TestAccCleanupBoundaryDataSourceRefusesTopicName(t *testing.T) {
	e := acctest.New(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{{
			Config:      e.Provider() + "data \"flinkagents_cleanup_boundary\" \"x\" {\n  control_topic = \"..\"\n}\n",
			ExpectError: regexp.MustCompile(`(?s)Invalid Kafka Topic Name.*control_topic.*"\.\." is refused by Kafka`),
		}},
	})
}

// TestAccCleanupBoundaryDataSourceWarnsUnfinished: a latest plan only
// COMMITTED (an apply interrupted after its commit, which an invoked action
// cannot report) is named in a warning with how to finish it; once APPLIED
// the warning is gone.
func TestAccCleanupBoundaryDataSourceWarnsUnfinished(t *testing.T) {
	e := acctest.New(t)
	data, control := e.Name("ds-action-state"), e.Name("ds-control")
	id := e.CreateTopic(data, 2, cleanup.DataTopicSettings)
	e.CreateTopic(control, 1, map[string]string{"cleanup.policy": "compact"})
	e.Produce(data, 2, 10)
	p, err := cleanupplan.New("s3://ckpt/orders/chk-3", data, id, cleanupplan.Offsets{0: 3, 1: 3})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	key, value := cleanupplan.EncodeRecord(cleanupplan.StatusCommitted, p)
	if _, err := e.AppendControl(ctx, control, key, value); err != nil {
		t.Fatal(err)
	}
	w := e.Workdir()
	w.Write("main.tf", e.CLIProvider()+fmt.Sprintf("data \"flinkagents_cleanup_boundary\" \"b\" {\n  control_topic = %q\n}\n", control))
	w.Terraform("init")
	out := strings.Join(strings.Fields(string(w.Terraform("plan"))), " ")
	for _, want := range []string{
		"Warning: Cleanup Plan COMMITTED But Not APPLIED",
		fmt.Sprintf("Control topic %q records cleanup plan %s for topic %q (from s3://ckpt/orders/chk-3) as COMMITTED and not APPLIED", control, p.ID(), data),
		"invoking again the action that applied it (terraform apply -invoke=action.flinkagents_apply_cleanup_plan.<name>)",
		"terraform apply of the flinkagents_cleanup_boundary that planned it",
		"apply --plan FILE --control-topic " + control,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the data source does not say %q:\n%s", want, out)
		}
	}
	if _, err := cleanup.Apply(ctx, e.Admin, cleanup.Request{Plan: p, ControlTopic: control}); err != nil {
		t.Fatal(err)
	}
	if out := string(w.Terraform("plan")); strings.Contains(out, "Warning") {
		t.Errorf("an APPLIED plan still warns:\n%s", out)
	}
}
