package checkpoint

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
)

// SavepointSpec describes a savepoint for WriteSavepoint.
type SavepointSpec struct {
	// MetadataVersion is 4 (Flink 1.20, Kryo 2.24) or 5 (Flink 2.0, Kryo 5);
	// it also picks the Kryo dialect of the markers.
	MetadataVersion int
	CheckpointID    int64
	// OperatorUID gives the operator ID (OperatorIDFromUID); from version 5
	// it is also stored, with OperatorName.
	OperatorUID  string
	OperatorName string
	// MaxParallelism defaults to 128, Flink's default for small jobs.
	MaxParallelism int32
	// Markers holds each subtask's recoveryMarker elements; its length is
	// the operator's parallelism. A nil entry writes no managed state for
	// that subtask.
	Markers [][]Marker
	// StateFiles puts each subtask's operator-state stream in a file next to
	// _metadata behind a relative handle, as Flink does for streams above the
	// 20 KB inline threshold. By default streams are inlined in _metadata.
	StateFiles bool
}

// WriteSavepoint writes a savepoint directory holding one operator with a
// UNION "recoveryMarker" state, for tests and demos of this reader.
//
// It is not a complete Flink savepoint: the operator-state header has no
// serializer snapshots and _metadata has no trailing checkpoint properties,
// both of which Flink's own restore requires. The marker bytes themselves
// are exactly what Flink's Kryo writes.
func WriteSavepoint(dir string, spec SavepointSpec) error {
	if spec.MetadataVersion != 4 && spec.MetadataVersion != 5 {
		return fmt.Errorf("write savepoint: metadata version %d, want 4 or 5", spec.MetadataVersion)
	}
	if spec.OperatorUID == "" || len(spec.Markers) == 0 {
		return fmt.Errorf("write savepoint: an operator uid and at least one subtask are required")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	op := Operator{
		ID:             OperatorIDFromUID(spec.OperatorUID),
		Parallelism:    int32(len(spec.Markers)),
		MaxParallelism: spec.MaxParallelism,
	}
	if op.MaxParallelism == 0 {
		op.MaxParallelism = 128
	}
	if spec.MetadataVersion >= 5 {
		op.Name, op.UID = spec.OperatorName, spec.OperatorUID
	}
	dialect := dialectForMetadataVersion(spec.MetadataVersion)
	for i, markers := range spec.Markers {
		sub := Subtask{Index: int32(i)}
		if markers != nil {
			elements := make([][]byte, len(markers))
			for j, m := range markers {
				elements[j] = encodeMarker(m, dialect)
			}
			stream, infos := encodeOperatorStream([]listState{{Name: recoveryMarkerState, Mode: ModeUnion, Elements: elements}}, false)
			h, err := placeStream(dir, stream, spec.StateFiles)
			if err != nil {
				return err
			}
			sub.Managed = &OperatorStateHandle{States: infos, Delegate: h}
		}
		op.Subtasks = append(op.Subtasks, sub)
	}
	md := &Metadata{Version: spec.MetadataVersion, CheckpointID: spec.CheckpointID, Operators: []Operator{op}}
	return os.WriteFile(filepath.Join(dir, metadataFileName), encodeMetadata(md), 0o644)
}

// placeStream inlines a stream or writes it to a fresh UUID-like file name.
func placeStream(dir string, stream []byte, toFile bool) (StreamHandle, error) {
	if !toFile {
		return StreamHandle{Kind: KindInline, Data: stream, Size: int64(len(stream))}, nil
	}
	var id [16]byte
	if _, err := rand.Read(id[:]); err != nil {
		return StreamHandle{}, err
	}
	name := hex.EncodeToString(id[:])
	if err := os.WriteFile(filepath.Join(dir, name), stream, 0o644); err != nil {
		return StreamHandle{}, err
	}
	return StreamHandle{Kind: KindRelativeFile, Path: name, Size: int64(len(stream))}, nil
}
