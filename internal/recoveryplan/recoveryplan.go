// Package recoveryplan derives a cleanup plan from a Flink recovery point
// (a checkpoint or savepoint), as the Java tool's plan command does: read
// the recovery markers of the Flink Agents operator (internal/checkpoint),
// then merge them into one plan (internal/cleanupplan). It knows nothing
// about Terraform; both data sources, a test or a CLI call it.
package recoveryplan

import (
	"context"
	"fmt"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// Result is a plan and what was read to make it.
type Result struct {
	Plan cleanupplan.Plan
	// Read says which _metadata, checkpoint, operator and markers the plan
	// comes from.
	Read *checkpoint.Result
}

// FromPath reads the recovery point at path (a chk-N or savepoint
// directory, a _metadata file, or a URI of either) and derives its plan;
// the plan's sourceRecoveryPoint is path exactly as given, so the plan ID
// matches the Java tool's for the same string. Errors are the checkpoint
// reader's (checkpoint.Err*) or the plan model's (cleanupplan.Err*).
func FromPath(ctx context.Context, st checkpoint.Storage, path string, sel checkpoint.Selector) (Result, error) {
	read, err := checkpoint.ReadRecoveryMarkers(ctx, st, path, sel)
	if err != nil {
		return Result{}, err
	}
	plan, err := cleanupplan.FromMarkers(path, planMarkers(read.Markers))
	if err != nil {
		return Result{Read: read}, fmt.Errorf("deriving a plan from %d recovery markers in %s: %w", len(read.Markers), read.MetadataPath, err)
	}
	return Result{Plan: plan, Read: read}, nil
}

// FromPoint is FromPath for a point FindRecoveryPoints listed. A chk-N
// directory must also hold checkpoint N: one whose _metadata records
// another ID was copied or renamed, and its markers may not be the ones
// its name promises (then Result is empty). When only the plan cannot be
// derived, Result.Read still says what was read.
func FromPoint(ctx context.Context, st checkpoint.Storage, p checkpoint.RecoveryPoint, sel checkpoint.Selector) (Result, error) {
	read, err := checkpoint.ReadPointMarkers(ctx, st, p, sel)
	if err != nil {
		return Result{}, err
	}
	if p.Kind == checkpoint.KindCheckpoint && read.CheckpointID != p.NameID {
		return Result{}, fmt.Errorf("%w: the directory is named chk-%d but its _metadata records checkpoint %d; "+
			"was it copied or renamed? Use the original directory", checkpoint.ErrCorrupt, p.NameID, read.CheckpointID)
	}
	plan, err := cleanupplan.FromMarkers(p.Path, planMarkers(read.Markers))
	if err != nil {
		return Result{Read: read}, fmt.Errorf("merging %d recovery markers from %s: %w", len(read.Markers), read.MetadataPath, err)
	}
	return Result{Plan: plan, Read: read}, nil
}

// planMarkers carries the reader's markers into the plan model, which
// does not depend on the reader.
func planMarkers(in []checkpoint.Marker) []cleanupplan.Marker {
	out := make([]cleanupplan.Marker, len(in))
	for i, m := range in {
		out[i] = cleanupplan.Marker{Legacy: m.Legacy, SchemaVersion: m.SchemaVersion, Topic: m.Topic, TopicID: m.TopicID, Offsets: m.Offsets}
	}
	return out
}
