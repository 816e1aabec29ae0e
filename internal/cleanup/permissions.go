package cleanup

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/actionstate/terraform-provider-flinkagents/internal/kafkaops"
	"github.com/actionstate/terraform-provider-flinkagents/internal/permissions"
)

// checkPermissions refuses, before anything is committed, an apply whose
// principal could record a boundary but not delete below it (or the
// reverse): a COMMITTED boundary that cannot be applied blocks every
// restore below it while deleting nothing. Brokers report authorized
// operations with Metadata (KIP-430); a broker that reports none (no
// authorizer, or too old) is not second-guessed.
func checkPermissions(data, control kafkaops.Topic) error {
	var missing []string
	need := func(t kafkaops.Topic, op kadm.ACLOperation, why string) {
		if len(t.AuthorizedOperations) == 0 || slices.Contains(t.AuthorizedOperations, op) || slices.Contains(t.AuthorizedOperations, kadm.OpAll) {
			return
		}
		missing = append(missing, fmt.Sprintf("%s on topic %q (%s)", strings.ToUpper(op.String()), t.Name, why))
	}
	need(data, kadm.OpDelete, "DeleteRecords")
	need(control, kadm.OpRead, "reading recorded boundaries")
	need(control, kadm.OpWrite, "recording COMMITTED and APPLIED")
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("%w: the principal lacks %s. Grant these ACLs (and WRITE on the transactional ID %q) and retry; nothing was written or deleted",
		ErrNotAuthorized, strings.Join(missing, ", "), kafkaops.TransactionalID(control.Name))
}

// explainRefusal turns an error for a request the broker refused for lack of
// an ACL into ErrNotAuthorized naming that ACL and the entry of the required
// permissions (internal/permissions) that grants it on pair; outcome says
// what the refused operation left behind. Other errors pass unchanged.
func explainRefusal(err error, pair permissions.Input, outcome string) error {
	need, ok := permissions.Refused(err)
	if !ok || errors.Is(err, ErrNotAuthorized) {
		return err
	}
	why := fmt.Sprintf("the broker refused %s to the principal (%s)", need, need.Request)
	if e, ok := pair.Granting(permissions.Terraform, need); ok && e.Operation != need.Operation {
		why += fmt.Sprintf("; the required permissions grant it through %s on the %s", e.Operation, e.Resource)
	}
	return fmt.Errorf("%w: %s. %s: %w", ErrNotAuthorized, why, outcome, err)
}
