package diagnostics

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
	"github.com/actionstate/terraform-provider-flinkagents/internal/cleanupplan"
)

// checkpointRefusals maps the checkpoint reader's errors to advice. The
// reader's text already names the file, byte offset, operator or state.
var checkpointRefusals = []struct {
	err     error
	summary string
	next    string
}{
	// First: a read that ran out of time says nothing about the checkpoint.
	{context.DeadlineExceeded, "Checkpoint Storage Timed Out",
		"The store did not answer in time; the error below names the object and the endpoint it waited for. Check that the endpoint " +
			"is reachable from where Terraform runs (address, port, proxy, firewall) and that the store is up. If it is only slow, raise " +
			"the provider's timeout (it bounds each storage request; default 30s) or the data source's timeouts.read (the whole read). " +
			"Nothing was changed; re-run when the store answers."},
	{context.Canceled, "Checkpoint Read Cancelled",
		"The read was cancelled (Terraform was interrupted) while waiting for the store named below. Nothing was changed; run again."},
	{checkpoint.ErrNotAFile, "Checkpoint Path Is Not A File",
		"Where the reader needs a checkpoint file (the _metadata or a state file it names) there is a directory, named pipe, socket or device. " +
			"It was not opened: opening a named pipe waits for a writer, forever if none comes. Point checkpoint_path at the checkpoint Flink " +
			"wrote, or put the real file back in place of the special one."},
	{checkpoint.ErrMissingMetadata, "Checkpoint Is Incomplete",
		"The directory has no _metadata file: the checkpoint was aborted or is still being written. Use a completed checkpoint or savepoint."},
	{checkpoint.ErrNotFound, "Checkpoint Not Found",
		"Check checkpoint_path: it must name a chk-N directory, a savepoint directory, or a _metadata file readable from where Terraform runs. " +
			"To follow a job's recovery points rather than name one, set checkpoint_dir or savepoint_dir instead."},
	{checkpoint.ErrUnsupportedVersion, "Unsupported Checkpoint Format",
		"This reader supports _metadata versions 3 to 7 (Flink 1.16 through 2.x). Take a savepoint with a supported Flink version."},
	{checkpoint.ErrAmbiguousOperator, "Several Operators Hold Recovery Markers",
		"Set operator_uid or operator_uid_hash to pick the Flink Agents operator whose action state this plan cleans."},
	{checkpoint.ErrOperatorNotFound, "Operator Not Found In Checkpoint",
		"Check operator_uid / operator_uid_hash against the operators the checkpoint holds, listed in the original error below, or omit both to find the operator holding recovery markers."},
	{checkpoint.ErrStateNotFound, "Recovery Markers Not Found",
		"The operator holds no union state named recoveryMarker: the job was not using the Kafka action-state store, or runs a Flink Agents runtime without checkpoint-aligned cleanup (no release up to 0.3.1 has it: it is the proposed plan/apply cleanup)."},
	{checkpoint.ErrUnknownKryoClass, "Unknown Serialized Class In Checkpoint",
		"The markers were written with a Kryo configuration this reader does not know. If the job registers Kryo types or serializers " +
			"(pipeline.serialization-config), they shift Kryo's registration IDs; remove registrations for java.util.HashMap and the marker class, or report the job's configuration."},
	{checkpoint.ErrCorrupt, "Corrupt Checkpoint Data",
		"The bytes at the named file and offset do not parse. Nothing was planned. Check the checkpoint was copied completely, or use another one."},
	{checkpoint.ErrInvalidSelector, "Invalid Operator Selector",
		"Set either operator_uid or operator_uid_hash (32 hex digits), not both."},
}

// FromCheckpointError turns a checkpoint reader error into a diagnostic.
// The two kinds of incomplete checkpoint are told apart first: both also
// match broader sentinels (ErrNotFound, ErrCorrupt) whose advice would
// send the operator to check a path that is right.
func FromCheckpointError(op string, err error) diag.Diagnostic {
	var missing *checkpoint.MissingStateFileError
	if errors.As(err, &missing) {
		return stateFileMissing(op, missing, err)
	}
	var end *checkpoint.MetadataEndError
	if errors.As(err, &end) {
		return metadataEnd(op, end, err)
	}
	for _, r := range checkpointRefusals {
		if errors.Is(err, r.err) {
			return diag.NewErrorDiagnostic(r.summary, detail(op, r.next, err))
		}
	}
	return diag.NewErrorDiagnostic("Cannot Read Checkpoint", detail(op, "Check the path and permissions.", err))
}

// stateFileMissing: _metadata was read, so the path is right; the
// checkpoint lacks a file it needs.
func stateFileMissing(op string, e *checkpoint.MissingStateFileError, err error) diag.Diagnostic {
	next := fmt.Sprintf("The checkpoint is incomplete: its _metadata (%s) references the state file %s, which does not exist. "+
		"Flink deletes checkpoints beyond state.checkpoints.num-retained as newer ones complete, and a copy may have left files behind. "+
		"Nothing was planned. Pick another checkpoint or savepoint, or copy this one again with all its files.", e.Metadata, e.File)
	if !e.InCheckpointDir {
		next += " The file is named by the absolute path Flink wrote (shared or task-owned state): if the checkpoint was moved " +
			"or copied since, map that original location to the new one with storage.path_rewrite."
	}
	return diag.NewErrorDiagnostic("Checkpoint State File Missing", detail(op, next, err))
}

// metadataEnd: the _metadata is cut short, or damaged or altered at its
// end, where the reader needs nothing but Flink does. Only what Flink's own
// loader settles is claimed of it.
func metadataEnd(op string, e *checkpoint.MetadataEndError, err error) diag.Diagnostic {
	summary, what, next := "Checkpoint Metadata Altered", "", "compare it with the original (size and checksum) or copy it again; otherwise pick another checkpoint or savepoint."
	switch e.Problem {
	case checkpoint.EndsEarly:
		summary, next = "Checkpoint Metadata Incomplete", "if this is a copy, copy the checkpoint again and compare the sizes; otherwise pick another checkpoint or savepoint."
		what = fmt.Sprintf("The _metadata file at %s ends at byte %d, inside its checkpoint properties (which start at byte %d): "+
			"the file is cut short (or was altered so that its properties read as longer than it is), and Flink fails to load it too.", e.File, e.Offset, e.PropertiesAt)
	case checkpoint.MalformedProperties:
		what = fmt.Sprintf("The _metadata file at %s is malformed at byte %d, in its checkpoint properties (which start at byte %d): "+
			"they are not a Java serialization that Flink's loader can read, so Flink fails to load it too. The file was damaged or altered after Flink wrote it.",
			e.File, e.Offset, e.PropertiesAt)
	case checkpoint.AlteredProperties:
		what = fmt.Sprintf("The _metadata file at %s was altered at byte %d, in its checkpoint properties (which start at byte %d): "+
			"the %s is not what Flink writes (the error below says what it holds).", e.File, e.Offset, e.PropertiesAt, e.Part)
		switch e.Flink {
		case checkpoint.FlinkRefuses:
			what += " Flink fails to load the file too."
		case checkpoint.FlinkLoads:
			what += " Flink itself would still load it (Java's deserialization does not check this part), but no Flink release writes it, " +
				"so the file is not the one Flink wrote."
		}
	default:
		what = fmt.Sprintf("The _metadata file at %s has unexpected bytes from byte %d on, after the point where the file Flink "+
			"writes ends: Flink would ignore them and load it, but they mean it is not the file Flink wrote.", e.File, e.Offset)
	}
	return diag.NewErrorDiagnostic(summary, detail(op, what+" Nothing was planned: "+next, err))
}

// FromPlanningError reports a failure to derive a plan from a recovery
// point (recoveryplan): a marker set the plan model refuses gets its
// cleanup advice, anything else is the checkpoint reader's.
func FromPlanningError(op string, err error) diag.Diagnostic {
	for _, planning := range []error{cleanupplan.ErrLegacyMarker, cleanupplan.ErrInconsistentMarkers, cleanupplan.ErrMalformedPlan} {
		if errors.Is(err, planning) {
			return FromCleanupError(op, err)
		}
	}
	return FromCheckpointError(op, err)
}

// FromCheckpointPathError reports a failure to plan from the pinned
// checkpoint_path src. A retained checkpoint (chk-N) that is gone, or whose
// _metadata is, was most likely retired by Flink: that gets the way out of
// pinning; anything else is FromPlanningError's.
func FromCheckpointPathError(op, src string, err error) diag.Diagnostic {
	var missing *checkpoint.MissingStateFileError
	gone := (errors.Is(err, checkpoint.ErrNotFound) && !errors.As(err, &missing)) || errors.Is(err, checkpoint.ErrMissingMetadata)
	parent, ok := retainedCheckpointParent(src)
	if errors.Is(err, checkpoint.ErrMissingMetadata) && !ok && !strings.HasPrefix(lastElement(src), "savepoint-") {
		return jobDirectoryAsPath(op, src, err)
	}
	if !gone || !ok {
		return FromPlanningError(op, err)
	}
	summary, what := "Checkpoint Not Found", "checkpoint_path names a retained checkpoint that no longer exists."
	if errors.Is(err, checkpoint.ErrMissingMetadata) {
		summary, what = "Checkpoint Is Incomplete", "checkpoint_path names a retained checkpoint without _metadata: "+
			"Flink is deleting it (or has not finished writing it)."
	}
	return diag.NewErrorDiagnostic(summary, detail(op, fmt.Sprintf(
		"%s Flink deletes chk-N directories beyond state.checkpoints.num-retained as newer checkpoints complete, so a "+
			"configuration that pins one fails every plan once it retires. Nothing was planned.\n\n"+
			"Follow the job's retained checkpoints instead: replace checkpoint_path with\n\n"+
			"  checkpoint_dir = %q\n\n"+
			"The plan then derives from the oldest retained checkpoint and moves forward as Flink retires them "+
			"(select = \"newest\" or nth_newest choose another). Or pin a savepoint, which Flink never deletes. "+
			"If the path is simply wrong, correct it.", what, parent), err))
}

// jobDirectoryAsPath: a directory without _metadata whose name is neither
// chk-N nor savepoint-*, which is what a job's checkpoint directory (or a
// savepoint target directory) looks like. The name is all we go by, so the
// advice says "most likely"; the reader's own error follows as always.
func jobDirectoryAsPath(op, src string, err error) diag.Diagnostic {
	dir := strings.TrimRight(src, "/\\")
	return diag.NewErrorDiagnostic("Checkpoint Path Is A Job Directory", detail(op, fmt.Sprintf(
		"checkpoint_path names a directory that holds no _metadata and is neither a checkpoint (chk-N) nor a savepoint "+
			"directory: most likely the job's checkpoint directory, which holds one chk-N per retained checkpoint. "+
			"checkpoint_path takes one recovery point; to plan from the job's retained checkpoints, write\n\n"+
			"  checkpoint_dir = %q\n\n"+
			"instead (the plan follows the oldest; select or nth_newest choose another), or savepoint_dir if it is the "+
			"directory Flink writes savepoints into. To pin one point, name a chk-N or savepoint directory inside it. "+
			"Nothing was planned.", dir), err))
}

// lastElement is the last element of a path or URI as the configuration
// wrote it, without trailing separators.
func lastElement(src string) string {
	p := strings.TrimRight(src, "/\\")
	return p[strings.LastIndexAny(p, "/\\")+1:]
}

// retainedCheckpointParent returns the job directory of a chk-N path
// (optionally ending in /_metadata), as the configuration wrote it.
func retainedCheckpointParent(src string) (string, bool) {
	p := strings.TrimRight(src, "/\\")
	p = strings.TrimSuffix(p, "_metadata")
	p = strings.TrimRight(p, "/\\")
	i := strings.LastIndexAny(p, "/\\")
	digits, ok := strings.CutPrefix(p[i+1:], "chk-")
	if !ok || digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return "", false
	}
	parent := p[:max(i, 0)]
	switch {
	case i < 0:
		parent = "." // a relative chk-N
	case parent == "" || strings.HasSuffix(parent, ":") || strings.HasSuffix(parent, "/"):
		parent += "/" // a root: "/", "file:/", "file:///"
	}
	return parent, true
}
