package checkpoint

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// Operator-state stream header (OperatorBackendSerializationProxy): i32
// version, then from version 6 a bool compression flag. Everything after is
// serializer snapshots, which the reader skips because offsets in _metadata
// are absolute stream positions.
const (
	maxProxyVersion = 6
	headerLen       = 5
	// headerGap: when the first wanted element starts within this many bytes
	// of the header, header and elements are fetched in one read. One request
	// per subtask matters on object stores; 64 KiB of extra bytes does not.
	headerGap = 64 << 10
)

// stateStream is an opened delegate of an operator-state handle.
type stateStream struct {
	name     string // file path, or a description of the inline handle, for errors
	inline   []byte
	path     string
	inDir    bool   // path is in the directory holding _metadata
	metadata string // the _metadata naming it
	start    int64  // segment start inside path
	size     int64
}

func (s *stateStream) read(ctx context.Context, st Storage, off, n int64) ([]byte, error) {
	if off < 0 || n < 0 || off+n > s.size {
		return nil, &CorruptError{File: s.name, Offset: off, Reason: fmt.Sprintf("range of %d bytes beyond stream end %d", n, s.size)}
	}
	if s.inline != nil || s.path == "" {
		return s.inline[off : off+n], nil
	}
	b, err := st.ReadRange(ctx, s.path, s.start+off, n)
	switch {
	case err == nil:
		return b, nil
	case notFound(err):
		return nil, &MissingStateFileError{Metadata: s.metadata, File: s.path, InCheckpointDir: s.inDir, Err: err}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return nil, &CorruptError{File: s.path, Offset: s.start + off, Reason: fmt.Sprintf("file shorter than recorded in _metadata: %v", err)}
	}
	return nil, err
}

// openStream locates a delegate. Absolute paths (file handles, file-merging
// segments) break when a checkpoint is moved; if the recorded path is gone
// but a file of the same name sits next to _metadata, that one is used
// (state file names are random UUIDs, so a match is the same file).
func openStream(ctx context.Context, st Storage, loc location, h StreamHandle) (*stateStream, error) {
	s := &stateStream{size: h.Size, start: h.Start, metadata: loc.metadataPath}
	if h.Size < 0 || h.Start < 0 {
		return nil, &CorruptError{File: loc.metadataPath, Reason: fmt.Sprintf("%s with negative size or start", h.Kind)}
	}
	switch h.Kind {
	case KindNone, KindEmptySegment:
		s.name = fmt.Sprintf("%s in %s", h.Kind, loc.metadataPath)
		return s, nil
	case KindInline:
		s.name, s.inline = fmt.Sprintf("inline state in %s", loc.metadataPath), h.Data
		return s, nil
	case KindRelativeFile:
		s.path = loc.join(h.Path)
	case KindFile, KindSegment:
		p, err := normalizePath(h.Path)
		if err != nil {
			return nil, fmt.Errorf("state handle in %s: %w", loc.metadataPath, err)
		}
		s.path = p
		_, err = st.Stat(ctx, p)
		if stopped(err) {
			// The store did not answer in time or the read was cancelled:
			// reading the file next would only wait again.
			return nil, fmt.Errorf("state file %s referenced by %s: %w", p, loc.metadataPath, err)
		}
		if notFound(err) {
			if alt := loc.join(baseName(p)); alt != p {
				if _, err2 := st.Stat(ctx, alt); err2 == nil {
					s.path = alt
				}
			}
		}
	default:
		return nil, fmt.Errorf("%s: unsupported %s", loc.metadataPath, h.Kind)
	}
	s.name = s.path
	s.inDir = strings.HasPrefix(s.path, loc.join(""))
	return s, nil
}

// element is one list-state entry, decompressed.
type element struct {
	Subtask    int32
	Offset     int64 // where it starts in its stream (compressed position)
	Stream     string
	Compressed bool
	Data       []byte
}

// stateElements returns the elements of the named state in every subtask of
// op, in ascending subtask order and, within a subtask, in write order. It
// works for any list state; callers check the mode and decode the bytes.
// Subtasks are read concurrently when st is a ConcurrentStorage; the result
// and the error reported (the lowest failing subtask's) do not depend on it.
func stateElements(ctx context.Context, st Storage, loc location, op *Operator, name string) ([]element, error) {
	per := make([][]element, len(op.Subtasks))
	errs := make([]error, len(op.Subtasks))
	read := func(i int) {
		sub := &op.Subtasks[i]
		els, err := handleElements(ctx, st, loc, sub.Managed, name)
		if err != nil {
			errs[i] = fmt.Errorf("operator %s subtask %d, state %q: %w", op.IDHex(), sub.Index, name, err)
			return
		}
		for j := range els {
			els[j].Subtask = sub.Index
		}
		per[i] = els
	}
	workers := 1
	if cs, ok := st.(ConcurrentStorage); ok {
		workers = max(1, cs.ReadConcurrency())
	}
	sem := make(chan struct{}, workers)
	var wg sync.WaitGroup
	// Once a read fails no later subtask is started; every lower one already
	// was, so the lowest failing subtask is still the one reported.
	var failed atomic.Bool
	for i := range op.Subtasks {
		if sub := &op.Subtasks[i]; sub.Managed == nil || sub.Managed.State(name) == nil {
			continue
		}
		if workers == 1 {
			if read(i); errs[i] != nil {
				return nil, errs[i]
			}
			continue
		}
		sem <- struct{}{}
		if failed.Load() {
			<-sem
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if read(i); errs[i] != nil {
				failed.Store(true)
			}
		}()
	}
	wg.Wait()
	var out []element
	for i := range per {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out = append(out, per[i]...)
	}
	return out, nil
}

// handleElements cuts the named state's elements out of one operator-state
// stream. An element ends where the next recorded offset of any state begins,
// or at the stream end; only the bytes from the header and the wanted
// elements are read.
func handleElements(ctx context.Context, st Storage, loc location, h *OperatorStateHandle, name string) ([]element, error) {
	want := h.State(name).Offsets
	if len(want) == 0 {
		return nil, nil
	}
	s, err := openStream(ctx, st, loc, h.Delegate)
	if err != nil {
		return nil, err
	}
	bounds := []int64{s.size}
	for _, sm := range h.States {
		for _, o := range sm.Offsets {
			if o < headerLen-1 || o > s.size {
				return nil, &CorruptError{File: s.name, Offset: o, Reason: fmt.Sprintf("state %q offset %d outside the %d-byte stream", sm.Name, o, s.size)}
			}
			bounds = append(bounds, o)
		}
	}
	sort.Slice(bounds, func(i, j int) bool { return bounds[i] < bounds[j] })
	end := func(o int64) int64 {
		i := sort.Search(len(bounds), func(i int) bool { return bounds[i] > o })
		if i == len(bounds) {
			return o // an offset at the very end: an empty element
		}
		return bounds[i]
	}

	lo, hi := want[0], int64(0)
	for _, o := range want {
		lo, hi = min(lo, o), max(hi, end(o))
	}
	winStart := lo
	if lo <= headerGap {
		winStart = 0
	}
	win, err := s.read(ctx, st, winStart, hi-winStart)
	if err != nil {
		return nil, err
	}
	header := win
	if winStart != 0 {
		if header, err = s.read(ctx, st, 0, min(headerLen, s.size)); err != nil {
			return nil, err
		}
	}
	compressed, err := parseProxyHeader(header, s.name)
	if err != nil {
		return nil, err
	}
	out := make([]element, 0, len(want))
	for _, o := range want {
		e := element{Offset: o, Stream: s.name, Compressed: compressed, Data: win[o-winStart : end(o)-winStart]}
		if o < headerLen-1 || (compressed && o < headerLen) {
			return nil, &CorruptError{File: s.name, Offset: o, Reason: "element offset inside the stream header"}
		}
		if compressed {
			if e.Data, err = deframeSnappy(e.Data); err != nil {
				return nil, relocate(err, s.name, o, false)
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// parseProxyHeader reads the stream's serialization-proxy version and, from
// version 6 on, the compression flag.
func parseProxyHeader(b []byte, name string) (compressed bool, err error) {
	if len(b) < 4 {
		return false, &CorruptError{File: name, Offset: 0, Reason: "operator state stream shorter than its header"}
	}
	v := int32(binary.BigEndian.Uint32(b))
	if v < 1 || v > maxProxyVersion {
		return false, fmt.Errorf("%w: %s: operator state stream version %d, this reader supports 1 to %d", ErrUnsupportedVersion, name, v, maxProxyVersion)
	}
	if v < 6 {
		return false, nil
	}
	if len(b) < headerLen {
		return false, &CorruptError{File: name, Offset: 4, Reason: "missing compression flag"}
	}
	switch b[4] {
	case 0:
		return false, nil
	case 1:
		return true, nil
	}
	return false, &CorruptError{File: name, Offset: 4, Reason: fmt.Sprintf("bad compression flag %#02x", b[4])}
}

// relocate turns an error with element-relative offsets into one naming the
// stream and the absolute offset. For compressed elements the position
// inside the decompressed bytes is kept in the reason instead.
func relocate(err error, stream string, elemOff int64, decompressed bool) error {
	var ce *CorruptError
	if errors.As(err, &ce) {
		c := *ce
		c.File = stream
		if decompressed {
			c.Reason = fmt.Sprintf("%s (at byte %d of the decompressed element)", c.Reason, c.Offset)
			c.Offset = elemOff
		} else {
			c.Offset += elemOff
		}
		return &c
	}
	var ke *KryoClassError
	if errors.As(err, &ke) {
		k := *ke
		k.File, k.Offset = stream, elemOff
		return &k
	}
	return err
}
