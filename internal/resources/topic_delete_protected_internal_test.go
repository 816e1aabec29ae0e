package resources

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestDeleteOfAProtectedTopicSaysItIsApplying: a delete that reaches a
// protected topic (a -target, an old plan file) is refused at apply time,
// and says so; it does not claim to be planning.
func TestDeleteOfAProtectedTopicSaysItIsApplying(t *testing.T) {
	ctx := context.Background()
	s := actionStateTopicSchema()
	state := tfsdk.State{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(ctx), nil)}
	for attr, v := range map[string]any{"id": "orders", "name": "orders", "deletion_protection": true} {
		if d := state.SetAttribute(ctx, path.Root(attr), v); d.HasError() {
			t.Fatal(d)
		}
	}
	var resp resource.DeleteResponse
	NewActionStateTopic().Delete(ctx, resource.DeleteRequest{State: state}, &resp)
	errs := resp.Diagnostics.Errors()
	if len(errs) != 1 || errs[0].Summary() != "Deletion Protection Is On" {
		t.Fatalf("diagnostics %v; want one Deletion Protection Is On", resp.Diagnostics)
	}
	if d := errs[0].Detail(); strings.Contains(d, "planning") || !strings.HasPrefix(d, `While destroying action-state topic "orders"`) || !strings.Contains(d, "nothing was deleted") {
		t.Errorf("detail does not say what apply was doing:\n%s", d)
	}
}
