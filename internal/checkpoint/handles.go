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
	// to the directory holding _metadata (KindRelativeFile). For KindInline
	// it is the handle name, which only writers set: Flink tells inline
	// handles apart by it (ByteStreamStateHandle.equals), so every handle of
	// an operator needs its own.
	Path  string
	Start int64 // KindSegment: where the segment starts in the physical file
	Size  int64 // stream length in bytes
}

func (p *metadataParser) streamHandle(what string, depth int) StreamHandle {
	d := p.d
	defer d.leave(d.enter(what))
	if depth > maxHandleDepth {
		d.failf("handles nested deeper than %d", maxHandleDepth)
		return StreamHandle{}
	}
	typ := d.u8("type")
	if d.err != nil {
		return StreamHandle{}
	}
	switch typ {
	case handleNull:
		return StreamHandle{}
	case handleByteStream:
		d.skipUTF("name")
		data := d.take(d.count("length", 1), "bytes")
		return StreamHandle{Kind: KindInline, Data: data, Size: int64(len(data))}
	case handleFile:
		size := d.i64("size")
		return StreamHandle{Kind: KindFile, Size: size, Path: d.utf("path")}
	case handleRelativeFile:
		name := d.utf("relative path")
		return StreamHandle{Kind: KindRelativeFile, Path: name, Size: d.i64("size")}
	case handleKeyGroups:
		// A key-groups handle used as a stream handle reads as its delegate.
		p.keyGroupRangeOffsets()
		return p.streamHandle(what, depth+1)
	case handleSegmentFile:
		h := StreamHandle{Kind: KindSegment}
		h.Start = d.i64("segment start")
		h.Size = d.i64("segment size")
		d.i32("segment scope")
		h.Path = d.utf("physical path")
		d.skipUTF("logical file id")
		return h
	case handleEmptySegmentFile:
		return StreamHandle{Kind: KindEmptySegment}
	}
	d.off--
	d.failf("unknown stream handle type %d", typ)
	return StreamHandle{}
}

// keyGroupRangeOffsets skips i32 start, i32 count, count x i64.
func (p *metadataParser) keyGroupRangeOffsets() {
	p.d.i32("start key group")
	p.d.skip(8*p.d.count("number of key groups", 8), "key-group offsets")
}

// keyedHandle parses and discards one KeyedStateHandle.
func (p *metadataParser) keyedHandle(what string, depth int) {
	d := p.d
	defer d.leave(d.enter(what))
	if depth > maxHandleDepth {
		d.failf("handles nested deeper than %d", maxHandleDepth)
		return
	}
	typ := d.u8("type")
	if d.err != nil {
		return
	}
	switch typ {
	case handleNull:
	case handleKeyGroups, handleKeyGroups2, handleSavepointKeyGroups:
		p.keyGroupRangeOffsets()
		p.streamHandle("key-groups delegate", depth+1)
		if typ == handleKeyGroups2 {
			d.skipUTF("state handle id")
		}
	case handleIncrementalKeyGroups, handleIncrementalKeyGroups2:
		d.i64("checkpoint id")
		d.skipUTF("backend id")
		d.i32("start key group")
		d.i32("number of key groups")
		if typ == handleIncrementalKeyGroups2 {
			d.i64("checkpointed size")
		}
		p.streamHandle("meta state", depth+1)
		for _, part := range []string{"shared files", "private files"} {
			n := d.count(part, 3)
			for i := 0; i < n && d.err == nil; i++ {
				d.skipUTF("local path")
				p.streamHandle(part, depth+1)
			}
		}
		if typ == handleIncrementalKeyGroups2 {
			d.skipUTF("state handle id")
		}
	case handleChangelog, handleChangelog2:
		d.i32("start key group")
		d.i32("number of key groups")
		d.i64("checkpointed size")
		for _, part := range []string{"materialized handles", "non-materialized handles"} {
			n := d.count(part, 1)
			for i := 0; i < n && d.err == nil; i++ {
				p.keyedHandle(part, depth+1)
			}
		}
		d.i64("materialization id")
		if typ == handleChangelog2 {
			d.i64("checkpoint id")
		}
		d.skipUTF("state handle id")
	case handleChangelogByteIncr:
		d.i32("start key group")
		d.i32("number of key groups")
		d.i64("from")
		d.i64("to")
		n := d.count("changes", 8)
		for i := 0; i < n && d.err == nil; i++ {
			d.i32("change key group")
			d.skip(d.count("change length", 1), "change bytes")
		}
		d.skipUTF("state handle id")
	case handleChangelogFileIncr, handleChangelogFileIncr2:
		d.i32("start key group")
		d.i32("number of key groups")
		n := d.count("files", 9)
		for i := 0; i < n && d.err == nil; i++ {
			d.i64("file offset")
			p.streamHandle("file", depth+1)
		}
		d.i64("size")
		d.i64("checkpointed size")
		d.skipUTF("state handle id")
		if typ == handleChangelogFileIncr2 {
			d.skipUTF("storage identifier")
		}
	default:
		d.off--
		d.failf("unknown keyed state handle type %d", typ)
	}
}

// channelHandle parses and discards one input-channel or result-subpartition
// handle of an unaligned checkpoint.
func (p *metadataParser) channelHandle(what string) {
	d := p.d
	defer d.leave(d.enter(what))
	kind := byte(1)
	if p.version >= 6 {
		kind = d.u8("kind")
	}
	switch kind {
	case 1, 2:
		d.i32("subtask index")
		d.i32("gate or partition index")
		d.i32("channel or subpartition index")
		d.skip(8*d.count("offsets", 8), "offsets")
		d.i64("size")
		p.streamHandle("delegate", 0)
	case 3, 4:
		d.i32("subtask index")
		d.i64("size")
		p.streamHandle("delegate", 0)
		d.skip(d.count("channel offsets length", 1), "channel offsets")
	default:
		if d.err == nil {
			d.off--
			d.failf("unknown channel state handle kind %d", kind)
		}
	}
}
