package diag

import (
	"context"
	"errors"

	fwdiag "github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/actionstate/terraform-provider-flinkagents/internal/checkpoint"
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
		"Check checkpoint_path: it must name a chk-N directory, a savepoint directory, or a _metadata file readable from where Terraform runs."},
	{checkpoint.ErrUnsupportedVersion, "Unsupported Checkpoint Format",
		"This reader supports _metadata versions 3 to 7 (Flink 1.16 through 2.x). Take a savepoint with a supported Flink version."},
	{checkpoint.ErrAmbiguousOperator, "Several Operators Hold Recovery Markers",
		"Set operator_uid or operator_uid_hash to pick the Flink Agents operator whose action state this plan cleans."},
	{checkpoint.ErrOperatorNotFound, "Operator Not Found In Checkpoint",
		"Check operator_uid / operator_uid_hash against the operators listed above, or omit both to find the operator holding recovery markers."},
	{checkpoint.ErrStateNotFound, "Recovery Markers Not Found",
		"The operator holds no union state named recoveryMarker: the job was not using the Kafka action-state store, or runs a Flink Agents release without recovery markers."},
	{checkpoint.ErrUnknownKryoClass, "Unknown Serialized Class In Checkpoint",
		"The markers were written with a Kryo configuration this reader does not know. If the job registers Kryo types or serializers " +
			"(pipeline.serialization-config), they shift Kryo's registration IDs; remove registrations for java.util.HashMap and the marker class, or report the job's configuration."},
	{checkpoint.ErrCorrupt, "Corrupt Checkpoint Data",
		"The bytes at the named file and offset do not parse. Nothing was planned. Check the checkpoint was copied completely, or use another one."},
	{checkpoint.ErrInvalidSelector, "Invalid Operator Selector",
		"Set either operator_uid or operator_uid_hash (32 hex digits), not both."},
}

// FromCheckpointError turns a checkpoint reader error into a diagnostic.
func FromCheckpointError(op string, err error) fwdiag.Diagnostic {
	for _, r := range checkpointRefusals {
		if errors.Is(err, r.err) {
			return fwdiag.NewErrorDiagnostic(r.summary, detail(op, r.next, err))
		}
	}
	return fwdiag.NewErrorDiagnostic("Cannot Read Checkpoint", detail(op, "Check the path and permissions.", err))
}
