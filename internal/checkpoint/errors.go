package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
)

// Sentinel errors, for errors.Is. Every error returned by this package that
// falls in one of these classes wraps the matching sentinel.
var (
	// ErrNotFound: the checkpoint path, or a state file it references, does not exist.
	ErrNotFound = errors.New("not found")
	// ErrMissingStateFile: _metadata exists but a state file it references
	// does not (a *MissingStateFileError). Such errors also match
	// ErrNotFound; test for this one first to tell a wrong path from an
	// incomplete checkpoint.
	ErrMissingStateFile = errors.New("state file referenced by _metadata is missing")
	// ErrMissingMetadata: the directory exists but holds no _metadata; Flink
	// writes _metadata last, so this is an incomplete or aborted checkpoint.
	ErrMissingMetadata = errors.New("no _metadata in checkpoint directory (incomplete or aborted checkpoint?)")
	// ErrUnsupportedVersion: the _metadata (or operator-state stream) uses a
	// format version this reader does not understand.
	ErrUnsupportedVersion = errors.New("unsupported format version")
	// ErrOperatorNotFound: no operator matches the selector.
	ErrOperatorNotFound = errors.New("operator not found")
	// ErrAmbiguousOperator: no selector was given and several operators hold recovery markers.
	ErrAmbiguousOperator = errors.New("several operators hold recovery markers")
	// ErrStateNotFound: the operator has no usable "recoveryMarker" union state.
	ErrStateNotFound = errors.New("state not found")
	// ErrUnknownKryoClass: an element names a class or registration id the
	// reader does not know (often a custom Kryo registration).
	ErrUnknownKryoClass = errors.New("unknown Kryo class")
	// ErrCorrupt: bytes do not follow the format (truncated, out of range, trailing data).
	ErrCorrupt = errors.New("corrupt checkpoint data")
	// ErrIncompleteMetadata: _metadata does not end the way Flink writes it
	// (a *MetadataEndError): it stops inside, or is malformed or altered
	// in, the trailing checkpoint properties, or has bytes after them. Such
	// errors also match ErrCorrupt.
	ErrIncompleteMetadata = errors.New("checkpoint metadata does not end as Flink writes it")
	// ErrInvalidSelector: the selector is malformed (bad hex, both fields set).
	ErrInvalidSelector = errors.New("invalid operator selector")
	// ErrNotAFile: a path the reader must read as a file is a directory,
	// named pipe, socket or device (see FileTypeError).
	ErrNotAFile = errors.New("not a regular file")
)

// CorruptError locates malformed bytes: the file (or "_metadata inline
// handle" description) and the byte offset in it where decoding failed.
type CorruptError struct {
	File   string // empty when parsing a bare byte slice
	Offset int64
	Reason string
}

func (e *CorruptError) Error() string {
	if e.File == "" {
		return fmt.Sprintf("corrupt checkpoint data at byte %d: %s", e.Offset, e.Reason)
	}
	return fmt.Sprintf("corrupt checkpoint data in %s at byte %d: %s", e.File, e.Offset, e.Reason)
}

// Is makes errors.Is(err, ErrCorrupt) true.
func (e *CorruptError) Is(target error) bool { return target == ErrCorrupt }

// VersionError reports an unsupported _metadata version.
type VersionError struct {
	File    string
	Version int32
}

func (e *VersionError) Error() string {
	where := "_metadata"
	if e.File != "" {
		where = e.File
	}
	return fmt.Sprintf("%s: unsupported checkpoint metadata version %d; supported versions are %d to %d (Flink 1.11 to 2.x); versions 1 and 2 come from Flink 1.10 or older",
		where, e.Version, minMetadataVersion, maxMetadataVersion)
}

// Is makes errors.Is(err, ErrUnsupportedVersion) true.
func (e *VersionError) Is(target error) bool { return target == ErrUnsupportedVersion }

// KryoClassError reports a Kryo class name or registration id that is not
// part of the recovery-marker format.
type KryoClassError struct {
	File   string
	Offset int64  // element start in the state stream
	Class  string // class name, when written by name
	RegID  int    // registration id, when written by id; -1 otherwise
}

func (e *KryoClassError) Error() string {
	what := fmt.Sprintf("class %q", e.Class)
	if e.Class == "" {
		what = fmt.Sprintf("registration id %d", e.RegID)
	}
	return fmt.Sprintf("%s: recoveryMarker element at byte %d uses unknown Kryo %s; expected %s or java.util.HashMap<Integer,Long>. "+
		"If the job registers Kryo types or serializers (pipeline.serialization-config, registered Kryo types or default serializers), "+
		"those registrations change the bytes and are not supported by this reader",
		e.File, e.Offset, what, markerClass)
}

// Is makes errors.Is(err, ErrUnknownKryoClass) true.
func (e *KryoClassError) Is(target error) bool { return target == ErrUnknownKryoClass }

// MissingStateFileError reports a state file that _metadata references but
// the storage does not have: the checkpoint is incomplete (Flink removed it,
// or a copy left files behind), or it was moved and _metadata still names
// the old absolute path.
type MissingStateFileError struct {
	Metadata string // the _metadata file that references it
	File     string // the path read, as derived from the handle
	// InCheckpointDir is true when the file belongs in the directory
	// holding _metadata; otherwise it is an absolute path Flink recorded
	// (shared or task-owned state), which goes stale when the checkpoint is
	// moved.
	InCheckpointDir bool
	Err             error // what the storage said (not wrapped: the checkpoint path itself is fine)
}

func (e *MissingStateFileError) Error() string {
	return fmt.Sprintf("state file %s referenced by %s is missing: %v", e.File, e.Metadata, e.Err)
}

// Is makes errors.Is true for ErrMissingStateFile and for ErrNotFound, so
// callers that only tell found from not found keep working.
func (e *MissingStateFileError) Is(target error) bool {
	return target == ErrMissingStateFile || target == ErrNotFound
}

// MetadataEndError reports a _metadata that does not end the way Flink
// writes it: cut short inside the checkpoint properties, malformed or
// altered there, or followed by more bytes. Flink refuses some of these
// (Flink says which); this reader refuses them all, as not being what
// Flink wrote.
type MetadataEndError struct {
	File string // empty when parsing a bare byte slice
	// Offset is the file's length for EndsEarly, else the byte where the
	// file stops being what Flink writes.
	Offset int64
	// PropertiesAt is where the trailing checkpoint properties start
	// (version 4 and later); -1 for version 3, which has none.
	PropertiesAt int64
	Problem      MetadataEndProblem
	// Part names, for AlteredProperties, the part of the properties that
	// differs from what Flink writes ("serialVersionUID of ...", "field
	// forced of ..."), at byte Offset.
	Part string
	// Flink is what Flink's own loader does with this file, where Java's
	// deserialization settles it.
	Flink  FlinkVerdict
	Reason string
}

// FlinkVerdict is what Flink's loader does with a _metadata this reader
// refuses: its MetadataV4Serializer reads the properties with Java's
// ObjectInputStream, which checks some differences and not others.
type FlinkVerdict int

const (
	// FlinkVerdictUnknown: not settled here; a message claims nothing.
	FlinkVerdictUnknown FlinkVerdict = iota
	// FlinkRefuses: Flink fails to load the file too.
	FlinkRefuses
	// FlinkLoads: Flink loads the file (Java does not check what
	// differs), though no Flink release writes it.
	FlinkLoads
)

// MetadataEndProblem says how a _metadata fails to end where Flink's loader
// stops reading.
type MetadataEndProblem int

const (
	// EndsEarly: the file ends inside the checkpoint properties (a partial
	// copy, or a write that never finished). Offset is the file's length.
	EndsEarly MetadataEndProblem = iota + 1
	// MalformedProperties: the checkpoint properties are not a well-formed
	// Java serialization stream of one CheckpointProperties (or null).
	// Java cannot read it either.
	MalformedProperties
	// TrailingBytes: bytes follow the point where the file Flink writes
	// ends. Flink would ignore them; they mean the file is not Flink's.
	TrailingBytes
	// AlteredProperties: the checkpoint properties are a well-formed
	// stream, but one part (Part, at Offset) is not what Flink writes: a
	// class name, serialVersionUID, flag, field, enum constant or value.
	// Flink refuses some of these and loads others (Flink).
	AlteredProperties
)

func (e *MetadataEndError) Error() string {
	where := "_metadata"
	if e.File != "" {
		where = e.File
	}
	return fmt.Sprintf("%v: %s at byte %d: %s", ErrIncompleteMetadata, where, e.Offset, e.Reason)
}

// Is makes errors.Is(err, ErrIncompleteMetadata) and errors.Is(err,
// ErrCorrupt) true.
func (e *MetadataEndError) Is(target error) bool {
	return target == ErrIncompleteMetadata || target == ErrCorrupt
}

// FileTypeError reports a path where the reader needs a regular file (the
// _metadata or a state file it references) that is something else: a
// directory, a named pipe, a socket or a device. Such paths are refused
// without being opened.
type FileTypeError struct {
	Path string
	Mode fs.FileMode
}

func (e *FileTypeError) Error() string {
	return fmt.Sprintf("%s is %s, not a checkpoint file", e.Path, describeFileType(e.Mode))
}

// Is makes errors.Is(err, ErrNotAFile) true.
func (e *FileTypeError) Is(target error) bool { return target == ErrNotAFile }

func describeFileType(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return fmt.Sprintf("an irregular file (mode %s)", m)
}
