package tfconv

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

func TestPartitionSummaries(t *testing.T) {
	planned := cleanupplan.Offsets{0: 200, 1: 200, 2: 200, 10: 200}
	target := cleanupplan.Offsets{0: 200, 1: 200, 2: 250, 10: 200}
	deleted := []cleanup.Range{{Partition: 0, From: 150, To: 200}, {Partition: 2, From: 249, To: 250}}
	gone := []cleanup.Range{{Partition: 10, From: 200, To: 230}}
	got := PartitionSummaries(planned, target, deleted, gone)
	want := types.MapValueMust(types.StringType, map[string]attr.Value{
		"0":  types.StringValue("deletes 50 records from offset 150"),
		"1":  types.StringValue("nothing to delete"),
		"2":  types.StringValue("deletes 1 record from offset 249; recorded boundary 250 (higher plan recorded elsewhere)"),
		"10": types.StringValue("nothing to delete (start offset 230)"),
	})
	if !got.Equal(want) {
		t.Fatalf("got %v\nwant %v", got, want)
	}
}
