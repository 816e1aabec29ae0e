package resources_test

import (
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// TestCleanupBoundaryApplyEndsWhenBrokerStopsAnswering: the broker takes
// the COMMITTED append and never answers. terraform apply must end
// within the provider's timeout plus a margin for Terraform itself, say
// what it waited for, and the next apply must converge. kfake injects the
// silence, so this test always runs in process.
func TestCleanupBoundaryApplyEndsWhenBrokerStopsAnswering(t *testing.T) {
	e := acctest.NewInProcess(t)
	b := newBoundaryEnvOn(t, e, 2, 10)
	var silent atomic.Bool
	e.Cluster.ControlKey(int16(kmsg.Produce), func(kmsg.Request) (kmsg.Response, error, bool) {
		e.Cluster.KeepControl()
		return nil, nil, silent.Load() // handled and never answered while silent
	})
	plan := b.plan(t, "file:/checkpoints/orders/chk-7", func(int32) int64 { return 4 })
	const timeout = 3 * time.Second
	config := strings.Replace(b.config(plan), `timeout = "20s"`, `timeout = "3s"`, 1)
	config = strings.Replace(config, "plan_json ", "timeouts {\n    create = \"1m\"\n  }\n  plan_json ", 1)
	addr := "flinkagents_cleanup_boundary.orders"
	var start time.Time
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { silent.Store(true); start = time.Now() },
				Config:      config,
				ExpectError: regexp.MustCompile(`(?s)Kafka Operation Timed Out.*no\s+acknowledgement.*nothing\s+was\s+recorded`),
			},
			{
				PreConfig: func() {
					// Terraform's own plan and apply take about a second here.
					took := time.Since(start)
					t.Logf("terraform plan+apply against a silent broker ended after %.1fs (provider timeout %s)", took.Seconds(), timeout)
					if took > timeout+8*time.Second {
						t.Fatalf("terraform apply took %s against a silent broker with a %s timeout", took, timeout)
					}
					if s := b.StartOffsets(b.data); s[0] != 0 || s[1] != 0 {
						t.Fatalf("records deleted although nothing was committed: %v", s)
					}
					silent.Store(false)
				},
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("status"), knownvalue.StringExact("APPLIED")),
				},
				Check: func(*terraformState) error { return b.readAbove(map[int32]int64{0: 4, 1: 4}, 10) },
			},
		},
	})
}
