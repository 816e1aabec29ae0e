package diag

import (
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
