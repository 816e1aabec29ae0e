package resources_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/actionstate/terraform-provider-flinkagents/internal/acctest"
)

// TestCleanupBoundaryControlTopicMinInSyncAboveReplicas: a one-replica
// control topic with min.insync.replicas=2 can never take an acks=all
// append (on Kafka 3.6.2 the apply ended as a plain timeout). The apply is
// refused naming the topic, the setting and the replica count, with nothing
// recorded or deleted; once the setting is fixed, the same apply converges.
func TestCleanupBoundaryControlTopicMinInSyncAboveReplicas(t *testing.T) {
	b := newBoundaryEnv(t, 2, 10)
	ctx := context.Background()
	b.SetTopicConfigs(b.control, map[string]string{"min.insync.replicas": "2"})
	plan := b.plan(t, "file:/checkpoints/orders/chk-7", func(int32) int64 { return 4 })
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories,
		Steps: []resource.TestStep{
			{
				Config: b.config(plan),
				ExpectError: regexp.MustCompile(fmt.Sprintf(`(?s)Not Enough In-Sync Replicas To Write.*topic\s+%q\s+partition\s+0.*min.insync.replicas=2,\s+but\s+1\s+replicas.*replication\s+factor\s+to\s+at\s+least\s+2`,
					b.control)),
			},
			{
				PreConfig: func() {
					if s := b.StartOffsets(b.data); s[0] != 0 || s[1] != 0 {
						t.Fatalf("records deleted although nothing could be recorded: %v", s)
					}
					if ends, err := b.Admin.EndOffsets(ctx, b.control); err != nil || ends[0] != 0 {
						t.Fatalf("control topic end offsets %v (%v), want nothing written", ends, err)
					}
					b.SetTopicConfigs(b.control, map[string]string{"min.insync.replicas": "1"})
				},
				Config: b.config(plan),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("flinkagents_cleanup_boundary.orders", tfjsonpath.New("status"), knownvalue.StringExact("APPLIED")),
				},
				Check: func(*terraformState) error { return b.readAbove(map[int32]int64{0: 4, 1: 4}, 10) },
			},
		},
	})
}
