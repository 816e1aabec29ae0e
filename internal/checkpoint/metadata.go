package checkpoint

import (
	"encoding/hex"
	"fmt"
	"sort"
)

const (
	metadataMagic      = 0x4960672d
	masterStateMagic   = 0xC96B1696
	minMetadataVersion = 3
	maxMetadataVersion = 7
)

// Metadata is the part of a _metadata file this package needs. Keyed,
// raw-operator, channel and master state are parsed (there are no length
// prefixes to skip them by) and then dropped.
type Metadata struct {
	Version      int
	CheckpointID int64
	Operators    []Operator // file order
	// End is the offset where the operator states end: the start of the
	// trailing Java-serialized checkpoint properties (bytes AC ED 00 05) in
	// version 4 and later, which ParseMetadata checks run to the end of the
	// file; in version 3, the end of the file.
	End int
}

// Operator is one OperatorState entry. Every operator of a chain has its own.
type Operator struct {
	ID             [16]byte // the bytes whose lowercase hex is Flink's uid hash
	Name, UID      string   // empty before metadata version 5, or when unset
	Parallelism    int32
	MaxParallelism int32
	FullyFinished  bool
	Subtasks       []Subtask // ascending Index; subtasks without state may be absent
}

// IDHex is the operator ID as Flink prints it (the "uid hash").
func (o *Operator) IDHex() string { return hex.EncodeToString(o.ID[:]) }

// Subtask is one subtask's entry of an operator.
type Subtask struct {
	Index    int32
	Finished bool
	// Managed is the managed operator state (where union list states live);
	// nil when the subtask has none.
	Managed *OperatorStateHandle
}

// StateMode is OperatorStateHandle.Mode: how Flink redistributes list state.
type StateMode uint8

// The modes, by Java ordinal.
const (
	ModeSplitDistribute StateMode = 0
	ModeUnion           StateMode = 1
	ModeBroadcast       StateMode = 2
)

func (m StateMode) String() string {
	switch m {
	case ModeSplitDistribute:
		return "SPLIT_DISTRIBUTE"
	case ModeUnion:
		return "UNION"
	case ModeBroadcast:
		return "BROADCAST"
	}
	return fmt.Sprintf("mode(%d)", uint8(m))
}

// OperatorStateHandle lists the states written into one operator-state stream.
type OperatorStateHandle struct {
	States   []StateMetaInfo // file order
	Delegate StreamHandle    // the stream holding every state's elements
}

// State returns the named state, or nil.
func (h *OperatorStateHandle) State(name string) *StateMetaInfo {
	for i := range h.States {
		if h.States[i].Name == name {
			return &h.States[i]
		}
	}
	return nil
}

// StateMetaInfo is one named state of an operator-state stream: its
// distribution mode and the stream offset of each element, in write order.
type StateMetaInfo struct {
	Name    string
	Mode    StateMode
	Offsets []int64
}

// ParseMetadata parses a complete _metadata file. Inline state bytes in the
// result alias b. It never panics; malformed input yields a *CorruptError,
// a *VersionError, or, when the file does not end where Flink's loader
// stops reading (a file cut inside its trailing checkpoint properties), a
// *MetadataEndError.
func ParseMetadata(b []byte) (*Metadata, error) {
	d := &dataInput{b: b}
	magic := d.i32("magic number")
	version := d.i32("metadata version")
	if d.err != nil {
		return nil, d.err
	}
	if uint32(magic) != metadataMagic {
		return nil, &CorruptError{Offset: 0, Reason: fmt.Sprintf("not a Flink _metadata file (magic %08x, want %08x)", uint32(magic), metadataMagic)}
	}
	if version < minMetadataVersion || version > maxMetadataVersion {
		return nil, &VersionError{Version: version}
	}
	p := metadataParser{d: d, version: int(version)}
	md := p.parse()
	if d.err != nil {
		return nil, d.err
	}
	if err := checkMetadataEnd(b, md.Version, md.End); err != nil {
		return nil, err
	}
	return md, nil
}

type metadataParser struct {
	d       *dataInput
	version int
}

func (p *metadataParser) parse() *Metadata {
	d := p.d
	md := &Metadata{Version: p.version}
	md.CheckpointID = d.i64("checkpoint id")
	if d.err == nil && md.CheckpointID < 0 {
		d.failf("negative checkpoint id %d", md.CheckpointID)
	}
	nMaster := d.count("number of master states", 8)
	for i := 0; i < nMaster && d.err == nil; i++ {
		if m := d.i32("master state magic"); d.err == nil && uint32(m) != masterStateMagic {
			d.failf("bad master state magic %08x", uint32(m))
		}
		d.skip(d.count("master state length", 1), "master state")
	}
	nOps := d.count("number of operator states", 16)
	for i := 0; i < nOps && d.err == nil; i++ {
		md.Operators = append(md.Operators, p.operator())
	}
	md.End = d.off
	return md
}

func (p *metadataParser) operator() Operator {
	d := p.d
	var op Operator
	if p.version >= 5 {
		op.Name = d.utf("operator name")
		op.UID = d.utf("operator uid")
	}
	copy(op.ID[:], d.take(16, "operator id"))
	op.Parallelism = d.i32("parallelism")
	op.MaxParallelism = d.i32("max parallelism")
	p.streamHandle("coordinator state", 0)
	start := d.off
	n := d.i32("number of subtask states")
	if d.err != nil {
		return op
	}
	if n == -1 {
		op.FullyFinished = true
		return op
	}
	d.off = start
	n32 := d.count("number of subtask states", 4)
	seen := make(map[int32]bool)
	for i := 0; i < n32 && d.err == nil; i++ {
		idx := d.i32("subtask index")
		st := Subtask{Index: idx}
		if idx < 0 {
			st.Index, st.Finished = -idx-1, true
		} else {
			st.Managed = p.subtaskState()
		}
		if d.err == nil && seen[st.Index] {
			d.failf("operator %x lists subtask %d twice", op.ID, st.Index)
		}
		seen[st.Index] = true
		op.Subtasks = append(op.Subtasks, st)
	}
	sort.Slice(op.Subtasks, func(i, j int) bool { return op.Subtasks[i].Index < op.Subtasks[j].Index })
	return op
}

// subtaskState parses one OperatorSubtaskState and returns its managed
// operator state; everything else is skipped.
func (p *metadataParser) subtaskState() *OperatorStateHandle {
	d := p.d
	var managed *OperatorStateHandle
	if d.i32("has managed operator state") != 0 {
		managed = p.operatorStateHandle()
	}
	if d.i32("has raw operator state") != 0 {
		p.operatorStateHandle()
	}
	p.keyedHandle("managed keyed state", 0)
	p.keyedHandle("raw keyed state", 0)
	for _, what := range []string{"input channel state handle", "output channel state handle"} {
		n := d.count("number of channel state handles", 1)
		for i := 0; i < n && d.err == nil; i++ {
			p.channelHandle(what)
		}
	}
	if p.version >= 7 {
		switch d.u8("has ref checkpoint id") {
		case 0:
		case 1:
			d.i64("ref checkpoint id")
		default:
			d.off--
			d.failf("bad ref-checkpoint-id marker byte")
		}
	}
	return managed
}

func (p *metadataParser) operatorStateHandle() *OperatorStateHandle {
	d := p.d
	typ := d.u8("operator state handle type")
	switch typ {
	case handleNull:
		return nil
	case handleOperatorState, handleMergingOperatorState:
	default:
		if d.err == nil {
			d.off--
			d.failf("unknown operator state handle type %d", typ)
		}
		return nil
	}
	h := &OperatorStateHandle{}
	n := d.count("number of operator states in handle", 7)
	for i := 0; i < n && d.err == nil; i++ {
		var s StateMetaInfo
		s.Name = d.utf("state name")
		s.Mode = StateMode(d.u8("state distribution mode"))
		if d.err == nil && s.Mode > ModeBroadcast {
			d.off--
			d.failf("state %q: unknown distribution mode %d", s.Name, s.Mode)
		}
		nOff := d.count("number of state offsets", 8)
		if d.err == nil {
			s.Offsets = make([]int64, nOff)
			for j := range s.Offsets {
				s.Offsets[j] = d.i64("state offset")
			}
		}
		h.States = append(h.States, s)
	}
	if typ == handleMergingOperatorState {
		d.skipUTF("task-owned directory")
		d.skipUTF("shared directory")
		d.u8("is-empty flag")
	}
	h.Delegate = p.streamHandle("operator state delegate", 0)
	if typ == handleMergingOperatorState && d.err == nil &&
		h.Delegate.Kind != KindSegment && h.Delegate.Kind != KindEmptySegment {
		d.failf("file-merging operator state handle with a %s delegate", h.Delegate.Kind)
	}
	return h
}
