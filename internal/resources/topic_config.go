package resources

import (
	"context"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// reservedKeysValidator refuses config keys the resource enforces itself,
// explaining why, at validate time.
type reservedKeysValidator struct {
	reserved map[string]string // key -> why it is reserved
}

func (v reservedKeysValidator) Description(context.Context) string {
	return "refuses config keys the resource enforces"
}

func (v reservedKeysValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v reservedKeysValidator) ValidateMap(ctx context.Context, req validator.MapRequest, resp *validator.MapResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range req.ConfigValue.Elements() {
			if !yield(k) {
				return
			}
		}
	}) {
		if why, ok := v.reserved[strings.TrimSpace(k)]; ok {
			resp.Diagnostics.Append(diagnostics.ReservedTopicSetting(req.Path.AtMapKey(k), k, why))
		}
	}
}

// configFromMap turns a Terraform map of strings into Go (null -> empty).
func configFromMap(ctx context.Context, m types.Map) (map[string]string, diag.Diagnostics) {
	out := map[string]string{}
	if m.IsNull() || m.IsUnknown() {
		return out, nil
	}
	diags := m.ElementsAs(ctx, &out, false)
	return out, diags
}

// liveManagedConfig reads back only the keys the user manages: keys the
// user did not write never appear in state, so broker defaults and settings
// made by others never show as drift. A managed key that is no longer a
// topic override reads as its live value, which differs from the
// configuration and plans an update that restores it.
func liveManagedConfig(managed types.Map, live map[string]kafkaops.ConfigValue) types.Map {
	if managed.IsNull() || managed.IsUnknown() {
		return managed
	}
	out := make(map[string]attr.Value, len(managed.Elements()))
	for k := range managed.Elements() {
		v, ok := live[k]
		switch {
		case !ok || v.Null:
			out[k] = types.StringValue("")
		default:
			out[k] = types.StringValue(v.Value)
		}
	}
	return types.MapValueMust(types.StringType, out)
}

// configChanges computes the incremental alter from old to new managed keys:
// keys dropped from config are removed as overrides (back to the broker
// default); keys in both or new are set.
func configChanges(oldCfg, newCfg map[string]string) (set map[string]string, remove []string) {
	set = map[string]string{}
	for k, v := range newCfg {
		set[k] = v
	}
	for k := range oldCfg {
		if _, ok := newCfg[k]; !ok {
			remove = append(remove, k)
		}
	}
	slices.Sort(remove)
	return set, remove
}
