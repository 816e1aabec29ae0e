package checkpoint

import (
	"context"
	"errors"
	"fmt"
)

// Result is what ReadRecoveryMarkers found.
type Result struct {
	MetadataPath    string // the _metadata file read
	CheckpointID    int64
	MetadataVersion int
	OperatorID      string // 32 lowercase hex digits (the uid hash)
	// OperatorName and OperatorUID are stored from metadata version 5 on;
	// before that OperatorUID is the selector's UID when that selected it.
	OperatorName, OperatorUID string
	// Markers holds every element of the union state: subtasks in ascending
	// index, each subtask's elements in write order. Duplicates are normal
	// (union state is restored in full to every subtask).
	Markers []Marker
}

// ReadRecoveryMarkers reads the "recoveryMarker" union state of the Flink
// Agents operator from a checkpoint or savepoint. path is a chk-N or
// savepoint directory, a _metadata file, or a file: URI of either. Legacy
// (bare map) markers are returned with Legacy set; rejecting them is the
// caller's decision.
func ReadRecoveryMarkers(ctx context.Context, st Storage, path string, sel Selector) (*Result, error) {
	loc, err := resolve(ctx, st, path)
	if err != nil {
		return nil, err
	}
	return readMarkersAt(ctx, st, loc, sel)
}

// ReadPointMarkers is ReadRecoveryMarkers for a point FindRecoveryPoints
// listed: its listing already found the directory and the _metadata in it,
// so the read goes straight to the file instead of asking the store again
// whether the path is a directory and holds one (on an object store that is
// three requests per point, a HEAD and a LIST and a HEAD: for a fleet of
// 1,000 jobs with two retained points each, 6,000 of a plan's 11,000). A
// point Flink removed since the listing fails with ErrNotFound, as through
// ReadRecoveryMarkers.
func ReadPointMarkers(ctx context.Context, st Storage, p RecoveryPoint, sel Selector) (*Result, error) {
	dir, err := normalizePath(p.Path)
	if err != nil {
		return nil, err
	}
	return readMarkersAt(ctx, st, dirLocation(dir), sel)
}

// readMarkersAt reads the recovery markers from the _metadata at loc.
func readMarkersAt(ctx context.Context, st Storage, loc location, sel Selector) (*Result, error) {
	md, err := loadMetadataAt(ctx, st, loc)
	if err != nil {
		return nil, err
	}
	op, err := selectOperator(md, sel)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", loc.metadataPath, err)
	}
	res := &Result{
		MetadataPath:    loc.metadataPath,
		CheckpointID:    md.CheckpointID,
		MetadataVersion: md.Version,
		OperatorID:      op.IDHex(),
		OperatorName:    op.Name,
		OperatorUID:     op.UID,
	}
	if res.OperatorUID == "" && sel.UID != "" && op.ID == OperatorIDFromUID(sel.UID) {
		res.OperatorUID = sel.UID
	}
	if err := checkUnionState(op, recoveryMarkerState); err != nil {
		return nil, fmt.Errorf("%s: %w", loc.metadataPath, err)
	}
	els, err := stateElements(ctx, st, loc, op, recoveryMarkerState)
	if err != nil {
		return nil, err
	}
	dialect := dialectForMetadataVersion(md.Version)
	res.Markers = make([]Marker, 0, len(els))
	for _, e := range els {
		m, err := decodeMarker(e.Data, dialect)
		if err != nil {
			return nil, fmt.Errorf("operator %s subtask %d (%s, metadata version %d): %w",
				op.IDHex(), e.Subtask, dialect, md.Version, relocate(err, e.Stream, e.Offset, e.Compressed))
		}
		res.Markers = append(res.Markers, m)
	}
	return res, nil
}

// loadMetadataAt reads and parses the _metadata at loc.
func loadMetadataAt(ctx context.Context, st Storage, loc location) (*Metadata, error) {
	b, err := st.ReadFile(ctx, loc.metadataPath)
	if err != nil {
		if notFound(err) {
			return nil, fmt.Errorf("%w: %s: %v", ErrNotFound, loc.metadataPath, err)
		}
		return nil, fmt.Errorf("read %s: %w", loc.metadataPath, err)
	}
	md, err := ParseMetadata(b)
	if err != nil {
		return nil, nameFile(err, loc.metadataPath)
	}
	return md, nil
}

// nameFile adds the file name to parser errors.
func nameFile(err error, file string) error {
	var ce *CorruptError
	if errors.As(err, &ce) {
		c := *ce
		c.File = file
		return &c
	}
	var ve *VersionError
	if errors.As(err, &ve) {
		v := *ve
		v.File = file
		return &v
	}
	var me *MetadataEndError
	if errors.As(err, &me) {
		m := *me
		m.File = file
		return &m
	}
	return err
}

// checkUnionState requires that some subtask holds the state and that every
// subtask holding it uses UNION mode.
func checkUnionState(op *Operator, name string) error {
	found := false
	for _, sub := range op.Subtasks {
		if sub.Managed == nil {
			continue
		}
		if s := sub.Managed.State(name); s != nil {
			if s.Mode != ModeUnion {
				return fmt.Errorf("%w: operator %s subtask %d holds %q in mode %s, want UNION", ErrStateNotFound, op.IDHex(), sub.Index, name, s.Mode)
			}
			found = true
		}
	}
	if found {
		return nil
	}
	why := fmt.Sprintf("its managed operator states are %v", stateNames(op))
	if op.FullyFinished {
		why = "the operator had finished"
	}
	return fmt.Errorf("%w: operator %s has no state %q; %s", ErrStateNotFound, describeOperator(op), name, why)
}
