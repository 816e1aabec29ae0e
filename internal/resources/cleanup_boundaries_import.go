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
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// ImportState adopts, for each key=control_topic pair of the import ID, the
// newest plan recorded in that control topic, whoever recorded it (this
// provider or the Java tool); the Read that Terraform runs next fills in
// each entry's status and partitions.
func (r *boundariesResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	pairs, err := parseBoundariesImportID(req.ID)
	if err != nil {
		resp.Diagnostics.Append(diagnostics.BadBoundariesImportID(req.ID, err))
		return
	}
	kafka, diags := r.clients.KafkaClient(ctx, "importing cleanup boundaries")
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	keys := slices.Sorted(maps.Keys(pairs))
	found := make([]boundaryEntry, len(keys))
	said := make([]diag.Diagnostics, len(keys))
	eachEntryTogether(len(keys), func(i int) {
		control := pairs[keys[i]]
		op := fmt.Sprintf("importing the cleanup boundary recorded in control topic %q", control)
		log, err := cleanup.History(ctx, kafka, control)
		if err != nil {
			said[i].Append(importHistoryDiag(r.clients, op, control, err))
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

// parseBoundariesImportID reads "key=control_topic,key=control_topic",
// spaces around keys and names ignored. It refuses, naming the pair: a pair
// without "=", an empty key or name, a key given twice, a control topic
// given twice (one control topic records one boundary: two entries on it
// would apply two plans to one history), and a name the topic-name rule
// refuses.
func parseBoundariesImportID(id string) (map[string]string, error) {
	pairs := map[string]string{}
	keyOf := map[string]string{} // control topic -> the key that named it first
	for i, part := range strings.Split(id, ",") {
		key, control, ok := strings.Cut(part, "=")
		key, control = strings.TrimSpace(key), strings.TrimSpace(control)
		switch {
		case !ok:
			return nil, fmt.Errorf("pair %d, %q, has no \"=\"", i+1, part)
		case key == "":
			return nil, fmt.Errorf("pair %d, %q, has no key before \"=\"", i+1, part)
		case control == "":
			return nil, fmt.Errorf("pair %d, %q, names no control topic after \"=\"", i+1, part)
		}
		if _, dup := pairs[key]; dup {
			return nil, fmt.Errorf("key %q is given twice", key)
		}
		if other, dup := keyOf[control]; dup {
			return nil, fmt.Errorf("control topic %q is given for keys %q and %q; each boundary needs a control topic of its own", control, other, key)
		}
		if err := kafkaops.CheckTopicName(control); err != nil {
			return nil, fmt.Errorf("key %q: %w", key, err)
		}
		pairs[key], keyOf[control] = control, key
	}
	return pairs, nil
}
