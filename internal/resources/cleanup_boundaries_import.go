package resources

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
)

// ImportState adopts, for each key=control_topic pair of the import ID, the
// newest plan recorded in that control topic, whoever recorded it (this
// provider or the Java tool); the Read that Terraform runs next fills in
// each entry's status and partitions.
func (r *boundariesResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	pairs, ok := parseBoundariesImportID(req.ID)
	if !ok {
		resp.Diagnostics.Append(diagnostics.BadBoundariesImportID(req.ID))
		return
	}
	kafka, diags := r.clients.KafkaClient(ctx, "importing cleanup boundaries")
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	keys := slices.Sorted(maps.Keys(pairs))
	found := make([]boundaryEntry, len(keys))
	said := make([]diag.Diagnostics, len(keys))
	eachEntry(len(keys), func(i int) {
		control := pairs[keys[i]]
		op := fmt.Sprintf("importing the cleanup boundary recorded in control topic %q", control)
		log, err := cleanup.History(ctx, kafka, control)
		if err != nil {
			said[i].Append(r.clients.CleanupDiag(op, err))
			return
		}
		latest, ok := log.Latest()
		if !ok {
			said[i].Append(diagnostics.NoBoundaryRecorded(op))
			return
		}
		found[i] = importedEntry(control, latest)
	})
	entries := map[string]boundaryEntry{}
	for i, key := range keys {
		for _, d := range said[i] {
			resp.Diagnostics.Append(forEntry(key, d))
		}
		entries[key] = found[i]
	}
	if resp.Diagnostics.HasError() {
		return
	}
	m := boundariesModel{ID: types.StringValue(boundariesID), OnRefusal: types.StringValue(onRefusalHold), Timeouts: nullTimeouts()}
	m.Boundaries = entriesValue(ctx, entries, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// parseBoundariesImportID reads "key=control_topic,key=control_topic".
func parseBoundariesImportID(id string) (map[string]string, bool) {
	pairs := map[string]string{}
	for _, part := range strings.Split(id, ",") {
		key, control, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || key == "" || control == "" {
			return nil, false
		}
		if _, dup := pairs[key]; dup {
			return nil, false
		}
		pairs[key] = control
	}
	return pairs, len(pairs) > 0
}
