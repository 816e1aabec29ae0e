package resources

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// keepStateWhenUnconfigured plans an optional, computed string left out of
// the configuration as the value in state, even null: an import learns what
// it can, and a configuration that omits the attribute then plans nothing.
// (UseStateForUnknown keeps only non-null state.)
type keepStateWhenUnconfigured struct{}

func (keepStateWhenUnconfigured) Description(context.Context) string {
	return "when not configured, keeps the value in state (null on create)"
}

func (m keepStateWhenUnconfigured) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (keepStateWhenUnconfigured) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if !req.ConfigValue.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	resp.PlanValue = req.StateValue // null on create
}

// defaultOnCreate plans an optional, computed int64 left out of the
// configuration as def when creating and as the value in state afterwards,
// so an imported topic of any size plans no change. A schema Default would
// plan def against every live value.
func defaultOnCreate(def int64) planmodifier.Int64 {
	return int64DefaultOnCreate{def: def}
}

type int64DefaultOnCreate struct{ def int64 }

func (m int64DefaultOnCreate) Description(context.Context) string {
	return fmt.Sprintf("when not configured, %d on create, then the value in state", m.def)
}

func (m int64DefaultOnCreate) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (m int64DefaultOnCreate) PlanModifyInt64(_ context.Context, req planmodifier.Int64Request, resp *planmodifier.Int64Response) {
	if !req.ConfigValue.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	if req.State.Raw.IsNull() {
		resp.PlanValue = types.Int64Value(m.def)
		return
	}
	if !req.StateValue.IsNull() {
		resp.PlanValue = req.StateValue
	}
}
