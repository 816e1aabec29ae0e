package checkpoint

import "fmt"

// checkpointPropertiesClassName is the class Flink casts the trailing object
// of a version 4+ _metadata to.
const checkpointPropertiesClassName = "org.apache.flink.runtime.checkpoint.CheckpointProperties"

// checkMetadataEnd checks that b ends where Flink's loader stops reading, as
// parsed up to end (the end of the operator states).
//
// From version 4 on, MetadataV4Serializer reads a Java-serialized
// CheckpointProperties there (null in some State Processor API savepoints);
// a file cut anywhere inside it fails in Flink with an EOFException, so it
// must fail here too rather than yield a plan from a partial copy. Version 3
// ends with the operator states. Flink ignores bytes after what it reads;
// this reader refuses them, as no Flink release writes any and they mean
// the file is not what Flink wrote.
func checkMetadataEnd(b []byte, version, end int) error {
	if version < 4 {
		if end != len(b) {
			return &MetadataEndError{Offset: int64(end), PropertiesAt: -1, Problem: TrailingBytes,
				Reason: fmt.Sprintf("%s follow the operator states, where a version %d file ends", byteCount(len(b)-end), version)}
		}
		return nil
	}
	_, err := readMetadataProperties(b, end)
	return err
}

// readMetadataProperties reads the properties stream from start to the end
// of b: nil for a null (State Processor API savepoints), else what it holds,
// refused unless its classes, serialVersionUIDs, fields, constants and
// values are ones Flink writes (an object of another class is refused by
// the decoder, at the byte of its name that differs).
func readMetadataProperties(b []byte, start int) (*checkpointProperties, error) {
	d := &dataInput{b: b, off: start}
	r := &javaStreamReader{d: d}
	rootAt := start + 4 // after the stream header
	root := r.readJavaStreamObject()
	switch {
	case d.err != nil || root.kind == tcNull:
	case root.kind != tcObject:
		d.off = rootAt
		d.failf("the stream holds a %s, not a %s", javaKindName(root.kind), checkpointPropertiesClassName)
	}
	err := propertiesError(d, b, start)
	if root.kind == tcNull || (err != nil && err.(*MetadataEndError).Problem != TrailingBytes) {
		return nil, err
	}
	// A stream that ends before the file does was read in full: what it
	// holds says more than the bytes after it (a length changed in place
	// shortens what Java reads, too).
	x := propertiesDecoder{handles: r.handles}
	p := x.properties(root)
	if x.problem != "" {
		return nil, &MetadataEndError{Offset: int64(x.at), PropertiesAt: int64(start), Problem: AlteredProperties, Part: x.what, Flink: x.verdict,
			Reason: fmt.Sprintf("the checkpoint properties that start at byte %d were altered after Flink wrote them: the %s at byte %d %s%s",
				start, x.what, x.at, x.problem, x.verdict.consequence())}
	}
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// propertiesError turns the outcome of reading the properties stream into
// the error ParseMetadata returns: nil when the stream ended exactly at the
// end of b.
func propertiesError(d *dataInput, b []byte, start int) error {
	e := &MetadataEndError{PropertiesAt: int64(start)}
	ce, _ := d.err.(*CorruptError) // dataInput records only these
	switch {
	case ce != nil && d.ended:
		e.Offset, e.Problem, e.Flink = int64(len(b)), EndsEarly, FlinkRefuses
		e.Reason = fmt.Sprintf("the file ends inside the checkpoint properties that start at byte %d (%s); Flink fails to load it with an EOFException",
			start, ce.Reason)
	case ce != nil:
		e.Offset, e.Problem, e.Flink = ce.Offset, MalformedProperties, FlinkRefuses
		e.Reason = fmt.Sprintf("the checkpoint properties that start at byte %d are not a well-formed Java serialization of a CheckpointProperties: %s; "+
			"Java cannot read them, so Flink fails to load the file too", start, ce.Reason)
	case d.off != len(b):
		e.Offset, e.Problem, e.Flink = int64(d.off), TrailingBytes, FlinkLoads
		e.Reason = fmt.Sprintf("%s follow the checkpoint properties (bytes %d to %d), which end the file as Flink writes it; "+
			"Flink would load the file and ignore them, but no Flink release writes them", byteCount(len(b)-d.off), start, d.off-1)
	default:
		return nil
	}
	return e
}

func byteCount(n int) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// consequence completes an altered-properties reason with what Flink does.
func (v FlinkVerdict) consequence() string {
	switch v {
	case FlinkRefuses:
		return "; Java's deserialization refuses this, so Flink fails to load the file too"
	case FlinkLoads:
		return "; Java's deserialization does not check this, so Flink would load the file, but no Flink release writes it"
	}
	return ""
}
