// Package tfconv converts core values (offsets, per-partition summaries) to
// Terraform values and core rules (topic names) to schema validators, shared by
// resources and data sources.
package tfconv

import (
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// Offsets renders partition offsets as a Terraform map keyed by the
// partition's decimal string (Terraform map keys are strings).
func Offsets(o cleanupplan.Offsets) types.Map {
	elems := make(map[string]attr.Value, len(o))
	for p, off := range o {
		elems[strconv.FormatInt(int64(p), 10)] = types.Int64Value(off)
	}
	return types.MapValueMust(types.Int64Type, elems)
}
