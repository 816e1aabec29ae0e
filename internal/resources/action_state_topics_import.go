package resources

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
)

// ImportState adopts an existing fleet: the ID names each operator's
// topics (key=action_state_topic[:control_topic], comma-separated), and the
// Read that follows fills in the rest, as importing each topic would.
// Protected, managing no extra config keys. An action-state topic that
// holds control records is refused, as flinkagents_action_state_topic
// refuses it.
func (r *fleetTopicsResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	entries, err := parseFleetImportID(req.ID)
	if err != nil {
		resp.Diagnostics.Append(diagnostics.InvalidFleetImportID(req.ID, err))
		return
	}
	kafka, diags := r.clients.KafkaClient(ctx, fmt.Sprintf("importing the topics of %d operators", len(entries)))
	if resp.Diagnostics.Append(diags...); resp.Diagnostics.HasError() {
		return
	}
	keys := slices.Sorted(maps.Keys(entries))
	said := make([]diag.Diagnostics, len(keys))
	eachEntry(len(keys), func(i int) {
		name := entries[keys[i]].ActionStateTopic.Name.ValueString()
		doing := fmt.Sprintf("importing operator %q's action-state topic %q, checking that it is not a cleanup control topic", keys[i], name)
		d, missing := refuseControlTopicNamed(ctx, r.clients, kafka, name, doing)
		if missing != nil {
			d = diag.Diagnostics{diagnostics.ImportedTopicNotFound("action-state topic", name, missing)}
		}
		said[i] = d
	})
	for _, d := range said {
		resp.Diagnostics.Append(d...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), fleetTopicsID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("deletion_protection"), true)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("operators"), fleetEntriesValue(ctx, entries, &resp.Diagnostics))...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImporting, []byte("true"))...)
}

// parseFleetImportID reads key=action_state_topic[:control_topic],...
func parseFleetImportID(id string) (map[string]fleetEntry, error) {
	entries := map[string]fleetEntry{}
	for part := range strings.SplitSeq(id, ",") {
		key, topics, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || key == "" {
			return nil, fmt.Errorf("%q is not key=action_state_topic[:control_topic]", part)
		}
		if _, twice := entries[key]; twice {
			return nil, fmt.Errorf("operator %q is named twice", key)
		}
		data, control, hasControl := strings.Cut(topics, ":")
		e := fleetEntry{ActionStateTopic: importedDataTopic(data)}
		if err := kafkaops.CheckTopicName(data); err != nil {
			return nil, fmt.Errorf("operator %q: %w", key, err)
		}
		if hasControl {
			if err := kafkaops.CheckTopicName(control); err != nil {
				return nil, fmt.Errorf("operator %q's control topic: %w", key, err)
			}
			e.ControlTopic = &fleetControlTopic{Name: types.StringValue(control), ReplicationFactor: types.Int64Null(), Config: types.MapNull(types.StringType),
				TopicID: types.StringNull(), CleanupPolicy: types.StringNull()}
		}
		entries[key] = e
	}
	return entries, nil
}

func importedDataTopic(name string) fleetDataTopic {
	return fleetDataTopic{Name: types.StringValue(name), Partitions: types.Int64Null(), ReplicationFactor: types.Int64Null(),
		Config: types.MapNull(types.StringType), TopicID: types.StringNull(), CleanupPolicy: types.StringNull(),
		RetentionMs: types.StringNull(), RetentionBytes: types.StringNull()}
}

// privateImporting marks the Read right after an import: it reads topics
// with no ID yet, which must exist.
const privateImporting = "importing"

func fleetImporting(ctx context.Context, private privateGetter, diags *diag.Diagnostics) bool {
	raw, d := private.GetKey(ctx, privateImporting)
	diags.Append(d...)
	return string(raw) == "true"
}
