package checkpoint

import (
	"encoding/binary"

	"github.com/klauspost/compress/snappy"
)

// dataOutput is the writing twin of dataInput (Java DataOutputStream).
type dataOutput struct{ b []byte }

func (o *dataOutput) u8(v byte)   { o.b = append(o.b, v) }
func (o *dataOutput) i16(v int16) { o.b = binary.BigEndian.AppendUint16(o.b, uint16(v)) }
func (o *dataOutput) i32(v int32) { o.b = binary.BigEndian.AppendUint32(o.b, uint32(v)) }
func (o *dataOutput) i64(v int64) { o.b = binary.BigEndian.AppendUint64(o.b, uint64(v)) }

// utf is writeUTF for the strings the writer produces. Names are ASCII in
// practice; other characters are written as standard UTF-8, which equals
// modified UTF-8 except for NUL and supplementary characters.
func (o *dataOutput) utf(s string) {
	o.b = binary.BigEndian.AppendUint16(o.b, uint16(len(s)))
	o.b = append(o.b, s...)
}

// encodeMetadata writes md in its Version's layout: the inverse of
// ParseMetadata for everything ParseMetadata keeps. No keyed, channel or
// master state is written. From version 4 on the file ends with the
// properties of a canonical savepoint, which Flink requires (and this
// reader checks are complete).
func encodeMetadata(md *Metadata) []byte {
	o := &dataOutput{}
	o.i32(metadataMagic)
	o.i32(int32(md.Version))
	o.i64(md.CheckpointID)
	o.i32(0) // master states
	o.i32(int32(len(md.Operators)))
	for i := range md.Operators {
		op := &md.Operators[i]
		if md.Version >= 5 {
			o.utf(op.Name)
			o.utf(op.UID)
		}
		o.b = append(o.b, op.ID[:]...)
		o.i32(op.Parallelism)
		o.i32(op.MaxParallelism)
		o.u8(handleNull) // coordinator state
		if op.FullyFinished {
			o.i32(-1)
			continue
		}
		o.i32(int32(len(op.Subtasks)))
		for _, sub := range op.Subtasks {
			if sub.Finished {
				o.i32(-sub.Index - 1)
				continue
			}
			o.i32(sub.Index)
			if sub.Managed == nil {
				o.i32(0)
			} else {
				o.i32(1)
				o.operatorStateHandle(sub.Managed)
			}
			o.i32(0)         // raw operator state
			o.u8(handleNull) // managed keyed
			o.u8(handleNull) // raw keyed
			o.i32(0)         // input channels
			o.i32(0)         // output channels
			if md.Version >= 7 {
				o.u8(0) // no ref checkpoint id
			}
		}
	}
	if md.Version >= 4 {
		o.b = append(o.b, savepointProperties()...)
	}
	return o.b
}

func (o *dataOutput) operatorStateHandle(h *OperatorStateHandle) {
	merging := h.Delegate.Kind == KindSegment || h.Delegate.Kind == KindEmptySegment
	if merging {
		o.u8(handleMergingOperatorState)
	} else {
		o.u8(handleOperatorState)
	}
	o.i32(int32(len(h.States)))
	for _, s := range h.States {
		o.utf(s.Name)
		o.u8(byte(s.Mode))
		o.i32(int32(len(s.Offsets)))
		for _, off := range s.Offsets {
			o.i64(off)
		}
	}
	if merging {
		o.utf("taskowned")
		o.utf("shared")
		if h.Delegate.Kind == KindEmptySegment {
			o.u8(1)
		} else {
			o.u8(0)
		}
	}
	o.streamHandle(h.Delegate)
}

func (o *dataOutput) streamHandle(h StreamHandle) {
	switch h.Kind {
	case KindNone:
		o.u8(handleNull)
	case KindInline:
		o.u8(handleByteStream)
		o.utf(h.Path)
		o.i32(int32(len(h.Data)))
		o.b = append(o.b, h.Data...)
	case KindFile:
		o.u8(handleFile)
		o.i64(h.Size)
		o.utf(h.Path)
	case KindRelativeFile:
		o.u8(handleRelativeFile)
		o.utf(h.Path)
		o.i64(h.Size)
	case KindSegment:
		o.u8(handleSegmentFile)
		o.i64(h.Start)
		o.i64(h.Size)
		o.i32(0) // scope EXCLUSIVE
		o.utf(h.Path)
		o.utf("logical-file")
	case KindEmptySegment:
		o.u8(handleEmptySegmentFile)
	}
}

// listState is one list state to put into an operator-state stream.
type listState struct {
	Name string
	Mode StateMode
	// Serializer is recorded in the header; it must be the one that wrote
	// Elements. The zero value is Kryo for Object, the marker's serializer.
	Serializer elementSerializer
	Elements   [][]byte
}

// encodeOperatorStream writes a DefaultOperatorStateBackend stream as
// OperatorBackendSerializationProxy version 6 does: the version, the
// compression flag, per state its meta info (name, OPERATOR backend type,
// distribution mode, element serializer snapshot), no broadcast states,
// then every element, recording its offset. With compress, each element is
// flushed as its own snappy frame as Flink's CompressibleFSDataOutputStream
// does before each offset is taken.
func encodeOperatorStream(states []listState, compress bool) ([]byte, []StateMetaInfo) {
	o := &dataOutput{}
	o.i32(maxProxyVersion)
	if compress {
		o.u8(1)
	} else {
		o.u8(0)
	}
	o.i16(int16(len(states)))
	for _, s := range states {
		o.stateMetaInfo(s)
	}
	o.i16(0) // broadcast states
	if compress {
		o.b = append(o.b, chunkStreamID, 6, 0, 0)
		o.b = append(o.b, streamIDPayload...)
	}
	infos := make([]StateMetaInfo, len(states))
	for i, s := range states {
		infos[i] = StateMetaInfo{Name: s.Name, Mode: s.Mode, Offsets: make([]int64, len(s.Elements))}
		for j, e := range s.Elements {
			infos[i].Offsets[j] = int64(len(o.b))
			if compress {
				for rest := e; len(rest) > 0; {
					n := min(len(rest), snappyBlockSize)
					o.b = appendSnappyChunk(o.b, rest[:n])
					rest = rest[n:]
				}
			} else {
				o.b = append(o.b, e...)
			}
		}
	}
	return o.b, infos
}

// stateMetaInfo is one list state's StateMetaInfoSnapshot as
// StateMetaInfoSnapshotReadersWriters' current writer lays it out.
func (o *dataOutput) stateMetaInfo(s listState) {
	o.utf(s.Name)
	o.i32(1) // BackendStateType.OPERATOR
	o.i32(1) // one option
	o.utf("OPERATOR_STATE_DISTRIBUTION_MODE")
	o.utf(s.Mode.String())
	o.i32(1) // one serializer
	o.utf("VALUE_SERIALIZER")
	o.serializerSnapshot(s.Serializer)
}

// snappyBlockSize is xerial's block size in Flink's decorator.
const snappyBlockSize = 64 << 10

// appendSnappyChunk frames data as xerial does: compressed when that saves
// at least 15% (minCompressionRatio 0.85), raw otherwise.
func appendSnappyChunk(b, data []byte) []byte {
	typ, payload := byte(chunkUncompressed), data
	if c := snappy.Encode(nil, data); len(c) < len(data)*85/100 {
		typ, payload = chunkCompressed, c
	}
	n := 4 + len(payload)
	b = append(b, typ, byte(n), byte(n>>8), byte(n>>16))
	b = binary.LittleEndian.AppendUint32(b, maskedCRC(data))
	return append(b, payload...)
}
