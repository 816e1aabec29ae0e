package resources

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanup"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// entryFacts is what the latest refresh read of one boundary's topics: the
// effective boundary its control topic records and the start offsets of its
// action-state topic. The review of a change (records_to_delete,
// partitions) is computed from them rather than from what Kafka says at
// that moment, because Terraform plans every resource again when it
// applies, from the state of the plan's refresh, and requires the same
// review: a topic recreated or records deleted between `terraform plan
// -out` and its apply must hold one entry (the apply refuses it), not make
// the whole plan inconsistent. They are kept in the resource's private
// state, by entry key ("" for the single resource).
type entryFacts struct {
	TopicID  string          `json:"topic_id"`
	Boundary map[int32]int64 `json:"boundary"`
	Starts   map[int32]int64 `json:"starts"`
}

// factsKey is the private-state key of the facts.
const factsKey = "refresh_facts"

// privateState is the framework's private state of a request or response.
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateWriter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// factsOf reads what the last refresh recorded; none when it recorded
// nothing (a state written before, or an apply since).
func factsOf(ctx context.Context, private privateState) map[string]entryFacts {
	facts := map[string]entryFacts{}
	if private == nil {
		return facts
	}
	b, diags := private.GetKey(ctx, factsKey)
	if diags.HasError() || len(b) == 0 {
		return facts
	}
	if err := json.Unmarshal(b, &facts); err != nil {
		return map[string]entryFacts{} // written by another version: read again on the next refresh
	}
	return facts
}

// keepFacts writes facts to the private state.
func keepFacts(ctx context.Context, private privateWriter, facts map[string]entryFacts, diags *diag.Diagnostics) {
	b, err := json.Marshal(facts)
	if err != nil {
		return
	}
	diags.Append(private.SetKey(ctx, factsKey, b)...)
}

// factsFrom is what an inspection read, nil when it could not compare the
// topic with the history.
func factsFrom(ins cleanup.Inspection) *entryFacts {
	if ins.Starts == nil || ins.Uncompared != nil {
		return nil
	}
	return &entryFacts{TopicID: ins.TopicID, Boundary: ins.Log.Boundary(), Starts: ins.Starts}
}

// review is what applying p deletes by these facts: the effective boundary
// the apply completes, the records it deletes and the lines of partitions.
// ok is false when the facts are of another topic or partition set.
func (f entryFacts) review(p cleanupplan.Plan) (target cleanupplan.Offsets, records int64, partitions types.Map, ok bool) {
	if f.TopicID != p.TopicID || len(f.Starts) != len(p.Offsets) {
		return nil, 0, types.Map{}, false
	}
	target = cleanupplan.Offsets{}
	for _, part := range p.Offsets.Partitions() {
		if _, has := f.Starts[part]; !has {
			return nil, 0, types.Map{}, false
		}
		target[part] = max(p.Offsets[part], f.Boundary[part])
	}
	ranges := cleanup.Remaining(target, f.Starts)
	return target, cleanup.Records(ranges), tfconv.PartitionSummaries(p.Offsets, target, ranges, cleanup.GonePast(target, f.Starts)), true
}
