package checkpoint

import "fmt"

// Type bytes of MetadataV2V3SerializerBase (identical in Flink 1.11 to 2.x).
const (
	handleNull                  = 0
	handleByteStream            = 1
	handleFile                  = 2
	handleKeyGroups             = 3
	handleOperatorState         = 4
	handleIncrementalKeyGroups  = 5
	handleRelativeFile          = 6
	handleSavepointKeyGroups    = 7
	handleChangelog             = 8
	handleChangelogByteIncr     = 9
	handleChangelogFileIncr     = 10
	handleIncrementalKeyGroups2 = 11
	handleKeyGroups2            = 12
	handleChangelogFileIncr2    = 13
	handleChangelog2            = 14
	handleSegmentFile           = 15
	handleEmptySegmentFile      = 16
	handleMergingOperatorState  = 17
)

// maxHandleDepth bounds nesting (changelog handles contain keyed handles,
// key-group stream handles contain stream handles). Real data nests at most
// two levels; the bound only stops crafted input from recursing deeply.
const maxHandleDepth = 16

// StreamHandleKind says where a state stream's bytes are.
type StreamHandleKind uint8

// Stream handle kinds.
const (
	KindNone         StreamHandleKind = iota // no stream
	KindInline                               // bytes embedded in _metadata
	KindFile                                 // absolute path (Flink Path string)
	KindRelativeFile                         // file name next to _metadata
	KindSegment                              // window of a file-merging physical file
	KindEmptySegment                         // file merging with nothing written
)

func (k StreamHandleKind) String() string {
	switch k {
	case KindNone:
		return "null handle"
	case KindInline:
		return "inline byte-stream handle"
	case KindFile:
		return "file handle"
	case KindRelativeFile:
		return "relative file handle"
	case KindSegment:
		return "file-merging segment handle"
	case KindEmptySegment:
		return "empty file-merging segment handle"
	}
	return fmt.Sprintf("stream handle kind %d", uint8(k))
}

// StreamHandle locates one state stream.
type StreamHandle struct {
	Kind StreamHandleKind
	Data []byte // KindInline: the stream (aliases the _metadata bytes)
	// Path is the absolute path (KindFile, KindSegment) or the name relative
	// to the directory holding _metadata (KindRelativeFile).
	Path  string
	Start int64 // KindSegment: where the segment starts in the physical file
	Size  int64 // stream length in bytes
}

func (p *metadataParser) streamHandle(what string, depth int) StreamHandle {
	d := p.d
	if depth > maxHandleDepth {
		d.failf("%s: handles nested deeper than %d", what, maxHandleDepth)
		return StreamHandle{}
	}
	typ := d.u8(what + " type")
	if d.err != nil {
		return StreamHandle{}
	}
	switch typ {
	case handleNull:
		return StreamHandle{}
	case handleByteStream:
		d.utf(what + " name")
		data := d.take(d.count(what+" length", 1), what+" bytes")
		return StreamHandle{Kind: KindInline, Data: data, Size: int64(len(data))}
	case handleFile:
		size := d.i64(what + " size")
		return StreamHandle{Kind: KindFile, Size: size, Path: d.utf(what + " path")}
	case handleRelativeFile:
		name := d.utf(what + " relative path")
		return StreamHandle{Kind: KindRelativeFile, Path: name, Size: d.i64(what + " size")}
	case handleKeyGroups:
		// A key-groups handle used as a stream handle reads as its delegate.
		p.keyGroupRangeOffsets(what)
		return p.streamHandle(what, depth+1)
	case handleSegmentFile:
		h := StreamHandle{Kind: KindSegment}
		h.Start = d.i64(what + " segment start")
		h.Size = d.i64(what + " segment size")
		d.i32(what + " segment scope")
		h.Path = d.utf(what + " physical path")
		d.utf(what + " logical file id")
		return h
	case handleEmptySegmentFile:
		return StreamHandle{Kind: KindEmptySegment}
	}
	d.off--
	d.failf("%s: unknown stream handle type %d", what, typ)
	return StreamHandle{}
}

// keyGroupRangeOffsets skips i32 start, i32 count, count x i64.
func (p *metadataParser) keyGroupRangeOffsets(what string) {
	p.d.i32(what + " start key group")
	p.d.skip(8*p.d.count(what+" number of key groups", 8), what+" key-group offsets")
}

// keyedHandle parses and discards one KeyedStateHandle.
func (p *metadataParser) keyedHandle(what string, depth int) {
	d := p.d
	if depth > maxHandleDepth {
		d.failf("%s: handles nested deeper than %d", what, maxHandleDepth)
		return
	}
	typ := d.u8(what + " type")
	if d.err != nil {
		return
	}
	switch typ {
	case handleNull:
	case handleKeyGroups, handleKeyGroups2, handleSavepointKeyGroups:
		p.keyGroupRangeOffsets(what)
		p.streamHandle(what+" delegate", depth+1)
		if typ == handleKeyGroups2 {
			d.utf(what + " state handle id")
		}
	case handleIncrementalKeyGroups, handleIncrementalKeyGroups2:
		d.i64(what + " checkpoint id")
		d.utf(what + " backend id")
		d.i32(what + " start key group")
		d.i32(what + " number of key groups")
		if typ == handleIncrementalKeyGroups2 {
			d.i64(what + " checkpointed size")
		}
		p.streamHandle(what+" meta state", depth+1)
		for _, part := range []string{" shared files", " private files"} {
			n := d.count(what+part, 3)
			for i := 0; i < n && d.err == nil; i++ {
				d.utf(what + part + " local path")
				p.streamHandle(what+part, depth+1)
			}
		}
		if typ == handleIncrementalKeyGroups2 {
			d.utf(what + " state handle id")
		}
	case handleChangelog, handleChangelog2:
		d.i32(what + " start key group")
		d.i32(what + " number of key groups")
		d.i64(what + " checkpointed size")
		for _, part := range []string{" materialized", " non-materialized"} {
			n := d.count(what+part, 1)
			for i := 0; i < n && d.err == nil; i++ {
				p.keyedHandle(what+part, depth+1)
			}
		}
		d.i64(what + " materialization id")
		if typ == handleChangelog2 {
			d.i64(what + " checkpoint id")
		}
		d.utf(what + " state handle id")
	case handleChangelogByteIncr:
		d.i32(what + " start key group")
		d.i32(what + " number of key groups")
		d.i64(what + " from")
		d.i64(what + " to")
		n := d.count(what+" changes", 8)
		for i := 0; i < n && d.err == nil; i++ {
			d.i32(what + " change key group")
			d.skip(d.count(what+" change length", 1), what+" change bytes")
		}
		d.utf(what + " state handle id")
	case handleChangelogFileIncr, handleChangelogFileIncr2:
		d.i32(what + " start key group")
		d.i32(what + " number of key groups")
		n := d.count(what+" files", 9)
		for i := 0; i < n && d.err == nil; i++ {
			d.i64(what + " file offset")
			p.streamHandle(what+" file", depth+1)
		}
		d.i64(what + " size")
		d.i64(what + " checkpointed size")
		d.utf(what + " state handle id")
		if typ == handleChangelogFileIncr2 {
			d.utf(what + " storage identifier")
		}
	default:
		d.off--
		d.failf("%s: unknown keyed state handle type %d", what, typ)
	}
}

// channelHandle parses and discards one input-channel or result-subpartition
// handle of an unaligned checkpoint.
func (p *metadataParser) channelHandle(what string) {
	d := p.d
	kind := byte(1)
	if p.version >= 6 {
		kind = d.u8(what + " kind")
	}
	switch kind {
	case 1, 2:
		d.i32(what + " subtask index")
		d.i32(what + " gate or partition index")
		d.i32(what + " channel or subpartition index")
		d.skip(8*d.count(what+" offsets", 8), what+" offsets")
		d.i64(what + " size")
		p.streamHandle(what+" delegate", 0)
	case 3, 4:
		d.i32(what + " subtask index")
		d.i64(what + " size")
		p.streamHandle(what+" delegate", 0)
		d.skip(d.count(what+" channel offsets length", 1), what+" channel offsets")
	default:
		if d.err == nil {
			d.off--
			d.failf("%s: unknown channel state handle kind %d", what, kind)
		}
	}
}
