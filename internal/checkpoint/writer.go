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
	// SnapshotCompression frames the elements with snappy, as Flink does
	// with execution.checkpointing.snapshot-compression (default false).
	SnapshotCompression bool
}

// WriteSavepoint writes a canonical savepoint directory holding one
// operator with a UNION "recoveryMarker" state, for tests and demos.
//
// Flink's State Processor API reads it (scripts/check-writer-with-flink.sh
// proves this against Flink 1.20 for version 4 and Flink 2.0 for version 5;
// Flink 2.3 read version 5 too when checked by hand):
// the operator-state stream carries the state's meta info with the
// KryoSerializerSnapshot Flink writes for TypeInformation.of(Object.class),
// the markers are the bytes Flink's Kryo writes, and _metadata ends with the
// checkpoint properties of a canonical savepoint. The operator has no keyed
// state, no coordinator state and no other operator state (a Flink Agents
// job would also hold identifier_state and currentProcessingKeys); starting
// a job from it is not tested.
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
			stream, infos := encodeOperatorStream([]listState{{Name: recoveryMarkerState, Mode: ModeUnion, Elements: elements}}, spec.SnapshotCompression)
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

// placeStream inlines a stream or writes it to a file next to _metadata.
// Either way it gets a fresh random UUID as its name, as Flink names state
// files and the inline handles that stand for them; Flink merges inline
// handles with equal names when it redistributes union state, which would
// silently drop subtasks' markers.
func placeStream(dir string, stream []byte, toFile bool) (StreamHandle, error) {
	name, err := randomUUID()
	if err != nil {
		return StreamHandle{}, err
	}
	if !toFile {
		return StreamHandle{Kind: KindInline, Path: name, Data: stream, Size: int64(len(stream))}, nil
	}
	if err := os.WriteFile(filepath.Join(dir, name), stream, 0o644); err != nil {
		return StreamHandle{}, err
	}
	return StreamHandle{Kind: KindRelativeFile, Path: name, Size: int64(len(stream))}, nil
}

// randomUUID is java.util.UUID.randomUUID().toString(): version 4, variant 2.
func randomUUID() (string, error) {
	var id [16]byte
	if _, err := rand.Read(id[:]); err != nil {
		return "", err
	}
	id[6] = id[6]&0x0F | 0x40
	id[8] = id[8]&0x3F | 0x80
	h := hex.EncodeToString(id[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:], nil
}
