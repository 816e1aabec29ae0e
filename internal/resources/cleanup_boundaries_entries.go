package resources

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/actionstate/terraform-provider-flinkagents/internal/diagnostics"
	"github.com/actionstate/terraform-provider-flinkagents/internal/fanout"
	"github.com/actionstate/terraform-provider-flinkagents/internal/tfconv"
)

// The entries of flinkagents_cleanup_boundaries: converting the map, naming
// an entry in a diagnostic, and running one function per entry side by side.

// entriesOf reads a known boundaries map; a null map has no entries.
func entriesOf(ctx context.Context, m types.Map, diags *diag.Diagnostics) map[string]boundaryEntry {
	if m.IsNull() || m.IsUnknown() {
		return map[string]boundaryEntry{}
	}
	entries, d := tfconv.StructMap[boundaryEntry](ctx, m)
	diags.Append(d...)
	return entries
}

// entriesValue is the boundaries map holding entries.
func entriesValue(ctx context.Context, entries map[string]boundaryEntry, diags *diag.Diagnostics) types.Map {
	v, d := tfconv.MapOfStructs(ctx, boundaryEntryType, entries)
	diags.Append(d...)
	return v
}

// entryPath is the attribute path of one entry.
func entryPath(key string) path.Path { return path.Root("boundaries").AtMapKey(key) }

// forEntry names the entry in a diagnostic produced for one boundary, as
// flinkagents_cleanup_plans names its jobs (diagnostics.ForJob): the
// operator at 3 a.m. reads which of a thousand boundaries it is about.
func forEntry(key string, d diag.Diagnostic) diag.Diagnostic {
	return diagnostics.ForBoundary(key, entryAttr(key, d), d)
}

// entryAttr is the path a diagnostic about entry key points at: the entry,
// or the place inside it that d already names.
func entryAttr(key string, d diag.Diagnostic) path.Path {
	at := entryPath(key)
	if withPath, ok := d.(diag.DiagnosticWithPath); ok && len(withPath.Path().Steps()) > 0 && withPath.Path().Steps()[0].Equal(at.Steps()[0]) {
		at = withPath.Path()
	}
	return at
}

// eachEntry runs fn(i) for i in [0, n), fleetConcurrency at a time: for
// what writes (each boundary's apply opens a producer of its own).
func eachEntry(n int, fn func(i int)) { fanout.Each(n, fleetConcurrency, fn) }

// eachEntryTogether runs fn(i) for i in [0, n), fleetTogetherConcurrency
// at a time: for work that holds no connection of its own (reads when
// refreshing, planning or importing; the topic fleet's creates, updates
// and deletes) and reaches Kafka through the client's coalescer, so the
// more of it asks at once, the fewer requests carry it.
func eachEntryTogether(n int, fn func(i int)) { fanout.Each(n, fleetTogetherConcurrency, fn) }
